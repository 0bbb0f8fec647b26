// Structural equality and sharing of JSON-like values (plain objects, arrays, primitives). Recorded objects are
// immutable (copy-on-write), so a new version of an object can reuse the unchanged parts of the previous one: the
// history then keeps one copy of what did not change, and later comparisons stop at the first identical reference.
// Both walk keys with for-in (no key arrays: these run on every status the kubelet generates).

type Obj = Record<string, unknown>;

const hasOwn = Object.prototype.hasOwnProperty;

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

/** The keys of the objects being compared, as a stack (each call pushes its object's keys and pops them). */
const keyStack: string[] = [];

/**
 * `next` with every part that is identical to the same part of `prev` (same keys in the same order, same values,
 * so the same JSON) taken from `prev`; `prev` itself when the two are identical. Neither argument is modified:
 * where a part of `next` is replaced, its parent is copied.
 */
export function shareUnchanged<T>(prev: T, next: T): T {
  if (prev === next || typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null) return next;
  if (Array.isArray(next)) return Array.isArray(prev) ? (shareArray(prev, next) as T) : next;
  if (Array.isArray(prev)) return next;
  const p = prev as Obj;
  const n = next as Obj;
  const base = keyStack.length;
  for (const k in p) keyStack.push(k);
  const end = keyStack.length;
  let same = true;
  let i = base;
  let out: Obj | undefined;
  for (const k in n) {
    if (i >= end || keyStack[i] !== k) same = false;
    i++;
    if (!hasOwn.call(p, k)) {
      same = false;
      continue;
    }
    const nv = n[k];
    const v = shareUnchanged(p[k], nv);
    if (v !== p[k]) same = false;
    if (v !== nv) (out ??= { ...n })[k] = v;
  }
  keyStack.length = base;
  if (same && i === end) return prev;
  return (out ?? next) as T;
}

function shareArray(prev: unknown[], next: unknown[]): unknown[] {
  let same = prev.length === next.length;
  let out: unknown[] | undefined;
  for (let i = 0; i < next.length; i++) {
    const nv = next[i];
    if (i >= prev.length) {
      same = false;
      continue;
    }
    const v = shareUnchanged(prev[i], nv);
    if (v !== prev[i]) same = false;
    if (v !== nv) (out ??= next.slice())[i] = v;
  }
  return same ? prev : (out ?? next);
}
