// Failing a chapter's build with a message a contributor can act on: the file, the line, what is
// wrong and what to do. Build tools print a thrown error's own enumerable properties as an object
// dump; the message already says everything, so those properties are kept but hidden from the dump.
import { relative } from 'node:path';
import type { Point, Position } from 'unist';
import type { VFile } from 'vfile';

function lineOf(place: Point | Position | undefined): number | undefined {
  if (!place) return undefined;
  return 'start' in place ? place.start.line : place.line;
}

export function failAt(file: VFile, message: string, place: Point | Position | undefined, ruleId: string): never {
  const line = lineOf(place);
  const path = file.path ? relative(file.cwd, file.path).split('\\').join('/') : undefined;
  const where = path ? `${path}${line ? `:${line}` : ''}` : undefined;
  // Lead with file:line unless the message already names a file and line.
  const text = where && !/\S+\.(md|ya?ml):\d+/.test(message) ? `${where}: ${message}` : message;
  const error = file.message(text, { place, ruleId, source: 'podlife' });
  error.fatal = true;
  for (const key of Object.keys(error)) {
    Object.defineProperty(error, key, { enumerable: false });
  }
  throw error;
}
