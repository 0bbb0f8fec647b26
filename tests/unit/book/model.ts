// The book as its tests read it: every chapter's frontmatter, its Markdown tree (remark-parse +
// remark-directive, the parser the site's pipeline uses), its Go excerpts (the excerpt engine's own parser),
// and the pieces the book brief asks of every chapter. The checks return problems as sentences that name
// the file and line, so a failing test says what to fix.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Code, Heading, Link, Root } from 'mdast';
import type { ContainerDirective, LeafDirective } from 'mdast-util-directive';
import { toString } from 'mdast-util-to-string';
import remarkDirective from 'remark-directive';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { parse as parseYaml } from 'yaml';
import { type Chapter, chapterUrl, collectChapter } from '../../../src/excerpts/collect.ts';
import type { SourceIndex } from '../../../src/excerpts/source-index.ts';
import { parseMeta } from '../../../src/pipeline/meta.ts';

/** The "Try it" heading in each language (the book brief's wording). */
export const TRY_IT: Record<string, string> = { en: 'Try it', zh: '动手试试' };

/** One structural element of a chapter, in document order. */
export type Piece =
  | { kind: 'heading'; depth: number; text: string; line: number }
  | { kind: 'go'; line: number }
  | { kind: 'mermaid'; line: number }
  | { kind: 'real'; value: string; line: number }
  | { kind: 'simulated'; scenario: string; at: string | null; commands: string[]; line: number }
  | { kind: 'console'; commands: string[]; line: number }
  | { kind: 'directive'; name: string; attributes: Record<string, string>; line: number };

export interface ExcerptFacts {
  func: string;
  path: string;
  line: number | null;
  anchors: string[];
  fenceLine: number;
}

export interface ChapterModel {
  lang: string;
  slug: string;
  order: number;
  /** Relative to the book root, forward slashes: `content/chapters/zh/restarts.md`. */
  file: string;
  pieces: Piece[];
  excerpts: ExcerptFacts[];
  stepLinks: { key: string; line: number }[];
  /** Excerpts that do not parse, as the excerpt engine reports them. */
  problems: string[];
}

export interface Book {
  root: string;
  languages: string[];
  chapters: ChapterModel[];
}

const parser = unified().use(remarkParse).use(remarkDirective);

/** Frontmatter replaced by blank lines, so Markdown positions stay file lines. */
function splitFrontmatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { data: {}, body: text };
  return {
    data: (parseYaml(match[1]) as Record<string, unknown>) ?? {},
    body: '\n'.repeat(match[0].split('\n').length - 1) + text.slice(match[0].length),
  };
}

/** The command lines of a console block: `$ cmd` lines (a plain block may also list bare commands). */
function commandsOf(code: Code, bare: boolean): string[] {
  return code.value
    .split('\n')
    .filter((l) => l.startsWith('$ ') || (bare && l.trim() !== '' && !l.trimStart().startsWith('#')))
    .map((l) => l.replace(/^\$ /, '').trim());
}

function piecesOf(tree: Root): { pieces: Piece[]; stepLinks: { key: string; line: number }[] } {
  const pieces: Piece[] = [];
  const stepLinks: { key: string; line: number }[] = [];
  visit(tree, (node) => {
    const line = node.position?.start.line ?? 0;
    switch (node.type) {
      case 'heading': {
        const h = node as Heading;
        pieces.push({ kind: 'heading', depth: h.depth, text: toString(h), line });
        return;
      }
      case 'code': {
        const code = node as Code;
        const meta = parseMeta(code.meta);
        if (code.lang === 'go') pieces.push({ kind: 'go', line });
        else if (code.lang === 'mermaid') pieces.push({ kind: 'mermaid', line });
        else if (code.lang === 'console' && meta.real === true) pieces.push({ kind: 'real', value: code.value, line });
        else if (code.lang === 'console' && typeof meta.scenario === 'string') {
          pieces.push({ kind: 'simulated', scenario: meta.scenario, at: typeof meta.at === 'string' ? meta.at : null, commands: commandsOf(code, false), line });
        } else if (code.lang === 'console') pieces.push({ kind: 'console', commands: commandsOf(code, true), line });
        return;
      }
      case 'containerDirective':
      case 'leafDirective': {
        const d = node as ContainerDirective | LeafDirective;
        const attributes = Object.fromEntries(
          Object.entries(d.attributes ?? {})
            .filter((e): e is [string, string] => typeof e[1] === 'string')
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        );
        pieces.push({ kind: 'directive', name: d.name, attributes, line });
        return;
      }
      case 'link': {
        const link = node as Link;
        if (link.url.startsWith('step:')) stepLinks.push({ key: decodeURIComponent(link.url.slice('step:'.length)), line });
        return;
      }
    }
  });
  return { pieces, stepLinks };
}

