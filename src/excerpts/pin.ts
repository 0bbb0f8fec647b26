// Pin an excerpt to its lock entry, or say precisely why it cannot be pinned and what to run.
import { SourceProblem } from './errors.ts';
import { type Lock, type LockEntry, entryMismatch } from './lock.ts';
import type { Excerpt } from './model.ts';

export const UPDATE_HINT =
  'record it with `npm run sources:verify -- --update` (offline: pins it as not yet verified), or verify it with ' +
  '`npm run sources:verify -- --update --upstream <kubernetes checkout>`';

export interface PinTarget {
  id: string;
  excerpt: Excerpt;
  /** Chapter file and the file line of the code block's first line, for messages. */
  file: string;
  firstCodeLine: number;
}

export function pinExcerpt(target: PinTarget, lock: Lock, lockFile: string): LockEntry | SourceProblem {
  const { id, excerpt, file, firstCodeLine } = target;
  const entry = lock.excerpts[id];
  const fileLine = (line: number) => firstCodeLine + excerpt.offset + line;
  if (!entry) {
    return new SourceProblem(
      `${excerpt.ref.path} (${excerpt.decl.name}) is not in ${lockFile}: this excerpt (${id}) has never been pinned`,
      UPDATE_HINT,
      file,
      firstCodeLine - (excerpt.ref.form === 'meta' ? 1 : 0),
    );
  }
  const mismatch = entryMismatch(excerpt, entry);
  if (mismatch) {
    const line = mismatch.line < 0 ? firstCodeLine - (excerpt.ref.form === 'meta' ? 1 : 0) : fileLine(mismatch.line);
    const hint = /verification found/.test(mismatch.message)
      ? `upstream moved: change the reference to L${entry.ref} (then rerun the verifier), or re-verify with \`npm run sources:verify -- --update --upstream <kubernetes checkout>\``
      : UPDATE_HINT;
    return new SourceProblem(`${mismatch.message} (${lockFile}, ${id})`, hint, file, line);
  }
  return entry;
}
