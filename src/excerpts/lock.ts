// content/sources.lock.json: the pinned upstream and, per excerpt, the upstream line of each quoted line.
// The build reads only this file (it works offline); `npm run sources:verify` writes it.
//
// Per excerpt line, one string (a reviewable diff when the book or upstream moves):
//   "1450 3fa2c1d09b1e"  an upstream line and the hash of its text as quoted
//   "? 3fa2c1d09b1e"     an upstream line whose number nothing proves yet (after an elision, unverified)
//   "note 3fa2c1d09b1e"  an author's annotation: not upstream, never numbered
//   "gap"                a `// ...` elision line
//   "blank"              a blank line the author added (not upstream)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { SourceProblem } from './errors.ts';
import type { Excerpt } from './model.ts';

export interface Upstream {
  repo: string;
  tag: string;
  commit: string | null;
}

export type PinnedLine =
  | { kind: 'upstream'; line: number | null; hash: string }
  | { kind: 'note'; hash: string }
  | { kind: 'gap' }
  | { kind: 'blank' };

export interface LockEntry {
  path: string;
  function: string;
  /** Upstream line of the quoted declaration (the chapter's reference, or where verification found it). */
  ref: number | null;
  verified: boolean;
  /** sha256 of the upstream lines the excerpt quotes, as read from a checkout; null until verified. */
  hash: string | null;
  /** Where an unverified reference comes from (free text for maintainers). */
  evidence?: string;
  lines: PinnedLine[];
}

export interface Lock {
  upstream: Upstream;
  excerpts: Record<string, LockEntry>;
}

export const DEFAULT_UPSTREAM: Upstream = { repo: 'kubernetes/kubernetes', tag: 'v1.36.2', commit: null };

const ABOUT =
  'Pins the upstream Kubernetes source the book quotes. Per excerpt line: "<upstream line> <text hash>", ' +
  '"? <hash>" (upstream, line not proven yet), "note <hash>" (author annotation), "gap" (// ... elision), ' +
  '"blank" (author blank line). Written by `npm run sources:verify -- --update`; the build reads only this file.';

