// Check an excerpt against an upstream checkout: find the quoted declaration in the file with the Go
// grammar, then walk the excerpt's lines down the upstream function. Whitespace never matters; `// ...`
// lets the next line match anywhere further down; `...` inside a line matches elided arguments or
// fields (even across upstream lines); a comment found nowhere upstream is the author's annotation.
//   exact   every quoted line is upstream's, consecutively, at the referenced line
//   elided  the same, with declared elisions
//   moved   the same text, but the declaration is at another line (the new line is reported)
//   changed some quoted line is not upstream's (a short diff is reported)
//   gone    the file or the declaration no longer exists
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { ChapterExcerpt } from './collect.ts';
import { parseGo } from './grammar.ts';
import { type LockEntry, type PinnedLine, lineHash, normalizeCode, upstreamHash } from './lock.ts';
import type { Excerpt, ExcerptLine } from './model.ts';

export type VerifyStatus = 'exact' | 'elided' | 'moved' | 'changed' | 'gone';

export interface VerifyResult {
  id: string;
  status: VerifyStatus;
  path: string;
  name: string;
  /** The chapter's reference line. */
  ref: number | null;
  /** Where the declaration is upstream. */
  found?: number;
  /** First and last upstream line the excerpt quotes. */
  span?: { first: number; last: number };
  /** Why it is gone, or the short diff of what changed. */
  details: string[];
  /** The verified lock entry (exact, elided, moved). */
  entry?: LockEntry;
}

const MAX_SPAN = 40;

function findDeclaration(root: Node, excerpt: Excerpt): Node | undefined {
  const { decl } = excerpt;
  const types = decl.kind === 'type' ? ['type_spec', 'type_alias'] : decl.kind === 'method' ? ['method_declaration'] : ['function_declaration'];
  const candidates = root.descendantsOfType(types).filter((n): n is Node => n?.childForFieldName('name')?.text === decl.name);
  if (decl.kind === 'type') return candidates[0]?.parent ?? undefined;
  if (decl.kind !== 'method') return candidates[0];
  const receiverType = (n: Node) =>
    n.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration')?.childForFieldName('type')?.text;
  const bare = (t: string | undefined) => t?.replace(/^\*/, '');
  return (
    candidates.find((n) => receiverType(n) === decl.receiverType) ??
    candidates.find((n) => bare(receiverType(n)) === bare(decl.receiverType))
  );
}

function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/** Split a line at its elided `...` into the normalized pieces that must appear, in order. */
function pieces(line: ExcerptLine): string[] {
  const out: string[] = [];
  let from = 0;
  for (const column of [...line.elisions].sort((a, b) => a - b)) {
    out.push(normalizeCode(line.text.slice(from, column)));
    from = column + 3;
  }
  out.push(normalizeCode(line.text.slice(from)));
  return out;
}

/** Does the excerpt line match upstream starting at row q? Returns the last upstream row it covers. */
function matchAt(line: ExcerptLine, norm: string[], q: number, limit: number): number | undefined {
  if (!line.elisions.length) return norm[q] === normalizeCode(line.text) ? q : undefined;
  const parts = pieces(line);
  let joined = '';
  for (let end = q; end <= Math.min(limit, q + MAX_SPAN); end++) {
    joined = joined ? `${joined} ${norm[end]}` : norm[end];
    if (!joined.startsWith(parts[0]) || !joined.endsWith(parts.at(-1)!)) continue;
    let at = parts[0].length;
    const inOrder = parts.slice(1, -1).every((part) => {
      const found = joined.indexOf(part, at);
      if (found === -1) return false;
      at = found + part.length;
      return true;
    });
    if (inOrder && at <= joined.length - parts.at(-1)!.length) return end;
  }
  return undefined;
}

interface Walk {
  pins: PinnedLine[];
  diff: string[];
  rows: number[];
}

// Costs of the alignment: a quoted line matching upstream is free; calling a comment the author's note
// or a blank line the author's costs a little (so real upstream text is matched when it can be); a code
// line upstream does not have, or upstream lines left out without `// ...`, costs a lot (it is a change).
const NOTE = 1;
const CHANGE = 100;

