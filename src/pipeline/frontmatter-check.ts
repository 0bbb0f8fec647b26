// Before Astro reads the chapters: every chapter file is where it should be and its frontmatter is
// valid, with each problem reported at its line (Astro's own schema error names the file and the
// field, not the line). Same schema as the content collection.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { chapterSchema, FIELD_HINTS } from '../chapter-schema.ts';
import { languages } from '../site.ts';

export const CHAPTERS_DIR = 'content/chapters';

export class ChapterProblems extends Error {}

interface Found {
  file: string;
  order?: number;
  orderLine?: number;
}

/**
 * Check every chapter; throws ChapterProblems listing what is wrong. Returns the warnings: a chapter written in one
 * language only (the book of the other goes without it).
 */
export function checkChapters(root = process.cwd()): string[] {
  const dir = join(root, CHAPTERS_DIR);
  if (!existsSync(dir)) return [];
  const problems: string[] = [];
  const byLang = new Map<string, Found[]>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const rel = join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name).slice(dir.length + 1).split('\\').join('/');
    const file = `${CHAPTERS_DIR}/${rel}`;
    const [lang, ...rest] = rel.split('/');
    if (rest.length !== 1 || !(languages as readonly string[]).includes(lang)) {
      problems.push(`${file}:1: chapters must be at ${CHAPTERS_DIR}/<lang>/<slug>.md with <lang> one of ${languages.join(', ')}. Move the file into one of those folders.`);
      continue;
    }
    const found = checkFrontmatter(readFileSync(join(dir, rel), 'utf8'), file, problems);
    if (!byLang.has(lang)) byLang.set(lang, []);
    byLang.get(lang)!.push(found);
  }
  for (const chapters of byLang.values()) {
    const seen = new Map<number, Found>();
    for (const c of chapters.sort((a, b) => a.file.localeCompare(b.file))) {
      if (c.order === undefined) continue;
      const first = seen.get(c.order);
      if (first) {
        problems.push(`${c.file}:${c.orderLine}: frontmatter field "order" is ${c.order}, the same as in ${first.file}. Give each chapter of a language its own order number.`);
      } else seen.set(c.order, c);
    }
  }
  if (problems.length) throw new ChapterProblems(problems.join('\n'));
  const slugs = new Map(languages.map((l) => [l, new Set((byLang.get(l) ?? []).map((c) => c.file.slice(c.file.lastIndexOf('/') + 1, -3)))] as const));
  const warnings: string[] = [];
  for (const [lang, own] of slugs) {
    for (const slug of [...own].sort()) {
      for (const other of languages) {
        if (!slugs.get(other)!.has(slug)) {
          warnings.push(`${CHAPTERS_DIR}/${lang}/${slug}.md has no ${CHAPTERS_DIR}/${other}/${slug}.md, so the ${other} book goes without this chapter (\`npx podlife new chapter\` writes both languages)`);
        }
      }
    }
  }
  return warnings;
}

/** The line and column of a value whose opening quote is never closed on its line, if there is one. */
function unclosedQuote(yaml: string): { line: number; col: number } | undefined {
  const rows = yaml.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const m = /^(\s*[\w-]+:\s*)(["'])/.exec(rows[i]);
    if (!m) continue;
    const rest = rows[i].slice(m[1].length + 1);
    const closed = m[2] === '"' ? /(^|[^\\])"/.test(rest) : rest.includes("'");
    if (!closed) return { line: i + 1, col: m[1].length + 1 };
  }
  return undefined;
}

function checkFrontmatter(text: string, file: string, problems: string[]): Found {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) {
    problems.push(`${file}:1: the chapter has no frontmatter. Start it with ---, then title:, description: and order:, then ---.`);
    return { file };
  }
  const lines = new LineCounter();
  const doc = parseDocument(m[1], { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    // the frontmatter's first line is the file's second (after ---); an unclosed quote is reported where the
    // document ends, so point at the line that opens it instead
    const at = e.code === 'MISSING_CHAR' ? (unclosedQuote(m[1]) ?? lines.linePos(e.pos[0])) : lines.linePos(e.pos[0]);
    problems.push(`${file}:${at.line + 1}:${at.col}: the frontmatter is not valid YAML: ${e.message.split('\n')[0]}`);
    return { file };
  }
  const lineOf = (key: string): number => {
    const contents = doc.contents;
    if (isMap(contents)) {
      for (const item of contents.items) {
        if (isScalar(item.key) && item.key.value === key && item.key.range) return lines.linePos(item.key.range[0]).line + 1;
      }
    }
    return 1;
  };
  const data = doc.toJS() as Record<string, unknown> | null;
  const result = chapterSchema.safeParse(data ?? {});
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? (issue as { keys?: string[] }).keys?.[0] ?? '');
      const unknown = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
      if (unknown.length) {
        for (const key of unknown) {
          problems.push(`${file}:${lineOf(key)}: unknown frontmatter field "${key}". A chapter has only title, description and order — remove it or fix its spelling.`);
        }
        continue;
      }
      const got = data && field in data ? ` (got ${JSON.stringify(data[field])})` : ' (missing)';
      problems.push(`${file}:${lineOf(field)}: frontmatter field "${field}": ${issue.message}${got}. Write ${FIELD_HINTS[field] ?? field}.`);
    }
    return { file };
  }
  return { file, order: result.data.order, orderLine: lineOf('order') };
}
