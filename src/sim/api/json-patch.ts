// JSON patch (RFC 6902) as the API server and kubectl apply it: both call gopkg.in/evanphx/json-patch.v4's
// Patch.Apply with its defaults, and v4 has rules of its own that a patch author meets:
// - `replace` of a key an object lacks adds it (the object's get never fails), `copy` from such a key copies null;
// - negative array indices count from the end (SupportNegativeIndices is true), and `add` at -1 appends;
// - a path's last token is looked up in the object its other tokens lead to, and a path without a leading "/"
//   (a/b) is read as if it had one;
// - every error is the library's text, wrapped as github.com/pkg/errors does ("<context>: <cause>").
// upstream: github.com/evanphx/json-patch v4.12.0 patch.go (Apply, findObject, partialDoc, partialArray, equal)

import { clone } from '../core/clone.ts';
import { isJsonObject as isObj } from '../core/structural.ts';
import { goJsonType } from './patch-body.ts';

type Json = unknown;
type Obj = Record<string, unknown>;


/** A patch that cannot be applied, with the message the Go code gives. */
export class PatchError extends Error {}

/** A JSON patch that is not a list of operations (DecodePatch's error: the API server answers 400 Bad Request). */
export class PatchDecodeError extends PatchError {}

const ERR_MISSING = 'missing value';
const ERR_INVALID_INDEX = 'invalid index referenced';
const ERR_TEST_FAILED = 'test failed';

/** errors.Wrapf(cause, context): the context, then the cause. */
const wrap = (context: string, cause: string): string => `${context}: ${cause}`;

const MAX_INT64 = 9223372036854775807n;

/** strconv.Atoi: an optional sign and decimal digits, in int64's range; else the error it returns. */
function atoi(s: string): number | string {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const big = BigInt(s);
  if (big > MAX_INT64 || big < -MAX_INT64 - 1n) return `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`;
  return Number(big);
}

/** RFC 6901 unescaping, in one pass (~01 is ~1). */
const decodeKey = (k: string): string => k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));

// A container is an object or an array the patch reaches: get, set, add and remove with the library's rules and
// errors (an error is a string; a missing or null value is undefined, as a nil *lazyNode is).
type Got = { value: Json | undefined; error?: undefined } | { value?: undefined; error: string };

const invalidIndex = (idx: number): string => wrap(`Unable to access invalid index: ${idx}`, ERR_INVALID_INDEX);

/** A negative index counted from the end of `length` items (SupportNegativeIndices), or the error of one too far back. */
function fromEnd(idx: number, length: number): number | string {
  if (idx >= 0) return idx;
  return idx < -length ? invalidIndex(idx) : idx + length;
}

function get(c: Obj | Json[], key: string): Got {
  if (!Array.isArray(c)) return { value: Object.hasOwn(c, key) && c[key] !== null ? c[key] : undefined };
  const n = atoi(key);
  const idx = typeof n === 'string' ? n : fromEnd(n, c.length);
  if (typeof idx === 'string') return { error: idx };
  if (idx >= c.length) return { error: invalidIndex(idx) };
  return { value: c[idx] ?? undefined };
}

/** set: only for replace, after get has found the index. */
function set(c: Obj | Json[], key: string, value: Json): string | undefined {
  if (!Array.isArray(c)) {
    c[key] = value;
    return undefined;
  }
  const n = atoi(key);
  const idx = typeof n === 'string' ? n : fromEnd(n, c.length);
  if (typeof idx === 'string') return idx;
  c[idx] = value;
  return undefined;
}

function add(c: Obj | Json[], key: string, value: Json): string | undefined {
  if (!Array.isArray(c)) {
    c[key] = value;
    return undefined;
  }
  if (key === '-') {
    c.push(value);
    return undefined;
  }
  const n = atoi(key);
  if (typeof n === 'string') return wrap(`value was not a proper array index: '${key}'`, n);
  // the new array is one longer: an index may be its last, and -1 appends
  const size = c.length + 1;
  if (n >= size) return invalidIndex(n);
  const idx = fromEnd(n, size);
  if (typeof idx === 'string') return idx;
  c.splice(idx, 0, value);
  return undefined;
}

function remove(c: Obj | Json[], key: string): string | undefined {
  if (!Array.isArray(c)) {
    if (!Object.hasOwn(c, key)) return wrap(`Unable to remove nonexistent key: ${key}`, ERR_MISSING);
    delete c[key];
    return undefined;
  }
  const n = atoi(key);
  if (typeof n === 'string') return n;
  if (n >= c.length) return invalidIndex(n);
  const idx = fromEnd(n, c.length);
  if (typeof idx === 'string') return idx;
  c.splice(idx, 1);
  return undefined;
}

