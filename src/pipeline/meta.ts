// Code fence meta: `scenario="crash-loop" at="8m23s" real` → { scenario: 'crash-loop', at: '8m23s', real: true }.
export type Meta = Record<string, string | true>;

export function parseMeta(meta: string | null | undefined): Meta {
  const out: Meta = {};
  if (!meta) return out;
  const pattern = /([A-Za-z_][\w-]*)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g;
  for (const m of meta.matchAll(pattern)) {
    out[m[1]] = m[2] ?? m[3] ?? m[4] ?? true;
  }
  return out;
}

/**
 * The attributes `attrs` has that `known` does not, as one sentence naming what is known, with the nearest known
 * name when a typo is likely ("scenaro" → scenario); undefined when all are known.
 */
export function unknownAttributes(attrs: Iterable<string>, known: readonly string[], what: string): string | undefined {
  const unknown = [...attrs].filter((a) => !known.includes(a));
  if (unknown.length === 0) return undefined;
  const hints = unknown.map((a) => {
    const near = known.find((k) => editDistance(a, k) <= 2);
    return near ? `"${a}" (did you mean ${near}?)` : `"${a}"`;
  });
  return `unknown attribute${unknown.length > 1 ? 's' : ''} ${hints.join(', ')} on ${what}; ${known.length ? `known: ${known.join(', ')}` : 'it takes none'}`;
}

/** Levenshtein distance (attribute names are short). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}