/** Read every chapter under `<root>/content/chapters/<lang>/<slug>.md`. */
export async function readBook(root: string): Promise<Book> {
  const dir = path.join(root, 'content/chapters');
  const languages = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const chapters: ChapterModel[] = [];
  for (const lang of languages) {
    for (const name of readdirSync(path.join(dir, lang)).filter((f) => f.endsWith('.md')).sort()) {
      const slug = name.replace(/\.md$/, '');
      const file = `content/chapters/${lang}/${name}`;
      const text = readFileSync(path.join(root, file), 'utf8');
      const { data, body } = splitFrontmatter(text);
      const order = typeof data.order === 'number' ? data.order : Number.NaN;
      const chapter: Chapter = { file, lang, slug, url: chapterUrl(lang, slug), title: String(data.title ?? slug), order };
      const { excerpts, problems } = await collectChapter(chapter, text);
      const { pieces, stepLinks } = piecesOf(parser.parse(body) as Root);
      chapters.push({
        lang,
        slug,
        order,
        file,
        pieces,
        stepLinks,
        excerpts: excerpts.map((e) => ({
          func: e.excerpt.decl.name,
          path: e.excerpt.ref.path,
          line: e.excerpt.ref.line,
          anchors: e.excerpt.steps.map((s) => s.anchor),
          fenceLine: e.fenceLine,
        })),
        problems: problems.map((p) => p.message),
      });
    }
  }
  chapters.sort((a, b) => (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0) || a.order - b.order);
  return { root, languages, chapters };
}

function inLang(book: Book, lang: string): ChapterModel[] {
  return book.chapters.filter((c) => c.lang === lang);
}

/** Pairs of the same chapter in two languages (the first language is the reference). */
function pairs(book: Book): [ChapterModel, ChapterModel][] {
  const [ref, ...others] = book.languages;
  const out: [ChapterModel, ChapterModel][] = [];
  for (const lang of others) {
    for (const a of inLang(book, ref)) {
      const b = book.chapters.find((c) => c.lang === lang && c.slug === a.slug);
      if (b) out.push([a, b]);
    }
  }
  return out;
}

/** Every language has the same chapters (slugs) with the same order. */
export function chapterSetProblems(book: Book): string[] {
  const problems: string[] = [];
  if (book.languages.length < 2) problems.push(`the book has ${book.languages.length} language(s) (${book.languages.join(', ')}); it needs zh and en`);
  const slugs = [...new Set(book.chapters.map((c) => c.slug))].sort();
  for (const slug of slugs) {
    for (const lang of book.languages) {
      if (!book.chapters.some((c) => c.lang === lang && c.slug === slug)) {
        const other = book.chapters.find((c) => c.slug === slug)!;
        problems.push(`content/chapters/${lang}/${slug}.md is missing: ${other.file} has no ${lang} counterpart`);
      }
    }
  }
  for (const [a, b] of pairs(book)) {
    if (a.order !== b.order) problems.push(`${a.file} has order ${a.order} but ${b.file} has order ${b.order}`);
  }
  for (const lang of book.languages) {
    const orders = inLang(book, lang).map((c) => c.order);
    const dupes = orders.filter((o, i) => orders.indexOf(o) !== i);
    if (dupes.length) problems.push(`${lang}: two chapters share order ${dupes.join(', ')}`);
  }
  return problems;
}

const describeExcerpt = (e: ExcerptFacts) => `${e.func} ${e.path} L${e.line ?? '?'}`;

/** The same excerpts (function, upstream path, reference line) with the same step anchors, in the same order. */
export function excerptProblems(book: Book): string[] {
  const problems: string[] = [];
  for (const c of book.chapters) for (const p of c.problems) problems.push(`${c.file}: an excerpt does not parse: ${p}`);
  for (const [a, b] of pairs(book)) {
    const n = Math.max(a.excerpts.length, b.excerpts.length);
    for (let i = 0; i < n; i++) {
      const x = a.excerpts[i];
      const y = b.excerpts[i];
      if (!x || !y) {
        const [has, lacks] = x ? [a, b] : [b, a];
        const e = (x ?? y)!;
        problems.push(`${has.file}:${e.fenceLine} quotes ${describeExcerpt(e)}, which ${lacks.file} does not quote (excerpt ${i + 1})`);
        continue;
      }
      if (describeExcerpt(x) !== describeExcerpt(y)) {
        problems.push(`excerpt ${i + 1} differs: ${a.file}:${x.fenceLine} quotes ${describeExcerpt(x)}, ${b.file}:${y.fenceLine} quotes ${describeExcerpt(y)}`);
      } else if (x.anchors.join(' ') !== y.anchors.join(' ')) {
        problems.push(`the steps of ${x.func} differ: ${a.file}:${x.fenceLine} has [${x.anchors.join(', ')}], ${b.file}:${y.fenceLine} has [${y.anchors.join(', ')}]`);
      }
    }
  }
  return problems;
}