/** findObject: the container the path's tokens but the last lead to, and the last token; undefined if none. */
function findObject(root: Json, path: string): [Obj | Json[], string] | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc = root;
  for (const part of split.slice(1, -1)) {
    if (!isObj(doc) && !Array.isArray(doc)) return undefined;
    const next = get(doc, decodeKey(part));
    if (next.error !== undefined || next.value === undefined) return undefined;
    doc = next.value;
  }
  if (!isObj(doc) && !Array.isArray(doc)) return undefined;
  return [doc, decodeKey(split[split.length - 1])];
}

/**
 * lazyNode.equal: the document's value against the operation's. A null in the operation is a nil node, equal to
 * nothing the document has (a missing or null value in the document is handled before).
 */
function equal(n: Json, o: Json): boolean {
  if (o === null || o === undefined) return false;
  if (isObj(n)) {
    if (!isObj(o)) return false;
    const keys = Object.keys(n);
    if (keys.length !== Object.keys(o).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(o, k)) return false;
      const v = n[k] ?? null;
      const ov = o[k] ?? null;
      if ((v === null) !== (ov === null)) return false;
      if (v !== null && !equal(v, ov)) return false;
    }
    return true;
  }
  if (Array.isArray(n)) {
    if (!Array.isArray(o) || o.length !== n.length) return false;
    return n.every((v, i) => (v === null ? o[i] === null : equal(v, o[i])));
  }
  // two scalars: their compact JSON
  return JSON.stringify(n) === JSON.stringify(o);
}

/** An operation's string field (path, from), or the error its absence or type gives. */
function field(op: Obj, name: 'path' | 'from'): { value: string; error?: undefined } | { error: string } {
  const v = op[name];
  if (v === undefined || v === null) return { error: wrap(name === 'path' ? 'operation missing path field' : 'operation, missing from field', ERR_MISSING) };
  if (typeof v !== 'string') return { error: `json: cannot unmarshal ${goJsonType(v)} into Go value of type string` };
  return { value: v };
}

/** The API server's limit on what a patch's copy operations may add (GenericAPIServer's JSONPatchMaxCopyBytes, 3 MiB). */
export const API_SERVER_COPY_LIMIT = 3 * 1024 * 1024;

/**
 * Apply an RFC 6902 patch (add, remove, replace, move, copy, test) to a copy of `doc`, as json-patch v4's
 * DecodePatch and Apply do; a PatchError carries the library's message. `copyLimit` is AccumulatedCopySizeLimit:
 * the API server sets it (API_SERVER_COPY_LIMIT), kubectl leaves it at 0, no limit.
 */
export function jsonPatch(doc: Json, ops: Json, copyLimit = 0): Json {
  // DecodePatch: the patch must be a JSON array of objects (null is an empty patch)
  if (ops === null) return clone(doc);
  if (!Array.isArray(ops)) throw new PatchDecodeError(`json: cannot unmarshal ${goJsonType(ops)} into Go value of type jsonpatch.Patch`);
  for (const op of ops) {
    if (op !== null && !isObj(op)) throw new PatchDecodeError(`json: cannot unmarshal ${goJsonType(op)} into Go value of type jsonpatch.Operation`);
  }
  // the document as a holder, so that a replace of "" can swap it
  const root = { doc: clone(doc), copied: 0, copyLimit };
  for (const op of ops as (Obj | null)[]) {
    const error = applyOp(root, op ?? {});
    if (error !== undefined) throw new PatchError(error);
  }
  return root.doc;
}

