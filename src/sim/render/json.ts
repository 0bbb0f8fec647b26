// JSON as Go's encoding/json writes it for kubectl (-o json, jsonpath objects) and crictl (inspect):
// map keys sorted byte-wise (the objects are unstructured maps), `<`, `>` and `&` escaped as \u003c,
// \u003e, \u0026, and MarshalIndent's layout. jq's own layout (2 spaces, keys in input order, no HTML
// escaping) is `jqJson`.
// upstream: go/src/encoding/json/encode.go (mapEncoder sorts keys; appendString with escapeHTML), indent.go

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

const SHORT_ESCAPES: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A JSON string. Both escape `"`, `\` and control characters, the five with a short form as \b, \f, \n, \r, \t
 * (Go since 1.22; before, \b and \f were \u0008, \u000c). Go's (`go`) also escapes `<`, `>`, `&` (its HTML
 * escaping, always on for Marshal) and U+2028, U+2029; jq's escapes DEL (`escapeDel`), protojson's does not.
 */
function quote(s: string, go: boolean, escapeDel: boolean): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (cp < 0x20 || (escapeDel && cp === 0x7f) || (go && (c === '<' || c === '>' || c === '&' || cp === 0x2028 || cp === 0x2029))) {
      out += SHORT_ESCAPES[c] ?? `\\u${cp.toString(16).padStart(4, '0')}`;
    } else out += c;
  }
  return `${out}"`;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * JSON with `indent` per level ('' for the compact form): Go's encoding/json (`go`: map keys sorted unless
 * `sortKeys` is false, numbers as ECMAScript prints them, non-finite ones null) or jq's (keys in input order,
 * jqNumber).
 */
function writeJson(value: unknown, indent: string, go: boolean, sortKeys: boolean, escapeDel: boolean): string {
  const walk = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') return go ? (Number.isFinite(v) ? String(v) : 'null') : jqNumber(v);
    if (typeof v === 'string') return quote(v, go, escapeDel);
    const nl = indent ? `\n${indent.repeat(depth + 1)}` : '';
    const close = indent ? `\n${indent.repeat(depth)}` : '';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[${v.map((x) => `${nl}${walk(x, depth + 1)}`).join(',')}${close}]`;
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    // a map's keys are sorted (encoding/json); a typed object keeps its struct order (sortKeys false)
    if (sortKeys) entries.sort(([a], [b]) => byteOrder(a, b));
    const sep = indent ? ': ' : ':';
    return `{${entries.map(([k, x]) => `${nl}${quote(k, go, escapeDel)}${sep}${walk(x, depth + 1)}`).join(',')}${close}}`;
  };
  return walk(value, 0);
}

/**
 * Go's json.Marshal (indent "") or json.MarshalIndent(v, "", indent) of an unstructured value.
 * Undefined object members are dropped, as they would not exist in the map.
 */
export function goJson(value: unknown, indent = '', sortKeys = true): string {
  return writeJson(value, indent, true, sortKeys, false);
}

/**
 * A number as jq 1.6 prints it (jv_dtoa_fmt): the shortest round-trip digits, exponent form when the
 * decimal point is more than 15 places past them or before 0.0001 (1e+17, 1e-05), infinities as
 * ±DBL_MAX, NaN as null.
 */
export function jqNumber(n: number): string {
  if (Number.isNaN(n)) return 'null';
  if (!Number.isFinite(n)) n = Math.sign(n) * Number.MAX_VALUE;
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const e = Number(exp);
  const point = e + 1;
  const sign = n < 0 ? '-' : '';
  if (point <= -4 || point > digits.length + 15) {
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * jq's pretty printer: `indent` (2 spaces), keys in input order, only `"`, `\` and control characters escaped.
 * protojson's layout is the same except that it leaves DEL (0x7f) as it is (`escapeDel` false; crictl-proto.ts).
 */
export function jqJson(value: unknown, compact = false, indent = '  ', escapeDel = true): string {
  return writeJson(value, compact ? '' : indent, false, false, escapeDel);
}

/** A deep copy with undefined members removed and keys sorted (what a Go map round trip gives). */
export function sortedCopy(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (typeof value === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const k of Object.keys(value as object).sort(byteOrder)) {
      const x = (value as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortedCopy(x);
    }
    return out;
  }
  return value as JsonValue;
}
