// The source index: one map over every chapter of the book, built before any page renders (Astro renders
// each Markdown file on its own, but a `step:` link or a call link may point into another chapter).
// Key `<Func>#<n>` → chapter URL, anchor id, upstream path and line, per language. The build-time checks
// (every simulation trace key must be quoted) read the same index.
import { statSync } from 'node:fs';
import path from 'node:path';
import { type BookScan, type Chapter, type ChapterExcerpt, type CollectOptions, collectBook, listChapters } from './collect.ts';
import { SourceProblem } from './errors.ts';
import { type Lock, type LockEntry, readLock } from './lock.ts';
import { excerptAnchor } from './model.ts';
import { pinExcerpt } from './pin.ts';

export interface IndexedStep {
  key: string;
  n: number;
  text: string;
  lang: string;
  chapter: Chapter;
  /** Page anchor id (`syncpod-4`) and the full link (`/zh/kubelet-sync/#syncpod-4`). */
  anchor: string;
  href: string;
  path: string;
  /** Upstream line of the step (of its comment, or of the first quoted line after an annotation); null if not known. */
  line: number | null;
  excerptId: string;
}

export interface IndexedExcerpt {
  id: string;
  name: string;
  lang: string;
  chapter: Chapter;
  anchor: string;
  href: string;
  path: string;
  /** The lock entry when it matches the excerpt; undefined when the excerpt is not (correctly) pinned. */
  pin?: LockEntry;
  source: ChapterExcerpt;
}

export interface IndexOptions extends CollectOptions {
  /** The lock file, relative to root. */
  lockFile?: string;
}

export const DEFAULT_LOCK_FILE = 'content/sources.lock.json';

export interface SourceIndex {
  readonly root: string;
  readonly lockFile: string;
  readonly lock: Lock | undefined;
  readonly chapters: Chapter[];
  readonly excerpts: IndexedExcerpt[];
  /** Every problem found, by chapter file (excerpt parse errors and lock mismatches), plus a lock problem. */
  readonly problems: SourceProblem[];
  readonly languages: string[];
  step(key: string, lang: string): IndexedStep | undefined;
  steps(lang?: string): IndexedStep[];
  /** The excerpt quoting a function, in a language (the first in book order). */
  excerptOf(name: string, lang: string): IndexedExcerpt | undefined;
  /** Keys that some language's chapters do not quote (all languages when `lang` is not given). */
  missing(keys: Iterable<string>, lang?: string): { key: string; lang: string }[];
}

function stepLine(pin: LockEntry | undefined, stepLineIndex: number): number | null {
  if (!pin) return null;
  for (let i = stepLineIndex; i < pin.lines.length; i++) {
    const l = pin.lines[i];
    if (l.kind === 'upstream') return l.line;
    if (l.kind === 'gap') return null;
  }
  return null;
}