function applyOp(root: { doc: Json; copied: number; copyLimit: number }, op: Obj): string | undefined {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  // the operation's value: a fresh copy each time it is used (undefined without one, which adds null)
  const value = (): Json => (Object.hasOwn(op, 'value') ? clone(op.value) : null);
  switch (kind) {
    case 'add': {
      const path = field(op, 'path');
      if (path.error !== undefined) return wrap('add operation failed to decode path', ERR_MISSING);
      const found = findObject(root.doc, path.value);
      if (!found) return wrap(`add operation does not apply: doc is missing path: "${path.value}"`, ERR_MISSING);
      const err = add(found[0], found[1], value());
      return err === undefined ? undefined : wrap(`error in add for path: '${path.value}'`, err);
    }
    case 'remove': {
      const path = field(op, 'path');
      if (path.error !== undefined) return wrap('remove operation failed to decode path', ERR_MISSING);
      const found = findObject(root.doc, path.value);
      if (!found) return wrap(`remove operation does not apply: doc is missing path: "${path.value}"`, ERR_MISSING);
      const err = remove(found[0], found[1]);
      return err === undefined ? undefined : wrap(`error in remove for path: '${path.value}'`, err);
    }
    case 'replace': {
      const path = field(op, 'path');
      if (path.error !== undefined) return wrap('replace operation failed to decode path', path.error);
      if (path.value === '') {
        // the whole document; a value that is neither an object nor an array changes nothing (the library wraps a
        // nil error there, which is no error)
        const v = value();
        if (isObj(v) || Array.isArray(v)) root.doc = v;
        return undefined;
      }
      const found = findObject(root.doc, path.value);
      if (!found) return wrap(`replace operation does not apply: doc is missing path: ${path.value}`, ERR_MISSING);
      if (get(found[0], found[1]).error !== undefined) return wrap(`replace operation does not apply: doc is missing key: ${path.value}`, ERR_MISSING);
      const err = set(found[0], found[1], value());
      return err === undefined ? undefined : wrap(`error in remove for path: '${path.value}'`, err);
    }
    case 'move': {
      const from = field(op, 'from');
      if (from.error !== undefined) return wrap('move operation failed to decode from', from.error);
      const src = findObject(root.doc, from.value);
      if (!src) return wrap(`move operation does not apply: doc is missing from path: ${from.value}`, ERR_MISSING);
      const got = get(src[0], src[1]);
      if (got.error !== undefined) return wrap(`error in move for path: '${src[1]}'`, got.error);
      const removed = remove(src[0], src[1]);
      if (removed !== undefined) return wrap(`error in move for path: '${src[1]}'`, removed);
      const path = field(op, 'path');
      if (path.error !== undefined) return wrap('move operation failed to decode path', path.error);
      const dst = findObject(root.doc, path.value);
      if (!dst) return wrap(`move operation does not apply: doc is missing destination path: ${path.value}`, ERR_MISSING);
      const err = add(dst[0], dst[1], got.value ?? null);
      return err === undefined ? undefined : wrap(`error in move for path: '${path.value}'`, err);
    }
    case 'test': {
      const path = field(op, 'path');
      if (path.error !== undefined) return wrap('test operation failed to decode path', path.error);
      const failed = wrap(`testing value ${path.value} failed`, ERR_TEST_FAILED);
      if (path.value === '') return equal(root.doc, value()) ? undefined : failed;
      const found = findObject(root.doc, path.value);
      if (!found) return wrap(`test operation does not apply: is missing path: ${path.value}`, ERR_MISSING);
      const got = get(found[0], found[1]);
      if (got.error !== undefined) return wrap(`error in test for path: '${path.value}'`, got.error);
      // a missing or null value passes only against null
      if (got.value === undefined) return value() === null ? undefined : failed;
      if (!Object.hasOwn(op, 'value')) return failed;
      return equal(got.value, op.value) ? undefined : failed;
    }
    case 'copy': {
      const from = field(op, 'from');
      if (from.error !== undefined) return wrap('copy operation failed to decode from', from.error);
      const src = findObject(root.doc, from.value);
      if (!src) return wrap(`copy operation does not apply: doc is missing from path: ${from.value}`, ERR_MISSING);
      const got = get(src[0], src[1]);
      if (got.error !== undefined) return wrap(`error in copy for from: '${from.value}'`, got.error);
      const path = field(op, 'path');
      if (path.error !== undefined) return wrap('copy operation failed to decode path', ERR_MISSING);
      const dst = findObject(root.doc, path.value);
      if (!dst) return wrap(`copy operation does not apply: doc is missing destination path: ${path.value}`, ERR_MISSING);
      // deepCopy: the value's JSON, whose length counts towards the limit
      const text = got.value === undefined ? undefined : JSON.stringify(got.value);
      root.copied += text?.length ?? 0;
      if (root.copyLimit > 0 && root.copied > root.copyLimit) {
        return `Unable to complete the copy, the accumulated size increase of copy is ${root.copied}, exceeding the limit ${root.copyLimit}`;
      }
      const err = add(dst[0], dst[1], text === undefined ? null : JSON.parse(text));
      return err === undefined ? undefined : wrap('error while adding value during copy', err);
    }
    default:
      return `Unexpected kind: ${kind}`;
  }
}