type Move =
  | { kind: 'gap' }
  | { kind: 'note' }
  | { kind: 'blank' }
  | { kind: 'match'; first: number; last: number; skipped: number }
  | { kind: 'mismatch'; at: number };

/**
 * Align the excerpt with the upstream function from the declaration line down: the cheapest way to read
 * every quoted line as upstream text, an annotation, or a change. `// ...` lets the next line match any
 * later upstream line, so generic lines (`}`, `return`) are placed where the rest of the excerpt fits.
 */
function walkDown(excerpt: Excerpt, upstream: string[], norm: string[], start: number, end: number) {
  const { lines } = excerpt;
  const candidates = lines.map((line) => {
    if (line.kind === 'elision') return [];
    if (line.kind === 'blank') return norm.flatMap((t, r) => (r >= start && r <= end && t === '' ? [r] : []));
    const first = line.elisions.length ? pieces(line)[0] : normalizeCode(line.text);
    const rows: number[] = [];
    for (let r = start; r <= end; r++) {
      if (line.elisions.length ? norm[r].startsWith(first) || first === '' : norm[r] === first) rows.push(r);
    }
    return rows;
  });
  type Choice = { cost: number; move: Move; next: [number, number, boolean] };
  const memo = new Map<number, Choice>();
  const solve = (i: number, p: number, gap: boolean): number => {
    if (i >= lines.length) return 0;
    const key = (i * (end + 3) + p) * 2 + (gap ? 1 : 0);
    const known = memo.get(key);
    if (known) return known.cost;
    let best: Choice | undefined;
    const consider = (cost: number, move: Move, next: [number, number, boolean]) => {
      const total = cost + solve(...next);
      if (!best || total < best.cost) best = { cost: total, move, next };
    };
    const line = lines[i];
    if (line.kind === 'elision') {
      consider(0, { kind: 'gap' }, [i + 1, p, true]);
    } else {
      for (const q of candidates[i]) {
        if (q < p || (!gap && q > p && line.kind !== 'code')) continue;
        const last = line.kind === 'blank' ? q : matchAt(line, norm, q, end);
        if (last === undefined) continue;
        const skipped = gap ? 0 : q - p;
        consider(skipped ? CHANGE : 0, { kind: 'match', first: q, last, skipped }, [i + 1, last + 1, false]);
        if (!gap) break; // without a gap only the next line (or, as a change, the next match) is possible
      }
      if (line.kind === 'comment') consider(NOTE, { kind: 'note' }, [i + 1, p, gap]);
      else if (line.kind === 'blank') consider(NOTE, { kind: 'blank' }, [i + 1, p, gap]);
      else consider(CHANGE, { kind: 'mismatch', at: p }, [i + 1, gap ? p : p + 1, gap]);
    }
    memo.set(key, best!);
    return best!.cost;
  };
  solve(excerpt.decl.line, start, false);

  const pins: PinnedLine[] = new Array(lines.length);
  const diff: string[] = [];
  const rows: number[] = [];
  let state: [number, number, boolean] | undefined = [excerpt.decl.line, start, false];
  while (state && state[0] < lines.length) {
    const [i, p, gap]: [number, number, boolean] = state;
    const step: Choice = memo.get((i * (end + 3) + p) * 2 + (gap ? 1 : 0))!;
    const line = lines[i];
    const move = step.move;
    if (move.kind === 'gap') pins[i] = { kind: 'gap' };
    else if (move.kind === 'blank') pins[i] = { kind: 'blank' };
    else if (move.kind === 'note') pins[i] = { kind: 'note', hash: lineHash(line.text) };
    else if (move.kind === 'match') {
      pins[i] = { kind: 'upstream', line: move.first + 1, hash: lineHash(line.text) };
      for (let r = move.first; r <= move.last; r++) rows.push(r);
      if (move.skipped) {
        diff.push(`L${p + 1}  upstream has ${move.skipped} line(s) here that the excerpt leaves out without \`// ...\`:`);
        diff.push(`${' '.repeat(String(p + 1).length + 1)}  + ${upstream[p].trim()}`);
      }
    } else {
      pins[i] = { kind: 'upstream', line: null, hash: lineHash(line.text) };
      diff.push(...describe(move.at, line.text, move.at <= end ? upstream[move.at] : undefined));
    }
    state = step.next;
  }
  return { pins, diff, rows };
}