export function indexBook(scan: BookScan, lock: Lock | undefined, options: { root: string; lockFile: string; lockProblem?: SourceProblem }): SourceIndex {
  const problems = [...scan.problems];
  if (options.lockProblem) problems.push(options.lockProblem);
  const excerpts: IndexedExcerpt[] = [];
  const steps = new Map<string, Map<string, IndexedStep>>();
  const functions = new Map<string, Map<string, IndexedExcerpt>>();

  for (const source of scan.excerpts) {
    const { chapter, excerpt } = source;
    let pin: LockEntry | undefined;
    if (lock) {
      const pinned = pinExcerpt(
        { id: source.id, excerpt, file: chapter.file, firstCodeLine: source.firstCodeLine },
        lock,
        options.lockFile,
      );
      if (pinned instanceof SourceProblem) problems.push(pinned);
      else pin = pinned;
    }
    const anchor = excerptAnchor(excerpt.decl.name) + (source.id.includes('~') ? `-${source.id.split('~')[1]}` : '');
    const indexed: IndexedExcerpt = {
      id: source.id,
      name: excerpt.decl.name,
      lang: chapter.lang,
      chapter,
      anchor,
      href: `${chapter.url}#${anchor}`,
      path: excerpt.ref.path,
      pin,
      source,
    };
    excerpts.push(indexed);
    const byName = functions.get(chapter.lang) ?? new Map<string, IndexedExcerpt>();
    functions.set(chapter.lang, byName);
    if (!byName.has(indexed.name)) byName.set(indexed.name, indexed);

    const byKey = steps.get(chapter.lang) ?? new Map<string, IndexedStep>();
    steps.set(chapter.lang, byKey);
    for (const step of excerpt.steps) {
      if (byKey.has(step.key)) continue; // the first quote in book order is the step's home
      byKey.set(step.key, {
        key: step.key,
        n: step.n,
        text: step.text,
        lang: chapter.lang,
        chapter,
        anchor: step.anchor,
        href: `${chapter.url}#${step.anchor}`,
        path: excerpt.ref.path,
        line: stepLine(pin, step.line),
        excerptId: source.id,
      });
    }
  }

  const languages = [...new Set(scan.chapters.map((c) => c.lang))].sort();
  return {
    root: options.root,
    lockFile: options.lockFile,
    lock,
    chapters: scan.chapters,
    excerpts,
    problems,
    languages,
    step: (key, lang) => steps.get(lang)?.get(key),
    steps: (lang) =>
      (lang ? [steps.get(lang)] : languages.map((l) => steps.get(l))).flatMap((m) => [...(m?.values() ?? [])]),
    excerptOf: (name, lang) => functions.get(lang)?.get(name),
    missing(keys, lang) {
      const out: { key: string; lang: string }[] = [];
      for (const key of keys) {
        for (const l of lang ? [lang] : languages) if (!steps.get(l)?.has(key)) out.push({ key, lang: l });
      }
      return out;
    },
  };
}

/** Build the index from the chapters and the lock on disk. */
export async function buildSourceIndex(options: IndexOptions = {}): Promise<SourceIndex> {
  const root = options.root ?? process.cwd();
  const lockFile = options.lockFile ?? DEFAULT_LOCK_FILE;
  const scan = await collectBook({ ...options, root });
  let lock: Lock | undefined;
  let lockProblem: SourceProblem | undefined;
  try {
    lock = readLock(path.join(root, lockFile));
  } catch (err) {
    if (!(err instanceof SourceProblem)) throw err;
    lockProblem = new SourceProblem(err.message, err.hint, lockFile);
  }
  return indexBook(scan, lock, { root, lockFile, lockProblem });
}

/** What the index was built from: chapter files and the lock, with their modification times. */
function signature(options: IndexOptions): string {
  const root = options.root ?? process.cwd();
  const stamp = (file: string) => {
    try {
      const s = statSync(file);
      return `${s.mtimeMs}:${s.size}`;
    } catch {
      return 'missing';
    }
  };
  const files = listChapters(options).map((c) => `${c.chapter.file}@${stamp(path.join(root, c.chapter.file))}`);
  return JSON.stringify([options.base ?? '/', options.chaptersDir, options.lockFile, root, stamp(path.join(root, options.lockFile ?? DEFAULT_LOCK_FILE)), files]);
}

const memo = new Map<string, { signature: string; index: Promise<SourceIndex> }>();

/**
 * The index, built once per set of chapter files and rebuilt when a chapter or the lock changes
 * (so `astro dev` follows edits).
 */
export function getSourceIndex(options: IndexOptions = {}): Promise<SourceIndex> {
  const key = JSON.stringify([options.root ?? process.cwd(), options.chaptersDir, options.lockFile, options.base]);
  const sig = signature(options);
  const cached = memo.get(key);
  if (cached && cached.signature === sig) return cached.index;
  const index = buildSourceIndex(options);
  memo.set(key, { signature: sig, index });
  index.catch(() => memo.delete(key));
  return index;
}