/** Whitespace never matters when comparing quoted code with upstream (tabs vs spaces, gofmt alignment). */
export function normalizeCode(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

export function lineHash(text: string): string {
  return createHash('sha256').update(normalizeCode(text)).digest('hex').slice(0, 12);
}

export function upstreamHash(lines: string[]): string {
  return `sha256:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
}

const LINE_ENTRY = /^(?:(\d+|\?) ([0-9a-f]{12})|note ([0-9a-f]{12})|(gap)|(blank))$/;

function parsePinnedLine(value: unknown): PinnedLine | undefined {
  if (typeof value !== 'string') return undefined;
  const m = LINE_ENTRY.exec(value);
  if (!m) return undefined;
  if (m[1] !== undefined) return { kind: 'upstream', line: m[1] === '?' ? null : Number(m[1]), hash: m[2] };
  if (m[3] !== undefined) return { kind: 'note', hash: m[3] };
  return m[4] ? { kind: 'gap' } : { kind: 'blank' };
}

export function formatPinnedLine(line: PinnedLine): string {
  switch (line.kind) {
    case 'upstream':
      return `${line.line ?? '?'} ${line.hash}`;
    case 'note':
      return `note ${line.hash}`;
    default:
      return line.kind;
  }
}

/** Read and validate the lock. Problems name the lock file and the excerpt id; never a JSON stack. */
export function parseLock(text: string, file: string): Lock {
  const fail = (message: string): never => {
    throw new SourceProblem(
      message,
      'fix the file by hand, or rewrite it with `npm run sources:verify -- --update`',
      file,
    );
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return fail(`not valid JSON: ${(err as Error).message}`);
  }
  const root = data as { upstream?: Partial<Upstream>; excerpts?: Record<string, Record<string, unknown>> };
  const up = root?.upstream;
  if (!up || typeof up.repo !== 'string' || typeof up.tag !== 'string') {
    return fail('"upstream" must name the repo and tag, e.g. {"repo": "kubernetes/kubernetes", "tag": "v1.36.2", "commit": null}');
  }
  const excerpts: Record<string, LockEntry> = {};
  for (const [id, raw] of Object.entries(root.excerpts ?? {})) {
    const where = `excerpt "${id}"`;
    if (typeof raw?.path !== 'string' || typeof raw.function !== 'string') fail(`${where} needs "path" and "function"`);
    if (raw.ref !== null && !(Number.isSafeInteger(raw.ref) && (raw.ref as number) > 0)) {
      fail(`${where}: "ref" must be a line number or null`);
    }
    if (typeof raw.verified !== 'boolean') fail(`${where}: "verified" must be true or false`);
    if (raw.hash !== null && typeof raw.hash !== 'string') fail(`${where}: "hash" must be a string or null`);
    if (!Array.isArray(raw.lines)) fail(`${where}: "lines" must be a list`);
    const lines = (raw.lines as unknown[]).map((value, i) => {
      const line = parsePinnedLine(value);
      if (!line) {
        return fail(`${where}: lines[${i}] is ${JSON.stringify(value)}; expected "<line> <hash>", "? <hash>", "note <hash>", "gap" or "blank"`);
      }
      return line;
    });
    excerpts[id] = {
      path: raw.path as string,
      function: raw.function as string,
      ref: raw.ref as number | null,
      verified: raw.verified as boolean,
      hash: raw.hash as string | null,
      ...(typeof raw.evidence === 'string' ? { evidence: raw.evidence } : {}),
      lines,
    };
  }
  return { upstream: { repo: up.repo, tag: up.tag, commit: typeof up.commit === 'string' ? up.commit : null }, excerpts };
}

export function readLock(file: string): Lock {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new SourceProblem(
      'the source lock is missing',
      'create it with `npm run sources:verify -- --update` (add `--upstream <kubernetes checkout>` to verify as well)',
      file,
    );
  }
  return parseLock(text, file);
}

export function formatLock(lock: Lock): string {
  const excerpts: Record<string, unknown> = {};
  for (const id of Object.keys(lock.excerpts).sort()) {
    const e = lock.excerpts[id];
    excerpts[id] = {
      path: e.path,
      function: e.function,
      ref: e.ref,
      verified: e.verified,
      hash: e.hash,
      ...(e.evidence ? { evidence: e.evidence } : {}),
      lines: e.lines.map(formatPinnedLine),
    };
  }
  return `${JSON.stringify({ _about: ABOUT, upstream: lock.upstream, excerpts }, null, 2)}\n`;
}

export function writeLock(file: string, lock: Lock): void {
  writeFileSync(file, formatLock(lock));
}

/** The first upstream line number and the last one an entry knows (for permalinks). */
export function numberedSpan(entry: LockEntry): { first: number; last: number } | undefined {
  const numbers = entry.lines.flatMap((l) => (l.kind === 'upstream' && l.line !== null ? [l.line] : []));
  if (!numbers.length) return undefined;
  return { first: Math.min(...numbers), last: Math.max(...numbers) };
}

/**
 * The line numbers a reference alone proves: the quoted declaration is at `ref`, and the lines around it
 * are consecutive up to the first elision either way. Annotations take no number; nothing past an
 * elision (whole-line, or `...` inside a line) is known.
 */
export function provenNumbers(excerpt: Excerpt, kinds: PinnedLine['kind'][], ref: number | null): (number | null)[] {
  const numbers: (number | null)[] = kinds.map(() => null);
  if (ref === null) return numbers;
  const anchor = excerpt.decl.line;
  const numbered = (i: number) => kinds[i] === 'upstream';
  let n = ref;
  for (let i = anchor; i < kinds.length; i++) {
    if (kinds[i] === 'gap') break;
    if (!numbered(i)) continue;
    numbers[i] = n++;
    if (excerpt.lines[i].elisions.length) break;
  }
  n = ref - 1;
  for (let i = anchor - 1; i >= 0; i--) {
    if (kinds[i] === 'gap' || excerpt.lines[i].elisions.length) break;
    if (!numbered(i)) continue;
    numbers[i] = n--;
  }
  return numbers;
}

/** Why an entry does not (or no longer) describe an excerpt, placed on an excerpt line; undefined if it does. */
export function entryMismatch(excerpt: Excerpt, entry: LockEntry): { line: number; message: string } | undefined {
  const { lines } = excerpt;
  if (entry.path !== excerpt.ref.path) {
    return { line: -1, message: `the lock pins ${entry.path} for this excerpt, but its reference says ${excerpt.ref.path}` };
  }
  if (entry.function !== excerpt.decl.name) {
    return { line: excerpt.decl.line, message: `the lock pins function ${entry.function}, but this excerpt quotes ${excerpt.decl.name}` };
  }
  if (excerpt.ref.line !== null && entry.ref !== excerpt.ref.line) {
    const why = entry.verified
      ? `verification found ${excerpt.decl.name} at L${entry.ref} of ${entry.path}, but the reference says L${excerpt.ref.line}`
      : `the lock records L${entry.ref ?? '?'} but the reference says L${excerpt.ref.line}`;
    return { line: -1, message: why };
  }
  for (let i = 0; i < Math.max(lines.length, entry.lines.length); i++) {
    const line = lines[i];
    const pin = entry.lines[i];
    if (!line) return { line: lines.length - 1, message: `the lock records ${entry.lines.length} lines but the excerpt has ${lines.length}` };
    if (!pin) return { line: i, message: `the lock records ${entry.lines.length} lines but the excerpt has ${lines.length}` };
    const ok =
      line.kind === 'elision'
        ? pin.kind === 'gap'
        : line.kind === 'blank'
          ? pin.kind === 'blank' || (pin.kind === 'upstream' && pin.hash === lineHash(''))
          : (pin.kind === 'upstream' || pin.kind === 'note') && pin.hash === lineHash(line.text);
    if (!ok) return { line: i, message: 'this line is not the one the lock recorded here (the excerpt was edited)' };
  }
  if (!entry.verified) {
    const proven = provenNumbers(excerpt, entry.lines.map((l) => l.kind), entry.ref);
    const claimed = entry.lines.findIndex((l, i) => l.kind === 'upstream' && l.line !== null && l.line !== proven[i]);
    if (claimed !== -1) {
      return {
        line: claimed,
        message: 'the lock numbers this line, but the excerpt is not verified and its reference does not prove that number',
      };
    }
  }
  return undefined;
}
