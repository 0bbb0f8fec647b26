// What the excerpt plugins share: their options, which chapter a file is, and how a problem fails the build.
import path from 'node:path';
import type { Node } from 'unist';
import type { VFile } from 'vfile';
import { type Chapter, DEFAULT_CHAPTERS_DIR, chapterOf, chapterUrl } from '../excerpts/collect.ts';
import type { SourceProblem } from '../excerpts/errors.ts';
import type { LockEntry, Upstream } from '../excerpts/lock.ts';
import type { Excerpt } from '../excerpts/model.ts';
import type { IndexOptions } from '../excerpts/source-index.ts';
import { failAt } from './fail.ts';

/** Options of remarkGoExcerpts and remarkStepLinks: where the book and the lock are. */
export interface ExcerptPipelineOptions extends IndexOptions {}

export function resolveOptions(options: ExcerptPipelineOptions = {}): Required<Pick<IndexOptions, 'root' | 'chaptersDir'>> & ExcerptPipelineOptions {
  return { ...options, root: options.root ?? process.cwd(), chaptersDir: options.chaptersDir ?? DEFAULT_CHAPTERS_DIR };
}

/** The chapter a file is, or undefined for Markdown outside `content/chapters/<lang>/`. */
export function chapterForFile(file: VFile, options: ExcerptPipelineOptions): Pick<Chapter, 'file' | 'lang' | 'slug' | 'url'> | undefined {
  if (!file.path) return undefined;
  const { chaptersDir } = resolveOptions(options);
  const root = path.resolve(resolveOptions(options).root);
  const absolute = path.resolve(file.cwd, file.path);
  const where = chapterOf(path.relative(path.join(root, chaptersDir), absolute));
  if (!where) return undefined;
  return {
    file: path.relative(root, absolute).split(path.sep).join('/'),
    lang: where.lang,
    slug: where.slug,
    url: chapterUrl(where.lang, where.slug, options.base),
  };
}

/** Fail the chapter's build with the problem: file and line, what is wrong, what to do. */
export function failWith(file: VFile, problem: SourceProblem, node: Node | undefined, ruleId: string): never {
  const place = problem.line ? { line: problem.line, column: problem.column ?? 1 } : node?.position;
  const where = `${problem.file}${problem.line ? `:${problem.line}` : ''}`;
  return failAt(file, `${problem.message} (${where}). Fix: ${problem.hint}`, place, ruleId);
}

/** What rehypeGoExcerpts needs to render one excerpt. */
export interface ExcerptJob {
  excerpt: Excerpt;
  pin: LockEntry;
  lang: string;
  anchor: string;
  upstream: Upstream;
  /** Call name → link, for the functions quoted somewhere in the book. */
  calls: Record<string, string>;
}

/** Excerpts prepared for one page, by excerpt id. */
export type ExcerptJobs = Map<string, ExcerptJob>;

declare module 'vfile' {
  interface DataMap {
    podlifeExcerpts: ExcerptJobs;
  }
}

export const EXCERPT_PLACEHOLDER = 'dataPodlifeExcerpt';
