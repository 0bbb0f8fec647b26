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
