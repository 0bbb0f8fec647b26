// Failing a chapter's build with a message a contributor can act on: the file, the line, what is
// wrong and what to do. Build tools print a thrown error's own enumerable properties as an object
// dump; the message already says everything, so those properties are kept but hidden from the dump.
import type { Point, Position } from 'unist';
import type { VFile } from 'vfile';

export function failAt(file: VFile, message: string, place: Point | Position | undefined, ruleId: string): never {
  const error = file.message(message, { place, ruleId, source: 'podlife' });
  error.fatal = true;
  for (const key of Object.keys(error)) {
    Object.defineProperty(error, key, { enumerable: false });
  }
  throw error;
}