function tryItSection(c: ChapterModel): { heading?: Piece; pieces: Piece[]; last: boolean } {
  const h2 = c.pieces.filter((p): p is Extract<Piece, { kind: 'heading' }> => p.kind === 'heading' && p.depth === 2);
  const heading = h2.find((h) => h.text.trim() === TRY_IT[c.lang]);
  if (!heading) return { pieces: [], last: false };
  const from = c.pieces.indexOf(heading) + 1;
  const next = c.pieces.findIndex((p, i) => i >= from && p.kind === 'heading' && p.depth <= 2);
  return { heading, pieces: c.pieces.slice(from, next < 0 ? undefined : next), last: h2.at(-1) === heading };
}

export interface ContentOptions {
  /** Chapter orders that must contain a :::simulation player. */
  simulationOrders: number[];
  /** Scenario names available (content/scenarios/*.yaml). */
  scenarios: Set<string>;
}

/** Each chapter: a diagram, a simulated output, a Try it section at the end; the player where required. */
export function contentProblems(book: Book, options: ContentOptions): string[] {
  const problems: string[] = [];
  for (const c of book.chapters) {
    const diagram = c.pieces.some((p) => p.kind === 'mermaid' || (p.kind === 'directive' && p.name === 'sequence'));
    if (!diagram) problems.push(`${c.file} has no diagram: add a \`\`\`mermaid block or a ::sequence{scenario="…"}`);
    const simulated = c.pieces.some((p) => p.kind === 'simulated' || (p.kind === 'directive' && p.name === 'simulation'));
    if (!simulated) problems.push(`${c.file} has no simulated output: add a \`\`\`console scenario="…" block or a :::simulation`);
    if (options.simulationOrders.includes(c.order) && !c.pieces.some((p) => p.kind === 'directive' && p.name === 'simulation')) {
      problems.push(`${c.file} (chapter ${c.order}) has no :::simulation{scenario="…"} player`);
    }
    const tryIt = tryItSection(c);
    if (!tryIt.heading) {
      problems.push(`${c.file} has no "## ${TRY_IT[c.lang]}" section`);
      continue;
    }
    if (!tryIt.last) problems.push(`${c.file}:${tryIt.heading.line}: "## ${TRY_IT[c.lang]}" is not the chapter's last section`);
    const commands = tryIt.pieces.flatMap((p) => (p.kind === 'console' ? p.commands : []));
    const runs = commands.filter((cmd) => cmd.startsWith('npx podlife simulate '));
    if (runs.length === 0) problems.push(`${c.file}:${tryIt.heading.line}: the Try it section has no \`npx podlife simulate <scenario>\` command in a console block`);
    for (const cmd of runs) {
      const name = cmd.split(/\s+/)[3];
      if (!options.scenarios.has(name)) problems.push(`${c.file}:${tryIt.heading.line}: Try it runs "${cmd}", but there is no content/scenarios/${name}.yaml`);
    }
  }
  return problems;
}

/** Every `[…](step:Key)` resolves in the source index, in the chapter's own language. */
export function stepLinkProblems(book: Book, index: Pick<SourceIndex, 'step'>): string[] {
  const problems: string[] = [];
  for (const c of book.chapters) {
    for (const link of c.stepLinks) {
      if (!index.step(link.key, c.lang)) problems.push(`${c.file}:${link.line}: the link step:${link.key} resolves to no quoted step in the ${c.lang} chapters`);
    }
  }
  return problems;
}

function signature(p: Piece): string {
  switch (p.kind) {
    case 'heading':
      return `heading level ${p.depth}`;
    case 'go':
    case 'mermaid':
      return p.kind;
    case 'real':
      return `real output ${JSON.stringify(p.value)}`;
    case 'simulated':
      return `simulated output of ${p.scenario}${p.at ? ` at ${p.at}` : ''}: ${p.commands.join(' ; ')}`;
    case 'console':
      return `console ${p.commands.join(' ; ')}`;
    case 'directive':
      return `${p.name}${JSON.stringify(p.attributes)}`;
  }
}

/**
 * Both languages have the same skeleton: headings (by level), excerpts, diagrams, outputs (real ones with the
 * same text, simulated ones with the same scenario, time and commands) and directives, in the same order.
 * Only prose, diagram labels and excerpt annotations may differ. Reports the first difference per chapter.
 */
export function skeletonProblems(book: Book): string[] {
  const problems: string[] = [];
  for (const [a, b] of pairs(book)) {
    const n = Math.max(a.pieces.length, b.pieces.length);
    for (let i = 0; i < n; i++) {
      const x = a.pieces[i];
      const y = b.pieces[i];
      const sx = x ? signature(x) : '(nothing)';
      const sy = y ? signature(y) : '(nothing)';
      if (sx !== sy) {
        problems.push(`${a.file}:${x?.line ?? 'end'} has ${sx}, where ${b.file}:${y?.line ?? 'end'} has ${sy}`);
        break;
      }
    }
  }
  return problems;
}
