// A lock entry for an excerpt nobody has verified against upstream yet (or one edited since).
// Without upstream text, which comment lines are the author's annotations has to be inferred:
//   1. lines the previous lock entry already classified keep their classification (matched by text);
//   2. a comment in CJK script is an annotation (the article's Chinese notes);
//   3. when the same function is quoted elsewhere (the other language's chapter), a comment that also
//      appears there is upstream and one that does not is an annotation (translations differ, upstream
//      comments do not);
//   4. otherwise a numbered `// 4. ...` comment is the author's step, any other comment upstream.
// Line numbers are only those the reference proves (see provenNumbers). Verifying against a checkout
// replaces all of this with what upstream actually says.
import { type LockEntry, type PinnedLine, lineHash, normalizeCode, provenNumbers } from './lock.ts';
import type { Excerpt } from './model.ts';
import { readStepComment } from './step-comments.ts';

const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/;

export interface SeedInput {
  excerpt: Excerpt;
  /** The entry the lock had for this excerpt, if any. */
  previous?: LockEntry;
  /** Other excerpts quoting the same function of the same file. */
  siblings: Excerpt[];
  evidence?: string;
}

/** Longest common subsequence of two hash lists: pairs of matching indexes. */
function matchByHash(a: string[], b: string[]): Map<number, number> {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs = new Map<number, number>();
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) pairs.set(i++, j++);
    else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

function pinnedHash(pin: PinnedLine): string {
  if (pin.kind === 'upstream' || pin.kind === 'note') return pin.hash;
  return pin.kind === 'blank' ? lineHash('') : '-gap-';
}

export function seedEntry({ excerpt, previous, siblings, evidence }: SeedInput): LockEntry {
  const { lines } = excerpt;
  const hashes = lines.map((l) => (l.kind === 'elision' ? '-gap-' : lineHash(l.text)));
  const carried = new Map<number, PinnedLine['kind']>();
  if (previous) {
    for (const [i, j] of matchByHash(hashes, previous.lines.map(pinnedHash))) carried.set(i, previous.lines[j].kind);
  }
  const siblingComments = new Set(
    siblings.flatMap((s) => s.lines.filter((l) => l.kind === 'comment').map((l) => normalizeCode(l.text))),
  );

  const kinds = lines.map((line, i): PinnedLine['kind'] => {
    if (line.kind === 'elision') return 'gap';
    if (line.kind === 'code') return 'upstream';
    const before = carried.get(i);
    if (line.kind === 'blank') return before === 'blank' ? 'blank' : 'upstream';
    if (before === 'note' || before === 'upstream') return before;
    if (CJK.test(line.text)) return 'note';
    if (siblings.length) return siblingComments.has(normalizeCode(line.text)) ? 'upstream' : 'note';
    return readStepComment(line.text)?.style === 'numbered' ? 'note' : 'upstream';
  });

  const numbers = provenNumbers(excerpt, kinds, excerpt.ref.line);
  const pinned = lines.map((line, i): PinnedLine => {
    switch (kinds[i]) {
      case 'gap':
        return { kind: 'gap' };
      case 'blank':
        return { kind: 'blank' };
      case 'note':
        return { kind: 'note', hash: lineHash(line.text) };
      default:
        return { kind: 'upstream', line: numbers[i], hash: lineHash(line.text) };
    }
  });
  return {
    path: excerpt.ref.path,
    function: excerpt.decl.name,
    ref: excerpt.ref.line,
    verified: false,
    hash: null,
    ...((evidence ?? previous?.evidence) ? { evidence: evidence ?? previous?.evidence } : {}),
    lines: pinned,
  };
}
