// Structural equality of JSON-like values (plain objects, arrays, primitives). It walks keys with for-in, without
// key arrays: the status manager compares every status the kubelet generates with the one it has.

type Obj = Record<string, unknown>;

/** A JSON object: not null, not an array (what Go decodes into a map or a struct). */
export const isJsonObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural equality of JSON-like values (objects compared key by key, in any order). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let count = 0;
  for (const k in a) {
    if (!deepEqual((a as Obj)[k], (b as Obj)[k])) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}