function describe(row: number, excerptText: string, upstreamText: string | undefined): string[] {
  return [
    `L${row + 1}  - ${excerptText.trim()}`,
    `${' '.repeat(String(row + 1).length + 1)}  + ${upstreamText === undefined ? '(end of the function)' : upstreamText.trim() || '(blank line)'}`,
  ];
}

/** Walk the excerpt against the upstream function: down from the declaration, and up through doc comments. */
function walk(excerpt: Excerpt, upstream: string[], start: number, end: number): Walk {
  const { lines } = excerpt;
  const norm = upstream.map(normalizeCode);
  const { pins, diff, rows } = walkDown(excerpt, upstream, norm, start, end);

  let q = start - 1;
  for (let i = excerpt.decl.line - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.kind === 'elision') {
      pins[i] = { kind: 'gap' };
      continue;
    }
    const same = q >= 0 && (line.kind === 'blank' ? norm[q] === '' : matchAt(line, norm, q, q) !== undefined);
    if (same) {
      pins[i] = { kind: 'upstream', line: q + 1, hash: lineHash(line.text) };
      rows.push(q--);
    } else if (line.kind === 'comment') pins[i] = { kind: 'note', hash: lineHash(line.text) };
    else if (line.kind === 'blank') pins[i] = { kind: 'blank' };
    else {
      diff.push(...describe(Math.max(q, 0), line.text, q >= 0 ? upstream[q] : undefined));
      pins[i] = { kind: 'upstream', line: null, hash: lineHash(line.text) };
      q--;
    }
  }
  return { pins, diff, rows: rows.sort((a, b) => a - b) };
}

/** Verify one excerpt against an upstream checkout (a directory holding kubernetes/kubernetes files). */
export async function verifyExcerpt(source: ChapterExcerpt, upstreamDir: string): Promise<VerifyResult> {
  const { excerpt, id } = source;
  const base = { id, path: excerpt.ref.path, name: excerpt.decl.name, ref: excerpt.ref.line };
  let text: string;
  try {
    text = readFileSync(path.join(upstreamDir, excerpt.ref.path), 'utf8');
  } catch {
    return { ...base, status: 'gone', details: [`${excerpt.ref.path} does not exist upstream`] };
  }
  const upstream = text.replace(/\r\n?/g, '\n').split('\n');
  const tree = await parseGo(text);
  let node: Node | undefined;
  let start = 0;
  let end = 0;
  try {
    node = findDeclaration(tree.rootNode, excerpt);
    if (node) {
      start = node.startPosition.row;
      end = lastRow(node);
    }
  } finally {
    tree.delete();
  }
  if (!node) {
    const what = excerpt.decl.kind === 'method' ? `method (${excerpt.decl.receiverType}).${excerpt.decl.name}` : `${excerpt.decl.kind} ${excerpt.decl.name}`;
    return { ...base, status: 'gone', details: [`${excerpt.ref.path} has no ${what}`] };
  }

  const { pins, diff, rows } = walk(excerpt, upstream, start, end);
  const found = start + 1;
  const span = rows.length ? { first: rows[0] + 1, last: rows.at(-1)! + 1 } : undefined;
  if (diff.length) return { ...base, status: 'changed', found, span, details: diff };
  const elided = excerpt.lines.some((l) => l.kind === 'elision' || l.elisions.length > 0);
  const moved = excerpt.ref.line !== null && excerpt.ref.line !== found;
  const entry: LockEntry = {
    path: excerpt.ref.path,
    function: excerpt.decl.name,
    ref: found,
    verified: true,
    hash: upstreamHash(rows.map((r) => upstream[r])),
    lines: pins,
  };
  return {
    ...base,
    status: moved ? 'moved' : elided ? 'elided' : 'exact',
    found,
    span,
    details: moved ? [`${excerpt.decl.name} is now at L${found} (the reference says L${excerpt.ref.line})`] : [],
    entry,
  };
}
