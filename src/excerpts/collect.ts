// Find the Go excerpts in chapters: `content/chapters/<lang>/<slug>.md`, a chapter's URL is `/<lang>/<slug>/`.
// A bad excerpt becomes a problem tied to its chapter, so one broken chapter does not hide the others.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Code, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { parse as parseYaml } from 'yaml';
import { ExcerptError, SourceProblem, locate } from './errors.ts';
import type { Excerpt } from './model.ts';
import { isExcerptBlock, parseExcerpt } from './parse.ts';

export interface Chapter {
  /** Project-relative, with forward slashes: `content/chapters/zh/kubelet-sync.md`. */
  file: string;
  lang: string;
  slug: string;
  url: string;
  title: string;
  order: number;
}

export interface ChapterExcerpt {
  /** `<lang>/<slug>#<Func>` (with `~2`, `~3` for a second quote of the same function in a chapter). */
  id: string;
  chapter: Chapter;
  /** 1-based file line of the opening fence. */
  fenceLine: number;
  /** 1-based file line of the code block's first line. */
  firstCodeLine: number;
  excerpt: Excerpt;
}

export interface BookScan {
  chapters: Chapter[];
  excerpts: ChapterExcerpt[];
  problems: SourceProblem[];
}

export interface CollectOptions {
  /** Project root (default: the working directory). */
  root?: string;
  /** Chapters folder, relative to root. */
  chaptersDir?: string;
  /** URL prefix the site is served under. */
  base?: string;
}

export const DEFAULT_CHAPTERS_DIR = 'content/chapters';

export function chapterUrl(lang: string, slug: string, base = '/'): string {
  return `${base.endsWith('/') ? base : `${base}/`}${lang}/${slug}/`;
}

/** lang and slug of a chapter file, from its path under the chapters folder; undefined if not a chapter. */
export function chapterOf(relativeToChapters: string): { lang: string; slug: string } | undefined {
  const parts = relativeToChapters.split(/[\\/]/);
  if (parts.length < 2 || !parts.at(-1)!.endsWith('.md') || parts[0].startsWith('..')) return undefined;
  return { lang: parts[0], slug: parts.slice(1).join('/').replace(/\.md$/, '') };
}

/** Frontmatter is replaced by blank lines so Markdown positions stay file positions. */
function splitFrontmatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { data: {}, body: text };
  let data: Record<string, unknown> = {};
  try {
    data = (parseYaml(match[1]) as Record<string, unknown>) ?? {};
  } catch {
    data = {}; // the content collection's schema reports bad frontmatter; excerpts only need the body
  }
  return { data, body: '\n'.repeat(match[0].split('\n').length - 1) + text.slice(match[0].length) };
}

export function parseMarkdown(body: string): Root {
  return unified().use(remarkParse).parse(body);
}

/** Parse every Go excerpt of one chapter. */
export async function collectChapter(chapter: Chapter, text: string): Promise<{ excerpts: ChapterExcerpt[]; problems: SourceProblem[] }> {
  const { body } = splitFrontmatter(text);
  const codes: Code[] = [];
  visit(parseMarkdown(body), 'code', (node: Code) => {
    if (isExcerptBlock(node.lang, node.value, node.meta)) codes.push(node);
  });
  const excerpts: ChapterExcerpt[] = [];
  const problems: SourceProblem[] = [];
  const seen = new Map<string, number>();
  for (const node of codes) {
    const fenceLine = node.position?.start.line ?? 1;
    const firstCodeLine = fenceLine + 1;
    try {
      const excerpt = await parseExcerpt(node.value, { meta: node.meta });
      if (!excerpt) continue;
      const name = excerpt.decl.name;
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      const id = `${chapter.lang}/${chapter.slug}#${name}${count > 1 ? `~${count}` : ''}`;
      excerpts.push({ id, chapter, fenceLine, firstCodeLine, excerpt });
    } catch (err) {
      if (!(err instanceof ExcerptError)) throw err;
      problems.push(locate(err, chapter.file, firstCodeLine, (node.position?.start.column ?? 1) - 1));
    }
  }
  return { excerpts, problems };
}

function listMarkdown(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listMarkdown(full));
    else if (entry.name.endsWith('.md')) files.push(full);
  }
  return files;
}

/** The chapter files, with what their frontmatter says, in book order (order, then slug) per language. */
export function listChapters(options: CollectOptions = {}): { chapter: Chapter; text: string }[] {
  const root = options.root ?? process.cwd();
  const dir = path.join(root, options.chaptersDir ?? DEFAULT_CHAPTERS_DIR);
  const out: { chapter: Chapter; text: string }[] = [];
  for (const full of listMarkdown(dir)) {
    const where = chapterOf(path.relative(dir, full));
    if (!where) continue;
    const text = readFileSync(full, 'utf8');
    const { data } = splitFrontmatter(text);
    out.push({
      chapter: {
        file: path.relative(root, full).split(path.sep).join('/'),
        lang: where.lang,
        slug: where.slug,
        url: chapterUrl(where.lang, where.slug, options.base),
        title: typeof data.title === 'string' ? data.title : where.slug,
        order: typeof data.order === 'number' ? data.order : Number.MAX_SAFE_INTEGER,
      },
      text,
    });
  }
  return out.sort(
    (a, b) =>
      (a.chapter.lang < b.chapter.lang ? -1 : a.chapter.lang > b.chapter.lang ? 1 : 0) ||
      a.chapter.order - b.chapter.order ||
      (a.chapter.slug < b.chapter.slug ? -1 : a.chapter.slug > b.chapter.slug ? 1 : 0),
  );
}

/** Every excerpt of the book, in book order. */
export async function collectBook(options: CollectOptions = {}): Promise<BookScan> {
  const chapters = listChapters(options);
  const scan: BookScan = { chapters: chapters.map((c) => c.chapter), excerpts: [], problems: [] };
  for (const { chapter, text } of chapters) {
    const { excerpts, problems } = await collectChapter(chapter, text);
    scan.excerpts.push(...excerpts);
    scan.problems.push(...problems);
  }
  return scan;
}
