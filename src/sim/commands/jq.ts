// jq for the console: a tokenizer and recursive-descent parser to an AST, and a stream evaluator in
// which every expression yields 0..n outputs (with paths, for path(), del() and assignments).
// Outputs and messages are jq 1.6's: that is the jq the tests compare with byte for byte
// (/usr/bin/jq on the build machine). The simulated node (Ubuntu 24.04) ships jq 1.7.1, whose texts
// differ in places (1.7 says `Cannot index array with "n"` where 1.6 says `... with string "n"`).
// 1.7's optional `else` is accepted. Valid jq that podlife does not run is refused by name, never
// with a made-up syntax error.
// upstream: jqlang/jq jq-1.6 src/lexer.l, src/parser.y, src/execute.c, src/builtin.c, src/builtin.jq, src/main.c

import { jqJson } from '../render/json.ts';
import type { CommandResult } from './shell.ts';

type V = unknown;
type Obj = Record<string, V>;
type Path = V[];
type Out = [V, Path | null];
type Env = Map<string, V>;
type Node =
  | { t: 'id' } | { t: 'rec' } | { t: 'lit'; v: V } | { t: 'var'; name: string } | { t: 'fmt'; name: string }
  | { t: 'str'; parts: (string | Node)[]; fmt: string }
  | { t: 'idx'; of: Node; k: Node; opt?: boolean } // opt: `.a?`, `.[]?`: this step's own errors yield nothing
  | { t: 'slice'; of: Node; from: Node | null; to: Node | null; opt?: boolean }
  | { t: 'iter'; of: Node; opt?: boolean }
  | { t: 'try'; body: Node; c: Node | null }
  | { t: 'pipe' | 'comma' | 'and' | 'or' | 'alt'; l: Node; r: Node }
  | { t: 'bin' | 'assign'; op: string; l: Node; r: Node }
  | { t: 'neg'; e: Node }
  | { t: 'arr'; e: Node | null }
  | { t: 'obj'; entries: [Node, Node][] }
  | { t: 'if'; c: Node; a: Node; b: Node | null }
  | { t: 'as'; src: Node; name: string; body: Node }
  | { t: 'reduce'; src: Node; name: string; init: Node; upd: Node }
  | { t: 'call'; name: string; args: Node[] };

const SUPPORTED =
  'it runs paths, pipes, filters such as select/map/sort_by, object and array construction, arithmetic, if/then/else, try, reduce and @formats';

class CompileError extends Error {
  pos: number;
  extra: [string, number] | null;
  constructor(message: string, pos: number, extra: [string, number] | null = null) {
    super(message);
    this.pos = pos;
    this.extra = extra;
  }
}
class Unsupported extends Error {}
class JqError {
  value: V;
  constructor(value: V) {
    this.value = value;
  }
}
const fail = (msg: V): never => {
  throw new JqError(msg);
};

// ---------------------------------------------------------------------------------------------
// Values: jq's types, order, arithmetic and number printing
// ---------------------------------------------------------------------------------------------

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isObj = (v: V): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Set a key without tripping over `__proto__`. */
function put(o: Obj, k: string, v: V): Obj {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
  return o;
}
const typeOf = (v: V): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'boolean' : (typeof v as string);
const truthy = (v: V) => v !== null && v !== false;
const dump = (v: V) => jqJson(v, true);
/** jq 1.6 shortens values in messages to 11 bytes and "...". */
const trunc = (v: V) => {
  const s = dump(v);
  return s.length > 14 ? `${s.slice(0, 11)}...` : s;
};
const desc = (v: V) => `${typeOf(v)} (${trunc(v)})`;
const tostring = (v: V) => (typeof v === 'string' ? v : dump(v));
const codepoints = (s: string) => [...s];

const RANK: Record<string, number> = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 };
/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
function compare(a: V, b: V): number {
  const ra = a === true ? 2 : RANK[typeOf(a)];
  const rb = b === true ? 2 : RANK[typeOf(b)];
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number') return Number.isNaN(a) ? -1 : Number.isNaN(b) ? 1 : Math.sign(a - (b as number));
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (Array.isArray(a)) {
    const bb = b as V[];
    for (let i = 0; i < a.length && i < bb.length; i++) {
      const c = compare(a[i], bb[i]);
      if (c) return c;
    }
    return a.length - bb.length;
  }
  if (isObj(a)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b as Obj).sort();
    const c = compare(ka, kb);
    return c || compare(ka.map((k) => a[k]), ka.map((k) => (b as Obj)[k]));
  }
  return 0;
}
const sortStable = (xs: V[], keys: V[] = xs) =>
  xs.map((v, i) => [v, keys[i], i] as const).sort((p, q) => compare(p[1], q[1]) || p[2] - q[2]).map((p) => p[0]);

function deepMerge(a: Obj, b: Obj): Obj {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) put(out, k, isObj(v) && isObj(out[k]) ? deepMerge(out[k] as Obj, v) : v);
  return out;
}

function arith(op: string, a: V, b: V): V {
  const ta = typeOf(a);
  const tb = typeOf(b);
  const num = ta === 'number' && tb === 'number';
  const bad = (what: string) => fail(`${desc(a)} and ${desc(b)} cannot be ${what}`);
  switch (op) {
    case '+':
      if (a === null) return b;
      if (b === null) return a;
      if (num) return (a as number) + (b as number);
      if (ta === tb && ta === 'string') return (a as string) + (b as string);
      if (ta === tb && ta === 'array') return [...(a as V[]), ...(b as V[])];
      if (ta === tb && ta === 'object') return Object.entries(b as Obj).reduce((o, [k, v]) => put(o, k, v), { ...(a as Obj) });
      return bad('added');
    case '-':
      if (num) return (a as number) - (b as number);
      if (ta === tb && ta === 'array') return (a as V[]).filter((x) => !(b as V[]).some((y) => compare(x, y) === 0));
      return bad('subtracted');
    case '*': {
      if (num) return (a as number) * (b as number);
      const [s, n] = ta === 'string' && tb === 'number' ? [a, b] : tb === 'string' && ta === 'number' ? [b, a] : [null, 0];
      if (typeof s === 'string') {
        const times = Math.trunc((n as number) - 1); // jq 1.6: "ab" * 0.5 is "ab", "ab" * 0 is null
        if (s.length * times > 10_000_000) fail('podlife stopped this jq program: the string would be too long');
        return times < 0 ? null : s.repeat(times + 1);
      }
      if (ta === tb && ta === 'object') return deepMerge(a as Obj, b as Obj);
      return bad('multiplied');
    }
    case '/':
      if (num) return b === 0 ? bad('divided because the divisor is zero') : (a as number) / (b as number);
      if (ta === tb && ta === 'string') return splitStr(a as string, b as string);
      return bad('divided');
    case '%':
      if (!num) return bad('divided (remainder)');
      if (Math.trunc(b as number) === 0) return bad('divided (remainder) because the divisor is zero');
      return Math.trunc(a as number) % Math.trunc(b as number);
    default: {
      const c = compare(a, b);
      return { '==': c === 0, '!=': c !== 0, '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0 }[op];
    }
  }
}
const splitStr = (s: string, sep: string) => (s === '' ? [] : sep === '' ? codepoints(s) : s.split(sep));

function contains(a: V, b: V): boolean {
  if (typeOf(a) !== typeOf(b)) return fail(`${desc(a)} and ${desc(b)} cannot have their containment checked`);
  if (isObj(a)) return Object.entries(b as Obj).every(([k, v]) => has(a, k) && contains(a[k], v));
  if (Array.isArray(a)) return (b as V[]).every((y) => a.some((x) => typeOf(x) === typeOf(y) && contains(x, y)));
  if (typeof a === 'string') return a.includes(b as string);
  return compare(a, b) === 0;
}

// ---------------------------------------------------------------------------------------------
// Indexing and paths
// ---------------------------------------------------------------------------------------------

function sliceBounds(len: number, from: V, to: V): [number, number] {
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number')) {
    return fail('Start and end indices of an array slice must be numbers');
  }
  const clamp = (n: number) => Math.min(Math.max(n < 0 ? n + len : n, 0), len);
  const s = Math.trunc(clamp((from as number | null) ?? 0));
  return [s, Math.max(s, Math.ceil(clamp((to as number | null) ?? len)))];
}

function index(o: V, k: V): V {
  if (isObj(k) && (Array.isArray(o) || typeof o === 'string' || o === null) && (has(k, 'start') || has(k, 'end'))) {
    if (o === null) return null;
    const [s, e] = sliceBounds(typeof o === 'string' ? codepoints(o).length : o.length, k.start ?? null, k.end ?? null);
    return typeof o === 'string' ? codepoints(o).slice(s, e).join('') : o.slice(s, e);
  }
  if (typeof k === 'string' && (o === null || isObj(o))) return o !== null && has(o, k) ? o[k] : null;
  if (typeof k === 'number' && (o === null || Array.isArray(o))) {
    if (o === null || !Number.isInteger(k)) return null;
    return o[k < 0 ? o.length + k : k] ?? null;
  }
  if (Array.isArray(o) && Array.isArray(k)) return indices(o, k);
  return fail(`Cannot index ${typeOf(o)} with ${typeof k === 'string' ? `string "${k}"` : typeOf(k)}`);
}

function indices(o: V[], k: V[]): number[] {
  const out: number[] = [];
  if (k.length === 0) return out;
  for (let i = 0; i + k.length <= o.length; i++) if (k.every((x, j) => compare(o[i + j], x) === 0)) out.push(i);
  return out;
}

function entriesOf(v: V): [V, V][] {
  if (Array.isArray(v)) return v.map((x, i) => [i, x]);
  if (isObj(v)) return Object.entries(v);
  return fail(`Cannot iterate over ${desc(v)}`);
}

function getpath(v: V, path: V): V {
  if (!Array.isArray(path)) return fail('Path must be specified as an array');
  return v === null || path.length === 0 ? v : getpath(index(v, path[0]), path.slice(1));
}

function setpath(v: V, path: V[], x: V): V {
  if (path.length === 0) return x;
  const [k, ...rest] = path;
  const child = setpath(index(v, k), rest, x);
  if (typeof k === 'string') return put({ ...((v ?? {}) as Obj) }, k, child);
  if (isObj(k)) {
    const arr = (v ?? []) as V[];
    const [s, e] = sliceBounds(arr.length, k.start ?? null, k.end ?? null);
    if (!Array.isArray(child)) return fail('A slice of an array can only be assigned another array');
    return [...arr.slice(0, s), ...child, ...arr.slice(e)];
  }
  const arr = [...((v ?? []) as V[])];
  const i = (k as number) < 0 ? arr.length + (k as number) : (k as number);
  if (i < 0) return fail('Out of bounds negative array index');
  while (arr.length < i) arr.push(null);
  arr[i] = child;
  return arr;
}

function delpaths(v: V, paths: V[][]): V {
  for (const p of sortStable(paths).reverse() as V[][]) v = delpath(v, p);
  return v;
}
function delpath(v: V, path: V[]): V {
  if (v === null || path.length === 0) return path.length === 0 ? null : v;
  const [k, ...rest] = path;
  if (rest.length > 0) {
    const child = index(v, k);
    return child === null ? v : setpath(v, [k], delpath(child, rest));
  }
  index(v, k); // raises jq's error for a key of the wrong type
  if (isObj(v)) {
    const out = { ...v };
    delete out[k as string];
    return out;
  }
  const arr = v as V[];
  if (isObj(k)) {
    const [s, e] = sliceBounds(arr.length, k.start ?? null, k.end ?? null);
    return [...arr.slice(0, s), ...arr.slice(e)];
  }
  const i = (k as number) < 0 ? arr.length + (k as number) : (k as number);
  return arr.filter((_, j) => j !== i);
}

// ---------------------------------------------------------------------------------------------
// @formats
// ---------------------------------------------------------------------------------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function base64(s: string): string {
  const b = new TextEncoder().encode(s);
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += [18, 12, 6, 0].map((sh, j) => (j <= (b.length - i) ? B64[(n >> sh) & 63] : '=')).join('');
  }
  return out;
}
function base64d(s: string): string {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of s.replace(/=+$/, '')) {
    const d = B64.indexOf(c);
    if (d < 0) return fail(`${desc(s)} is not valid base64 data`);
    acc = (acc << 6) | d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 255);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function csvRow(v: V, name: string, cell: (s: string) => string, sep: string): string {
  if (!Array.isArray(v)) return fail(`${desc(v)} cannot be ${name}-formatted, only array`);
  return v
    .map((x) => (typeof x === 'string' ? cell(x) : x === null ? '' : typeof x === 'object' ? fail(`${desc(x)} is not valid in a csv row`) : dump(x)))
    .join(sep);
}
const shQuote = (x: V) =>
  typeof x === 'string' ? `'${x.replace(/'/g, "'\\''")}'` : typeof x === 'object' && x !== null ? fail(`${desc(x)} can not be escaped for shell`) : dump(x);

const FORMATS: Record<string, (v: V) => string> = {
  text: tostring,
  json: dump,
  csv: (v) => csvRow(v, 'csv', (s) => `"${s.replace(/"/g, '""')}"`, ','),
  tsv: (v) => csvRow(v, 'tsv', (s) => s.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!), '\t'),
  html: (v) => tostring(v).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!),
  uri: (v) => [...new TextEncoder().encode(tostring(v))].map((b) => (/[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join(''),
  sh: (v) => (Array.isArray(v) ? v.map(shQuote).join(' ') : shQuote(v)),
  base64: (v) => base64(tostring(v)),
  base64d: (v) => base64d(tostring(v)),
};
const format = (name: string, v: V) => (FORMATS[name] ?? (() => fail(`${name} is not a valid format`)))(v);

// ---------------------------------------------------------------------------------------------
// Regular expressions (JavaScript's engine standing in for Oniguruma)
// ---------------------------------------------------------------------------------------------

type Match = { offset: number; length: number; string: string; captures: Obj[] };
function matches(input: V, re: V, flags: V): Match[] {
  if (typeof input !== 'string') return fail(`${desc(input)} cannot be matched, as it is not a string`);
  if (typeof re !== 'string') return fail(`${desc(re)} cannot be matched, as it is not a string`);
  const f = flags === null ? '' : typeof flags === 'string' ? flags : fail(`${desc(flags)} is not a string`);
  if (/[^gimnpsxl]/.test(f)) return fail(`${f} is not a valid modifier string`);
  let rx: RegExp;
  try {
    rx = new RegExp(f.includes('x') ? re.replace(/\\#/g, '\u0000').replace(/\s+|#.*$/gm, '').replace(/\u0000/g, '\\#') : re, `g${f.includes('i') ? 'i' : ''}${/[sp]/.test(f) ? 's' : ''}`);
  } catch (e) {
    return fail(`${re} (at offset 0) is not a valid regex: ${(e as Error).message}`);
  }
  const names = Object.keys(new RegExp(`${rx.source}|`).exec('')?.groups ?? {});
  const cp = (i: number) => codepoints(input.slice(0, i)).length;
  const out: Match[] = [];
  for (const m of input.matchAll(rx)) {
    if (f.includes('n') && m[0] === '') continue;
    let at = m.index!;
    const captures = m.slice(1).map((s) => {
      const name = names.find((n) => m.groups?.[n] === s && s !== undefined) ?? null;
      const pos = s === undefined ? -1 : input.indexOf(s, at);
      if (pos >= 0) at = pos;
      return { offset: pos < 0 ? -1 : cp(pos), length: s === undefined ? 0 : codepoints(s).length, string: s ?? null, name };
    });
    out.push({ offset: cp(m.index!), length: codepoints(m[0]).length, string: m[0], captures });
    if (!f.includes('g')) break;
  }
  return out;
}
const captureObject = (m: Match): Obj =>
  m.captures.reduce<Obj>((o, c) => (c.name === null ? o : put(o, c.name as string, c.string)), {});

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

const ID: Node = { t: 'id' };
const ITER_OPT: Node = { t: 'iter', of: ID, opt: true };
const PATHY = new Set(['id', 'rec', 'idx', 'slice', 'iter', 'try', 'pipe', 'comma', 'alt', 'if', 'as', 'call']);
let budget = 0;

function* vals(n: Node, x: V, env: Env): Generator<V> {
  for (const [v] of ev(n, x, null, env)) yield v;
}
const all = (n: Node, x: V, env: Env) => [...vals(n, x, env)];
const lastOf = (n: Node, x: V, env: Env): V => {
  let last: V = null;
  for (const v of vals(n, x, env)) last = v;
  return last;
};
/** Run one step; an optional step's error gives no output (undefined) instead of failing. */
function optional<T>(opt: boolean | undefined, step: () => T): [T] | undefined {
  if (!opt) return [step()];
  try {
    return [step()];
  } catch (e) {
    if (e instanceof JqError) return undefined;
    throw e;
  }
}
const invalidPath = (v: V): never => fail(`Invalid path expression with result ${trunc(v)}`);

/** Every combination of the arguments' outputs, the first argument varying slowest. */
function* cartesian(args: Node[], x: V, env: Env): Generator<V[]> {
  if (args.length === 0) return yield [];
  for (const v of vals(args[0], x, env)) for (const rest of cartesian(args.slice(1), x, env)) yield [v, ...rest];
}

/**
 * Consume a generator the way jq 1.6 backtracks: an error raised downstream while `gen` is suspended
 * unwinds into it, so a `try`/`?` still producing values there catches it (`(1)? | error("x")` is
 * silent in 1.6; 1.7 changed this).
 */
function* feed(gen: Generator<Out>, body: (o: Out) => Generator<Out> | Out[]): Generator<Out> {
  for (let r = gen.next(); !r.done; ) {
    try {
      const out = body(r.value);
      if (Array.isArray(out)) for (const o of out) yield o;
      else yield* out;
      r = gen.next();
    } catch (e) {
      if (!(e instanceof JqError)) throw e;
      r = gen.throw(e);
    }
  }
}

function* ev(n: Node, x: V, p: Path | null, env: Env): Generator<Out> {
  if (--budget < 0) fail('podlife stopped this jq program: it ran more than 2,000,000 steps');
  if (p && !PATHY.has(n.t)) {
    for (const v of vals(n, x, env)) invalidPath(v);
    return;
  }
  switch (n.t) {
    case 'id':
      return yield [x, p];
    case 'rec':
      return yield* recurse(ITER_OPT, x, p, env);
    case 'lit':
      return yield [n.v, null];
    case 'var':
      return yield [env.get(n.name), null];
    case 'fmt':
      return yield [format(n.name, x), null];
    case 'idx':
      for (const k of vals(n.k, x, env)) {
        yield* feed(ev(n.of, x, p, env), ([o, op]) => {
          const v = optional(n.opt, () => index(o, k));
          return v ? [[v[0], op && [...op, k]]] : [];
        });
      }
      return;
    case 'slice':
      for (const to of n.to ? vals(n.to, x, env) : [null]) {
        for (const from of n.from ? vals(n.from, x, env) : [null]) {
          const k = { start: from, end: to };
          for (const [o, op] of ev(n.of, x, p, env)) {
            const v = optional(n.opt, () => (isObj(o) ? fail('Cannot index object with object') : index(o, k)));
            if (v) yield [v[0], op && [...op, k]];
          }
        }
      }
      return;
    case 'iter':
      return yield* feed(ev(n.of, x, p, env), ([o, op]) => (optional(n.opt, () => entriesOf(o))?.[0] ?? []).map(([k, v]): Out => [v, op && [...op, k]]));
    case 'try':
      try {
        for (const o of ev(n.body, x, p, env)) yield o;
      } catch (e) {
        if (!(e instanceof JqError)) throw e;
        if (n.c && e.value !== null) for (const v of vals(n.c, e.value, env)) yield [v, p && invalidPath(v)];
      }
      return;
    case 'pipe':
      return yield* feed(ev(n.l, x, p, env), ([v, vp]) => ev(n.r, v, vp, env));
    case 'comma':
      yield* ev(n.l, x, p, env);
      return yield* ev(n.r, x, p, env);
    case 'alt': {
      let any = false; // jq 1.6 does not suppress errors on the left (1.7 does)
      for (const o of ev(n.l, x, p, env)) {
        if (truthy(o[0])) {
          any = true;
          yield o;
        }
      }
      if (!any) yield* ev(n.r, x, p, env);
      return;
    }
    case 'and':
    case 'or':
      for (const l of vals(n.l, x, env)) {
        if (truthy(l) === (n.t === 'or')) yield [n.t === 'or', null];
        else for (const r of vals(n.r, x, env)) yield [truthy(r), null];
      }
      return;
    case 'bin':
      for (const r of vals(n.r, x, env)) for (const l of vals(n.l, x, env)) yield [arith(n.op, l, r), null];
      return;
    case 'neg':
      for (const v of vals(n.e, x, env)) yield [typeof v === 'number' ? -v : fail(`${desc(v)} cannot be negated`), null];
      return;
    case 'arr':
      return yield [n.e ? all(n.e, x, env) : [], null];
    case 'obj':
      return yield* object(n.entries, x, env);
    case 'str':
      for (const s of interpolate(n.parts, n.parts.length - 1, '', n.fmt, x, env)) yield [s, null];
      return;
    case 'if':
      return yield* feed(ev(n.c, x, null, env), ([c]) => (truthy(c) ? ev(n.a, x, p, env) : n.b ? ev(n.b, x, p, env) : [[x, p]]));
    case 'as':
      return yield* feed(ev(n.src, x, null, env), ([v]) => ev(n.body, x, p, new Map(env).set(n.name, v)));
    case 'reduce':
      for (let acc of vals(n.init, x, env)) {
        for (const v of vals(n.src, x, env)) acc = lastOf(n.upd, acc, new Map(env).set(n.name, v));
        yield [acc, null];
      }
      return;
    case 'assign': {
      const { op, l, r } = n;
      if (op === '|=') return yield [modify(x, l, (old) => all(r, old, env), env), null];
      for (const v of vals(r, x, env)) {
        const update = (old: V) => (op === '=' ? v : op === '//=' ? (truthy(old) ? old : v) : arith(op.slice(0, -1), old, v));
        yield [modify(x, l, (old) => [update(old)], env), null];
      }
      return;
    }
    case 'call':
      return yield* call(n.name, n.args, x, p, env);
  }
}

/** jq 1.6's _modify: for each path, the first output of the update; no output deletes the path. */
function modify(x: V, paths: Node, update: (old: V) => V[], env: Env): V {
  let out = x;
  for (const [, path] of ev(paths, x, [], env)) {
    const outs = update(getpath(out, path));
    out = outs.length > 0 ? setpath(out, path!, outs[0]) : delpaths(out, [path!]);
  }
  return out;
}

/** A builtin call; in path mode only builtins that pass their paths through (select, recurse, first…) qualify. */
function* call(name: string, args: Node[], x: V, p: Path | null, env: Env): Generator<Out> {
  const gen = (function* () {
    const out = BUILTINS[`${name}/${args.length}`](x, args, env, p);
    if (Array.isArray(out)) for (const o of out) yield o;
    else yield* out;
  })();
  yield* feed(gen, ([v, vp]) => [[v, p && (vp ?? invalidPath(v))]]);
}

function* recurse(f: Node, x: V, p: Path | null, env: Env): Generator<Out> {
  yield [x, p];
  for (const [v, vp] of ev(f, x, p, env)) yield* recurse(f, v, vp, env);
}

function* object(entries: [Node, Node][], x: V, env: Env, acc: Obj = {}): Generator<Out> {
  if (entries.length === 0) return yield [acc, null];
  const [[kn, vn], ...rest] = entries;
  yield* feed(ev(kn, x, null, env), ([k]) => {
    if (typeof k !== 'string') fail(`Cannot use ${desc(k)} as object key`);
    return feed(ev(vn, x, null, env), ([v]) => object(rest, x, env, put({ ...acc }, k as string, v)));
  });
}

/** String interpolation: the last `\(...)` varies slowest, as in jq. */
function* interpolate(parts: (string | Node)[], i: number, tail: string, fmt: string, x: V, env: Env): Generator<string> {
  if (i < 0) return yield tail;
  const part = parts[i];
  if (typeof part === 'string') return yield* interpolate(parts, i - 1, part + tail, fmt, x, env);
  for (const v of vals(part, x, env)) yield* interpolate(parts, i - 1, format(fmt, v) + tail, fmt, x, env);
}

// ---------------------------------------------------------------------------------------------
// Builtins
// ---------------------------------------------------------------------------------------------

type Builtin = (x: V, a: Node[], env: Env, p: Path | null) => Iterable<Out>;
/** A builtin computing one value from the input and its arguments' values (all combinations). */
const fn = (f: (x: V, ...args: V[]) => V): Builtin =>
  function* (x, a, env) {
    for (const args of cartesian(a, x, env)) yield [f(x, ...args), null];
  };
/** A builtin that passes its input (and its path) through when the condition holds. */
const sel = (cond: (x: V, a: Node[], env: Env) => boolean): Builtin =>
  function* (x, a, env, p) {
    if (cond(x, a, env)) yield [x, p];
  };
const ofType = (t: string) => sel((x) => typeOf(x) === t);
const gen = (f: (x: V, a: Node[], env: Env) => Iterable<V>): Builtin =>
  function* (x, a, env) {
    for (const v of f(x, a, env)) yield [v, null];
  };
const valuesOf = (x: V) => entriesOf(x).map((e) => e[1]);
const num = (f: (n: number) => V) => fn((x) => (typeof x === 'number' ? f(x) : fail(`${desc(x)} number required`)));
const str = (name: string, f: (s: string, t: string) => V) =>
  fn((x, t) => (typeof x === 'string' && typeof t === 'string' ? f(x, t) : fail(`${name}() requires string inputs`)));
const keysOf = (x: V, sorted: boolean) =>
  Array.isArray(x) ? x.map((_, i) => i) : isObj(x) ? (sorted ? Object.keys(x).sort() : Object.keys(x)) : fail(`${desc(x)} has no keys`);
function length(x: V): number {
  if (x === null) return 0;
  if (typeof x === 'boolean') return fail(`${desc(x)} has no length`);
  if (typeof x === 'number') return Math.abs(x);
  return typeof x === 'string' ? codepoints(x).length : Array.isArray(x) ? x.length : Object.keys(x as Obj).length;
}
/** sort_by/group_by/unique_by/min_by/max_by: each element keyed by [all outputs of f]. */
function keyed(x: V, f: Node, env: Env): [V[], V[]] {
  const items = valuesOf(x);
  const keys = items.map((v) => all(f, v, env));
  return Array.isArray(x) ? [items, keys] : fail(`${desc(x)} and ${desc(keys)} cannot be sorted, as they are not both arrays`);
}
function groups(x: V, f: Node, env: Env): V[][] {
  const [items, keys] = keyed(x, f, env);
  const order = sortStable(items.map((_, i) => i), keys) as number[];
  const out: V[][] = [];
  order.forEach((i, j) => (j > 0 && compare(keys[i], keys[order[j - 1]]) === 0 ? out[out.length - 1].push(items[i]) : out.push([items[i]])));
  return out;
}
function extreme(x: V, keys: V[] | null, max: boolean): V {
  if (!Array.isArray(x)) return fail(`${desc(x)} and ${desc(x)} cannot be iterated over`);
  let best = -1;
  x.forEach((_, i) => {
    const c = best < 0 ? 0 : compare((keys ?? x)[i], (keys ?? x)[best]);
    if (best < 0 || (max ? c >= 0 : c < 0)) best = i;
  });
  return best < 0 ? null : x[best];
}
const hasKey = (x: V, k: V): boolean =>
  isObj(x) && typeof k === 'string' ? has(x, k) : Array.isArray(x) && typeof k === 'number' ? k >= 0 && k < x.length : fail(`Cannot check whether ${typeOf(x)} has a ${typeOf(k)} key`);
const indicesOf = (x: V, i: V): V =>
  x === null ? null : typeof x === 'string' && typeof i === 'string' ? indices(codepoints(x), codepoints(i)) : index(x, Array.isArray(i) ? i : [i]);
function extremeBy(x: V, f: Node, env: Env, max: boolean): V {
  const keys = valuesOf(x).map((v) => all(f, v, env));
  return Array.isArray(x) ? extreme(x, keys, max) : fail(`${desc(x)} and ${desc(keys)} cannot be iterated over`);
}
function flatten(x: V, depth: number): V[] {
  if (depth < 0) return fail('flatten depth must not be negative');
  return valuesOf(x).flatMap((v) => (Array.isArray(v) && depth !== 0 ? flatten(v, depth - 1) : [v]));
}
function* range(from: V, to: V, by: V): Generator<V> {
  if ([from, to, by].some((v) => typeof v !== 'number')) return fail('Range bounds must be numeric');
  const [f, t, b] = [from, to, by] as number[];
  for (let i = f; b > 0 ? i < t : b < 0 && i > t; i += b) {
    if (--budget < 0) fail('podlife stopped this jq program: it ran more than 2,000,000 steps');
    yield i;
  }
}
function tonumber(x: V): V {
  if (typeof x === 'number') return x;
  if (typeof x !== 'string') return fail(`${desc(x)} cannot be parsed as a number`);
  if (/^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(x)) return Number(x);
  return fail(`Invalid numeric literal at EOF at line 1, column ${x.length} (while parsing '${x}')`);
}
function fromjson(x: V): V {
  if (typeof x !== 'string') return fail(`${desc(x)} only strings can be parsed`);
  try {
    return JSON.parse(x);
  } catch {
    return /^\s*(nan|-?\d)/.test(x) ? tonumber(x) : fail(`${x} (while parsing '${x}') is not valid JSON`);
  }
}
/** jq 1.6: map({(.key // .Key // .name // .Name): (if has("value") then .value else .Value end)}) | add + {} // {} */
function fromEntries(x: V): Obj {
  const out: Obj = {};
  for (const e of valuesOf(x)) {
    const k = ['key', 'Key', 'name'].map((k) => index(e, k)).find(truthy) ?? index(e, 'Name');
    if (typeof k !== 'string') fail(`Cannot use ${desc(k)} as object key`);
    put(out, k as string, isObj(e) && has(e, 'value') ? e.value : index(e, 'Value'));
  }
  return out;
}
function* sub(x: V, a: Node[], env: Env, global: boolean): Generator<V> {
  for (const [re, flags] of cartesian([a[0], a[2] ?? { t: 'lit', v: null }], x, env)) {
    const ms = matches(x, re, `${global ? 'g' : ''}${flags ?? ''}`);
    const s = codepoints(x as string);
    const build = function* (i: number, tail: string): Generator<string> {
      const end = i + 1 < ms.length ? ms[i + 1].offset : s.length;
      if (i < 0) return yield s.slice(0, end).join('') + tail;
      const m = ms[i];
      const between = s.slice(m.offset + m.length, end).join('');
      for (const r of vals(a[1], captureObject(m), env)) {
        yield* build(i - 1, (typeof r === 'string' ? r : fail(`${desc(tostring(s.slice(0, m.offset).join('')))} and ${desc(r)} cannot be added`)) + between + tail);
      }
    };
    yield* build(ms.length - 1, '');
  }
}

const BUILTINS: Record<string, Builtin> = {
  'empty/0': function* () {},
  'not/0': fn((x) => !truthy(x)),
  'error/0': fn((x) => fail(x)),
  'error/1': fn((_, m) => fail(m)),
  'length/0': fn(length),
  'utf8bytelength/0': fn((x) => (typeof x === 'string' ? new TextEncoder().encode(x).length : fail(`${desc(x)} only strings have UTF-8 byte length`))),
  'keys/0': fn((x) => keysOf(x, true)),
  'keys_unsorted/0': fn((x) => keysOf(x, false)),
  'has/1': fn(hasKey),
  'in/1': fn((x, o) => hasKey(o, x)),
  'contains/1': fn((x, b) => contains(x, b)),
  'inside/1': fn((x, b) => contains(b, x)),
  'select/1': (x, a, env, p) => feed(ev(a[0], x, null, env), ([c]) => (truthy(c) ? [[x, p]] : [])),
  'values/0': sel((x) => x !== null),
  'nulls/0': ofType('null'), 'booleans/0': ofType('boolean'), 'numbers/0': ofType('number'), 'strings/0': ofType('string'),
  'arrays/0': ofType('array'), 'objects/0': ofType('object'),
  'iterables/0': sel((x) => typeof x === 'object' && x !== null),
  'scalars/0': sel((x) => typeof x !== 'object' || x === null),
  'recurse/0': (x, _, env, p) => recurse(ITER_OPT, x, p, env),
  'recurse/1': (x, a, env, p) => recurse(a[0], x, p, env),
  'recurse/2': (x, a, env, p) => recurse({ t: 'pipe', l: a[0], r: { t: 'call', name: 'select', args: [a[1]] } }, x, p, env),
  'map/1': gen((x, a, env) => [valuesOf(x).flatMap((v) => all(a[0], v, env))]),
  'add/0': fn((x) => valuesOf(x).reduce((acc: V, v) => arith('+', acc, v), null)),
  'any/0': fn((x) => valuesOf(x).some(truthy)),
  'all/0': fn((x) => valuesOf(x).every(truthy)),
  'any/1': gen((x, a, env) => [valuesOf(x).some((v) => all(a[0], v, env).some(truthy))]),
  'all/1': gen((x, a, env) => [valuesOf(x).every((v) => all(a[0], v, env).every(truthy))]),
  'any/2': gen((x, a, env) => [all(a[0], x, env).some((v) => all(a[1], v, env).some(truthy))]),
  'all/2': gen((x, a, env) => [all(a[0], x, env).every((v) => all(a[1], v, env).every(truthy))]),
  'range/1': gen(function* (x, a, env) {
    for (const n of vals(a[0], x, env)) yield* range(0, n, 1);
  }),
  'range/2': gen(function* (x, a, env) {
    for (const [f, t] of cartesian(a, x, env)) yield* range(f, t, 1);
  }),
  'range/3': gen(function* (x, a, env) {
    for (const [f, t, b] of cartesian(a, x, env)) yield* range(f, t, b);
  }),
  'first/0': fn((x) => index(x, 0)),
  'last/0': fn((x) => index(x, -1)),
  'nth/1': fn((x, n) => index(x, n)),
  'first/1': function* (x, a, env, p) {
    for (const o of ev(a[0], x, p, env)) return yield o;
  },
  'last/1': function* (x, a, env, p) {
    let last: Out | null = null;
    for (const o of ev(a[0], x, p, env)) last = o;
    if (last) yield last;
  },
  'nth/2': gen(function* (x, a, env) {
    for (const n of vals(a[0], x, env)) {
      if (typeof n !== 'number' || n < 0) fail("nth doesn't support negative indices");
      let i = 0;
      for (const v of vals(a[1], x, env)) if (i++ === n) { yield v; break; }
    }
  }),
  'limit/2': function* (x, a, env, p) {
    for (const n of vals(a[0], x, env)) {
      let i = 0;
      for (const o of ev(a[1], x, p, env)) {
        yield o;
        if (typeof n === 'number' && n >= 0 && ++i >= n) break; // jq 1.6: limit(0; f) gives f's first output
      }
    }
  },
  'isempty/1': gen((x, a, env) => [vals(a[0], x, env).next().done === true]),
  'until/2': gen(function* (x, a, env) {
    while (!truthy(lastOf(a[0], x, env))) x = lastOf(a[1], x, env);
    yield x;
  }),
  // while is a jq-defined recursion; a stack keeps long runs off the call stack
  'while/2': gen(function* (x, a, env) {
    for (const stack = [x]; stack.length > 0; ) {
      const v = stack.pop();
      for (const c of vals(a[0], v, env)) if (truthy(c)) yield v, stack.push(...all(a[1], v, env).reverse());
    }
  }),
  // jq 1.6's repeat applies f to its original input over and over: f's first output, forever (1.7 fixed it)
  'repeat/1': gen(function* (x, a, env) {
    for (let y = vals(a[0], x, env).next(); !y.done; y = vals(a[0], x, env).next()) yield y.value;
  }),
  'reverse/0': fn((x) =>
    x === null ? [] : Array.isArray(x) ? [...x].reverse() : length(x) === 0 ? [] : fail(`Cannot index ${typeOf(x)} with number`)),
  'sort/0': fn((x) => (Array.isArray(x) ? sortStable(x) : fail(`${desc(x)} cannot be sorted, as it is not an array`))),
  'sort_by/1': gen((x, a, env) => [sortStable(...keyed(x, a[0], env))]),
  'group_by/1': gen((x, a, env) => [groups(x, a[0], env)]),
  'unique/0': gen((x, _, env) => [groups(x, ID, env).map((g) => g[0])]),
  'unique_by/1': gen((x, a, env) => [groups(x, a[0], env).map((g) => g[0])]),
  'min/0': fn((x) => extreme(x, null, false)),
  'max/0': fn((x) => extreme(x, null, true)),
  'min_by/1': gen((x, a, env) => [extremeBy(x, a[0], env, false)]),
  'max_by/1': gen((x, a, env) => [extremeBy(x, a[0], env, true)]),
  'flatten/0': fn((x) => flatten(x, Infinity)),
  'flatten/1': fn((x, d) => flatten(x, d as number)),
  'tostring/0': fn(tostring),
  'tojson/0': fn(dump),
  'fromjson/0': fn(fromjson),
  'tonumber/0': fn(tonumber),
  'type/0': fn(typeOf),
  'infinite/0': fn(() => Infinity),
  'nan/0': fn(() => NaN),
  'isinfinite/0': num((n) => !Number.isFinite(n) && !Number.isNaN(n)),
  'isnan/0': num(Number.isNaN),
  'isnormal/0': num((n) => Number.isFinite(n) && n !== 0),
  'floor/0': num(Math.floor), 'ceil/0': num(Math.ceil), 'round/0': num(Math.round), 'fabs/0': num(Math.abs),
  'sqrt/0': num(Math.sqrt), 'log/0': num(Math.log), 'log2/0': num(Math.log2), 'log10/0': num(Math.log10), 'exp/0': num(Math.exp),
  'exp10/0': num((n) => 10 ** n), 'trunc/0': num(Math.trunc),
  'pow/2': fn((_, b, e) => (typeof b === 'number' && typeof e === 'number' ? b ** e : fail(`${desc(b)} number required`))),
  'ascii_downcase/0': fn((x) => (typeof x === 'string' ? x.replace(/[A-Z]/g, (c) => c.toLowerCase()) : fail('explode input must be a string'))),
  'ascii_upcase/0': fn((x) => (typeof x === 'string' ? x.replace(/[a-z]/g, (c) => c.toUpperCase()) : fail('explode input must be a string'))),
  'explode/0': fn((x) => (typeof x === 'string' ? codepoints(x).map((c) => c.codePointAt(0)) : fail('explode input must be a string'))),
  'implode/0': fn((x) =>
    Array.isArray(x) ? String.fromCodePoint(...x.map((c) => (Number.isInteger(c) && (c as number) >= 0 && (c as number) <= 0x10ffff ? (c as number) : 0xfffd))) : fail('implode input must be an array')),
  'ltrimstr/1': fn((x, s) => (typeof x === 'string' && typeof s === 'string' && x.startsWith(s) ? x.slice(s.length) : x)),
  'rtrimstr/1': fn((x, s) => (typeof x === 'string' && typeof s === 'string' && x.endsWith(s) && s !== '' ? x.slice(0, -s.length) : x)),
  'startswith/1': str('startswith', (s, t) => s.startsWith(t)),
  'endswith/1': str('endswith', (s, t) => s.endsWith(t)),
  'split/1': fn((x, s) => (typeof x === 'string' && typeof s === 'string' ? splitStr(x, s) : fail('split input and separator must be strings'))),
  'split/2': fn((x, re, flags) => {
    const s = codepoints(x as string);
    const ms = matches(x, re, `g${flags ?? ''}`);
    return [0, ...ms.flatMap((m) => [m.offset, m.offset + m.length]), s.length].flatMap((o, i, b) => (i % 2 ? [] : [s.slice(o, b[i + 1]).join('')]));
  }),
  'splits/1': gen((x, a, env) => all({ t: 'call', name: 'split', args: [a[0], { t: 'lit', v: null }] }, x, env).flat()),
  'splits/2': gen((x, a, env) => all({ t: 'call', name: 'split', args: a }, x, env).flat()),
  'join/1': fn((x, sep) =>
    valuesOf(x).reduce((acc: V, v) => arith('+', acc === null ? '' : arith('+', acc, sep), v === null ? '' : typeof v === 'number' || typeof v === 'boolean' ? dump(v) : v), null) ?? ''),
  'test/1': fn((x, re) => matches(x, re, null).length > 0),
  'test/2': fn((x, re, f) => matches(x, re, f).length > 0),
  'match/1': gen((x, a, env) => [...cartesian(a, x, env)].flatMap(([re]) => matches(x, re, null))),
  'match/2': gen((x, a, env) => [...cartesian(a, x, env)].flatMap(([re, f]) => matches(x, re, f))),
  'capture/1': gen((x, a, env) => [...cartesian(a, x, env)].flatMap(([re]) => matches(x, re, null).map(captureObject))),
  'capture/2': gen((x, a, env) => [...cartesian(a, x, env)].flatMap(([re, f]) => matches(x, re, f).map(captureObject))),
  'scan/1': gen((x, a, env) =>
    [...cartesian(a, x, env)].flatMap(([re]) => matches(x, re, 'g').map((m) => (m.captures.length ? m.captures.map((c) => c.string) : m.string)))),
  'sub/2': gen((x, a, env) => sub(x, a, env, false)),
  'sub/3': gen((x, a, env) => sub(x, a, env, false)),
  'gsub/2': gen((x, a, env) => sub(x, a, env, true)),
  'gsub/3': gen((x, a, env) => sub(x, a, env, true)),
  'indices/1': fn(indicesOf),
  'index/1': fn((x, i) => index(indicesOf(x, i), 0)),
  'rindex/1': fn((x, i) => index(indicesOf(x, i), -1)),
  'to_entries/0': fn((x) => keysOf(x, false).map((k) => ({ key: k, value: index(x, k) }))),
  'from_entries/0': fn(fromEntries),
  'with_entries/1': gen((x, a, env) => [fromEntries(keysOf(x, false).flatMap((k) => all(a[0], { key: k, value: index(x, k) }, env)))]),
  'path/1': gen(function* (x, a, env) {
    for (const [, p] of ev(a[0], x, [], env)) yield p;
  }),
  'paths/0': gen((x, _, env) => all({ t: 'call', name: 'path', args: [{ t: 'rec' }] }, x, env).filter((p) => (p as V[]).length > 0)),
  'paths/1': gen((x, a, env) => all({ t: 'call', name: 'paths', args: [] }, x, env).flatMap((p) => all(a[0], getpath(x, p), env).filter(truthy).map(() => p))),
  'leaf_paths/0': gen((x, _, env) => all({ t: 'call', name: 'paths', args: [{ t: 'call', name: 'scalars', args: [] }] }, x, env)),
  'getpath/1': function* (x, a, env, p) {
    for (const path of vals(a[0], x, env)) yield [getpath(x, path), p && [...p, ...(path as V[])]];
  },
  'setpath/2': fn((x, path, v) => (Array.isArray(path) ? setpath(x, path, v) : fail('Path must be specified as an array'))),
  'delpaths/1': fn((x, ps) => (Array.isArray(ps) ? delpaths(x, ps as V[][]) : fail('Paths must be specified as an array'))),
  'del/1': gen((x, a, env) => [delpaths(x, all({ t: 'call', name: 'path', args: a }, x, env) as V[][])]),
  'map_values/1': gen((x, a, env) => [modify(x, { t: 'iter', of: ID }, (old) => all(a[0], old, env), env)]),
  'walk/1': gen(function* w(x, a, env): Generator<V> {
    const inner = Array.isArray(x)
      ? x.map((v) => lastOf({ t: 'call', name: 'walk', args: a }, v, env))
      : isObj(x) ? Object.keys(x).reduce<Obj>((o, k) => put(o, k, lastOf({ t: 'call', name: 'walk', args: a }, x[k], env)), {}) : x;
    yield* vals(a[0], inner, env);
  }),
  'format/1': fn((x, f) => (typeof f === 'string' ? format(f, x) : fail(`${desc(f)} is not a valid format`))),
};

/** jq 1.6 builtins (and syntax) that podlife's jq refuses by name rather than calling them undefined. */
const UNSUPPORTED_BUILTINS = new Set(
  ('IN INDEX JOIN acos acosh asin asinh atan atan2 atanh bsearch builtins cbrt combinations copysign cos cosh debug drem env ' +
    'erf erfc expm1 fdim finites fma fmax fmin fmod frexp fromdate fromdateiso8601 fromstream gamma get_jq_origin ' +
    'get_prog_origin get_search_list gmtime halt halt_error hypot input input_filename input_line_number inputs j0 j1 jn ' +
    'ldexp lgamma lgamma_r localtime log1p logb mktime modf modulemeta nearbyint nextafter nexttoward normals now pow10 ' +
    'recurse_down remainder rint scalars_or_empty scalb scalbln significand sin sinh stderr strflocaltime strftime strptime ' +
    'tan tanh tgamma todate todateiso8601 tostream transpose truncate_stream y0 y1 yn break').split(' '),
);

// ---------------------------------------------------------------------------------------------
// Tokenizer (jq 1.6 lexer.l: strings are QQSTRING_START, QQSTRING_TEXT, interpolations, QQSTRING_END)
// ---------------------------------------------------------------------------------------------

type Tok = { k: string; v: string; pos: number; last: number };
const KEYWORDS = new Set(['def', 'module', 'import', 'include', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label', 'and', 'or', '__loc__']);
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const CLOSE: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  const stack: string[] = []; // '(', '[', '{', 'I' (inside \( ) of a string) and 'S' (inside a string)
  const push = (k: string, v: string, pos: number, last = pos) => toks.push({ k, v, pos, last });
  let i = 0;
  while (i < src.length) {
    if (stack[stack.length - 1] === 'S') {
      const start = i;
      let text = '';
      while (i < src.length && src[i] !== '"' && !(src[i] === '\\' && src[i + 1] === '(')) {
        if (src[i] !== '\\') text += src[i++];
        else if (ESCAPES[src[i + 1]] !== undefined) (text += ESCAPES[src[i + 1]]), (i += 2);
        else if (src[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) (text += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16))), (i += 6);
        else {
          while (i < src.length && src[i] !== '"') i++;
          const raw = src.slice(start, i);
          throw new CompileError(`Invalid escape at line 1, column ${raw.length + 2} (while parsing '"${raw}"')`, start);
        }
      }
      if (i > start) push('QQSTRING_TEXT', text, start);
      if (i >= src.length) break;
      if (src[i] === '"') stack.pop(), push('QQSTRING_END', '"', i++);
      else stack.push('I'), push('QQSTRING_INTERP_START', '\\(', i), (i += 2);
      continue;
    }
    const rest = src.slice(i);
    const c = src[i];
    let m: RegExpExecArray | null;
    if (/\s/.test(c)) i++;
    else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
    else if (c === '"') stack.push('S'), push('QQSTRING_START', '"', i++);
    else if ((m = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(rest))) push('LITERAL', m[0], i), (i += m[0].length);
    else if ((m = /^\.[a-zA-Z_][a-zA-Z_0-9]*/.exec(rest))) push('FIELD', m[0].slice(1), i), (i += m[0].length);
    else if ((m = /^\$(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/.exec(rest))) push('VAR', m[0].slice(1), i, i + 1), (i += m[0].length);
    else if ((m = /^@[a-zA-Z0-9_]+/.exec(rest))) push('FORMAT', m[0].slice(1), i), (i += m[0].length);
    else if ((m = /^(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/.exec(rest))) push(KEYWORDS.has(m[0]) ? 'KW' : 'IDENT', m[0], i), (i += m[0].length);
    else if ((m = /^(?:!=|==|\/\/=|\/\/|\|=|\+=|-=|\*=|\/=|%=|<=|>=|\.\.|[.?=;,:|+\-*/%$<>])/.exec(rest))) push('OP', m[0], i), (i += m[0].length);
    else if (c === '(' || c === '[' || c === '{') stack.push(c), push('OP', c, i++);
    else if (c === ')' && stack[stack.length - 1] === 'I') stack.pop(), push('QQSTRING_INTERP_END', ')', i++);
    else if (CLOSE[c] && stack[stack.length - 1] === CLOSE[c]) stack.pop(), push('OP', c, i++);
    else push('INVALID_CHARACTER', c, i++);
  }
  return toks;
}

// ---------------------------------------------------------------------------------------------
// Parser (jq 1.6 parser.y precedence: | , // = or and ==… +- */% unary; bison's messages)
// ---------------------------------------------------------------------------------------------

const LEVELS: [string[], 'L' | 'R' | 'N'][] = [
  [['//'], 'R'], [['=', '|=', '+=', '-=', '*=', '/=', '%=', '//='], 'N'], [['or'], 'L'], [['and'], 'L'],
  [['==', '!=', '<', '<=', '>', '>='], 'N'], [['+', '-'], 'L'], [['*', '/', '%'], 'L'],
];
const STARTS = new Set(['LITERAL', 'QQSTRING_START', 'FORMAT', 'FIELD', 'VAR', 'IDENT']);

function parse(src: string, predefined: string[]): { ast: Node; errors: [string, number][] } {
  const toks = lex(src);
  const end: Tok = { k: '$end', v: '', pos: toks.length ? toks[toks.length - 1].last : 0, last: 0 };
  const errors: [string, number][] = [];
  const scope = [...predefined];
  const open: { kind: string; pos: number }[] = []; // if…then and try…catch being parsed, for bison's hint
  let i = 0;
  const peek = () => toks[i] ?? end;
  const next = () => toks[i++] ?? end;
  const is = (v: string) => (peek().k === 'OP' || peek().k === 'KW') && peek().v === v;
  const name = (t: Tok) => (t.k === 'OP' ? (t.v.length === 1 ? `'${t.v}'` : t.v) : t.k === 'KW' ? t.v : t.k === 'VAR' ? "'$'" : t.k);
  const syntax = (expecting?: string): never => {
    const t = peek();
    const hint = open[open.length - 1]?.kind ? open[open.length - 1] : undefined; // bison's error rules for ( [ { win
    throw new CompileError(
      `syntax error, unexpected ${name(t)}${expecting ? `, expecting ${expecting}` : ''} (Unix shell quoting issues?)`,
      t.pos,
      hint ? [`Possibly unterminated '${hint.kind}' statement`, hint.pos] : null,
    );
  };
  const expect = (v: string, expecting?: string) => (is(v) ? next() : syntax(expecting));
  const nested = <T>(f: () => T): T => {
    open.push({ kind: '', pos: 0 });
    const r = f();
    open.pop();
    return r;
  };
  const unsupported = (what: string): never => {
    throw new Unsupported(what);
  };
  const lit = (v: V): Node => ({ t: 'lit', v });
  const idx = (of: Node, k: Node): Node => ({ t: 'idx', of, k });

  const pipe = (): Node => {
    const l = comma();
    return is('|') ? (next(), { t: 'pipe', l, r: pipe() }) : l;
  };
  const comma = (): Node => {
    let l = binary(0);
    while (is(',')) next(), (l = { t: 'comma', l, r: binary(0) });
    return l;
  };
  const binary = (lvl: number): Node => {
    if (lvl === LEVELS.length) return unary();
    const start = peek().pos;
    let l = binary(lvl + 1);
    const [ops, assoc] = LEVELS[lvl];
    while (ops.some(is)) {
      const op = next().v;
      const r = binary(assoc === 'R' ? lvl : lvl + 1);
      if (op === '/' && l.t === 'lit' && r.t === 'lit' && typeof l.v === 'number' && r.v === 0) errors.push(['Division by zero?', start]); // 1.6 folds constants
      if (op === '//') l = { t: 'alt', l, r };
      else if (op === 'and' || op === 'or') l = { t: op, l, r };
      else l = { t: lvl === 1 ? 'assign' : 'bin', op, l, r };
      if (assoc === 'N' && ops.some(is)) syntax();
    }
    return l;
  };
  const unary = (): Node => {
    if (is('-')) return next(), { t: 'neg', e: unary() };
    if (!is('try')) return postfix(true);
    const t = next();
    const body = unary();
    if (!is('catch')) return { t: 'try', body, c: null };
    next();
    open.push({ kind: 'try', pos: t.pos });
    const c = unary();
    open.pop();
    return { t: 'try', body, c };
  };
  const postfix = (allowAs: boolean): Node => {
    const first = peek();
    let n = term();
    if (first.k === 'KW' && (first.v === 'if' || first.v === 'reduce')) return n; // Exps in 1.6, not Terms: nothing postfix follows
    let step = first.k === 'FIELD' || (first.k === 'OP' && first.v === '.' && n.t === 'idx'); // jq 1.6: `Term FIELD '?'` etc.
    for (;;) {
      const t = peek();
      const wasStep = step;
      step = t.k === 'FIELD' || is('.') || is('[');
      if (t.k === 'FIELD') next(), (n = idx(n, lit(t.v)));
      else if (is('.')) {
        next();
        if (peek().k !== 'QQSTRING_START') syntax('FORMAT or QQSTRING_START');
        n = idx(n, (next(), string('text')));
      } else if (is('[')) n = nested(() => bracket(n));
      else if (is('?') && wasStep && (n.t === 'idx' || n.t === 'slice' || n.t === 'iter')) next(), (n = { ...n, opt: true });
      else if (is('?') && allowAs) {
        // `Exp '?'` is no longer a Term in 1.6: only more `?` may follow
        while (is('?')) next(), (n = { t: 'try', body: n, c: null });
        return n;
      }
      else if (allowAs && is('as')) {
        next();
        const v = bindVar();
        expect('|', "'|'");
        scope.push(v);
        const body = pipe();
        scope.pop();
        return { t: 'as', src: n, name: v, body };
      } else return n;
    }
  };
  const bindVar = (): string => {
    if (is('[') || is('{')) unsupported('destructuring (as [$a] / as {$a})');
    if (peek().k !== 'VAR') syntax("'$' or '[' or '{'");
    return next().v;
  };
  const bracket = (of: Node): Node => {
    next();
    if (is(']')) return next(), { t: 'iter', of };
    const from = is(':') ? null : pipe();
    if (!is(':')) return expect(']'), idx(of, from!);
    next();
    const to = is(']') && from ? null : pipe();
    expect(']');
    return { t: 'slice', of, from, to };
  };
  const string = (fmt: string): Node => {
    const parts: (string | Node)[] = [];
    for (;;) {
      const t = peek();
      if (t.k === 'QQSTRING_TEXT') parts.push(next().v);
      else if (t.k === 'QQSTRING_INTERP_START') {
        next();
        parts.push(pipe());
        if (peek().k !== 'QQSTRING_INTERP_END') syntax();
        next();
      } else if (t.k === 'QQSTRING_END') break;
      else syntax('QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END');
    }
    next();
    if (parts.every((s) => typeof s === 'string') && fmt === 'text') return lit(parts.join(''));
    return { t: 'str', parts, fmt };
  };
  const variable = (t: Tok): Node => {
    if (['__loc__', 'ENV', '__prog_args', 'ARGS'].includes(t.v)) unsupported(`$${t.v}`);
    if (!scope.includes(t.v)) errors.push([`$${t.v} is not defined`, t.pos]);
    return { t: 'var', name: t.v };
  };
  const objectValue = (): Node => {
    let l: Node = is('-') ? (next(), { t: 'neg', e: objectValue() }) : postfix(false);
    while (is('|')) next(), (l = { t: 'pipe', l, r: objectValue() });
    return l;
  };
  const object = (): Node => {
    const entries: [Node, Node][] = [];
    while (!is('}')) {
      const t = peek();
      let k: Node;
      let v: Node | null = null;
      if (t.k === 'IDENT' || t.k === 'KW') next(), (k = lit(t.v)), (v = t.k === 'IDENT' ? idx(ID, k) : null);
      else if (t.k === 'VAR') next(), (k = lit(t.v)), (v = variable(t));
      else if (t.k === 'QQSTRING_START' || t.k === 'FORMAT') {
        next();
        if (t.k === 'FORMAT' && peek().k !== 'QQSTRING_START') syntax('QQSTRING_START');
        k = t.k === 'FORMAT' ? (next(), string(t.v)) : string('text');
        v = idx(ID, k);
      } else if (is('(')) {
        next();
        k = nested(pipe);
        expect(')');
        if (!is(':')) syntax("':'");
        if (k.t === 'lit' && typeof k.v !== 'string') errors.push([`Cannot use ${desc(k.v)} as object key`, t.pos]); // 1.6 folds constants
      }
      else if (t.k === 'LITERAL') {
        throw new CompileError(`syntax error, unexpected LITERAL (Unix shell quoting issues?)`, t.pos, ['May need parentheses around object key expression', t.pos]);
      } else return syntax();
      if (is(':')) next(), (v = objectValue());
      else if (!v) syntax("':'");
      entries.push([k, v!]);
      if (is(',')) next();
      else if (!is('}')) syntax("'}'");
    }
    next();
    return { t: 'obj', entries };
  };
  const conditional = (start: number): Node => {
    const c = pipe();
    expect('then');
    open.push({ kind: 'if', pos: start });
    const a = pipe();
    let b: Node | null = null;
    if (is('elif')) next(), (b = conditional(start));
    else {
      if (is('else')) next(), (b = pipe());
      expect('end');
    }
    open.pop();
    return { t: 'if', c, a, b };
  };
  const term = (): Node => {
    const t = peek();
    if (t.k === 'LITERAL') return next(), lit(Number(t.v));
    if (t.k === 'QQSTRING_START') return next(), string('text');
    if (t.k === 'FORMAT') {
      next();
      if (t.v === 'base32' || t.v === 'base32d') unsupported(`@${t.v}`);
      return peek().k === 'QQSTRING_START' ? (next(), string(t.v)) : { t: 'fmt', name: t.v };
    }
    if (t.k === 'FIELD') return next(), idx(ID, lit(t.v));
    if (t.k === 'VAR') return next(), variable(t);
    if (t.k === 'IDENT' && ['true', 'false', 'null'].includes(t.v) && !toks[i + 1]?.v.startsWith('(')) {
      return next(), lit(JSON.parse(t.v));
    }
    if (t.k === 'IDENT') {
      next();
      const args: Node[] = [];
      if (is('(')) {
        next();
        args.push(pipe());
        while (is(';')) next(), args.push(pipe());
        expect(')');
      }
      const key = `${t.v}/${args.length}`;
      if (!BUILTINS[key]) {
        if (UNSUPPORTED_BUILTINS.has(t.v)) unsupported(t.v === 'break' ? 'label/break' : t.v);
        errors.push([`${key} is not defined`, t.pos]);
      }
      return { t: 'call', name: t.v, args };
    }
    if (t.k === 'KW' && ['def', 'foreach', 'label', 'import', 'include', 'module'].includes(t.v)) unsupported(t.v);
    if (is('if')) return next(), conditional(t.pos);
    if (is('try') || is('-')) return unary();
    if (is('reduce')) {
      next();
      if (is('if') || is('reduce') || is('try')) syntax();
      const src = postfix(false);
      expect('as');
      const v = bindVar();
      expect('(', "'('");
      const init = pipe();
      expect(';');
      scope.push(v);
      const upd = pipe();
      scope.pop();
      expect(')');
      return { t: 'reduce', src, name: v, init, upd };
    }
    if (is('.')) return next(), peek().k === 'QQSTRING_START' ? (next(), idx(ID, string('text'))) : ID;
    if (is('..')) return next(), { t: 'rec' };
    if (is('(')) return next(), nested(() => [pipe(), expect(')')][0] as Node);
    if (is('[')) {
      next();
      if (is(']')) return next(), { t: 'arr', e: null };
      return nested(() => [{ t: 'arr', e: pipe() }, expect(']')][0] as Node);
    }
    if (is('{')) return next(), nested(object);
    if (is('$')) return next(), syntax('IDENT or __loc__');
    return syntax();
  };

  if (peek().k === '$end') return { ast: ID, errors };
  const first = peek();
  if (!STARTS.has(first.k) && !['.', '..', '(', '[', '{', '-', '$', 'if', 'try', 'reduce', 'def', 'foreach', 'label', 'import', 'include', 'module'].some(is)) syntax('$end');
  const ast = pipe();
  if (peek().k !== '$end') syntax('$end');
  return { ast, errors };
}

// ---------------------------------------------------------------------------------------------
// The command: options, input, output and exit status (jq 1.6 main.c)
// ---------------------------------------------------------------------------------------------

const USAGE = 'Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n';
const usageError = (msg: string): CommandResult => ({ stdout: '', stderr: `jq: ${msg}\n${USAGE}`, exitCode: 2 });
const SHORT: Record<string, string> = { r: 'raw', j: 'join', c: 'compact', e: 'exit', s: 'slurp', n: 'null', S: 'sort', R: 'rawin', M: '', C: '' };
const LONG: Record<string, string> = {
  '--raw-output': 'raw', '--join-output': 'join', '--compact-output': 'compact', '--exit-status': 'exit', '--slurp': 'slurp',
  '--null-input': 'null', '--sort-keys': 'sort', '--raw-input': 'rawin', '--tab': 'tab', '--monochrome-output': '', '--color-output': '',
  '--unbuffered': '',
};
const UNSUPPORTED_OPTIONS = new Set(['-a', '--ascii-output', '--seq', '--stream', '-f', '--from-file', '--rawfile', '--slurpfile', '--args', '--jsonargs', '-L', '-h', '--help', '--version', '--debug-dump-disasm', '--debug-trace']);

/** strtod's grammar (jq's jv_dtoa.c, David Gay's): a decimal with optional exponent, or inf, infinity, nan in any case. */
const STRTOD = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)$/i;

/** Inside a string, what ends a run of plain characters: the quote, a backslash, RS, a newline (for the line count). */
const ENDS_STRING_RUN = (c: number) => c === 34 || c === 92 || c === 30 || c === 10;
/** classify's WHITESPACE: space, tab, CR, LF. */
const IS_SPACE = (c: number) => c === 32 || c === 9 || c === 13 || c === 10;
/** Outside a string, a character of a word (classify's LITERAL): not whitespace, a quote, structure or RS. */
const IN_WORD = (c: number) => !IS_SPACE(c) && c !== 34 && c !== 91 && c !== 44 && c !== 93 && c !== 123 && c !== 58 && c !== 125 && c !== 30;

/** found_string's one-character escapes. */
const JSON_ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', b: '\b', f: '\f', t: '\t', n: '\n', r: '\r' };

/** The UTF-8 length of one UTF-16 unit (a surrogate pair is 4 bytes, 2 per unit): jq counts columns in bytes. */
const utf8Units = (code: number) => (code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdfff ? 2 : 3);
const utf8Length = (s: string) => {
  let n = 0;
  for (let i = 0; i < s.length; i++) n += utf8Units(s.charCodeAt(i));
  return n;
};

/**
 * Parse a stream of JSON texts as jq's parser does, a character at a time (jv_parse.c scan, token, check_literal,
 * found_string): the values before the first error, each with the index just past the character that completed
 * it, and the error in jq's words with its line and byte column. Literals follow the jq 1.6 that Debian 12 ships
 * (1.6-2.1+deb12u2), which took jq 1.7's change: a three-letter word starting with n is read as a number, so `nan`
 * is NaN (printed as null) and `nul` an invalid numeric literal.
 */
// upstream: jq jq-1.6 src/jv_parse.c; jq 4b1ac7c9 (check_literal: "it could be a literal nan")
function parseJsonStream(text: string): { docs: [V, number][]; error?: string } {
  const docs: [V, number][] = [];
  type Frame = { k: 'arr'; v: V[] } | { k: 'obj'; v: Obj } | { k: 'key'; v: string };
  const stack: Frame[] = [];
  let next: { v: V } | undefined;
  let token = '';
  let state: 'normal' | 'string' | 'escape' = 'normal';
  let line = 1;
  let column = 0;

  const value = (v: V): string | undefined => {
    if (next) return 'Expected separator between values';
    next = { v };
    return undefined;
  };
  const checkLiteral = (): string | undefined => {
    if (token === '') return undefined;
    const pattern = token[0] === 't' ? 'true' : token[0] === 'f' ? 'false' : token[0] === 'n' && utf8Length(token) !== 3 ? 'null' : undefined;
    let err: string | undefined;
    if (pattern) {
      if (token !== pattern) return 'Invalid literal';
      err = value(pattern === 'true' ? true : pattern === 'false' ? false : null);
    } else {
      if (!STRTOD.test(token)) return 'Invalid numeric literal';
      const word = token.replace(/^[+-]/, '').toLowerCase();
      const sign = token[0] === '-' ? -1 : 1;
      err = value(word === 'nan' ? NaN : word.startsWith('inf') ? sign * Infinity : Number(token));
    }
    if (err) return err;
    token = '';
    return undefined;
  };
  const structure = (ch: string): string | undefined => {
    const top = stack[stack.length - 1];
    switch (ch) {
      case '[':
      case '{':
        if (stack.length >= 256) return 'Exceeds depth limit for parsing';
        if (next) return 'Expected separator between values';
        stack.push(ch === '[' ? { k: 'arr', v: [] } : { k: 'obj', v: {} });
        return undefined;
      case ':':
        if (!next) return "Expected string key before ':'";
        if (!top || top.k !== 'obj') return "':' not as part of an object";
        if (typeof next.v !== 'string') return 'Object keys must be strings';
        stack.push({ k: 'key', v: next.v });
        next = undefined;
        return undefined;
      case ',':
        if (!next) return "Expected value before ','";
        if (!top) return "',' not as part of an object or array";
        if (top.k === 'arr') top.v.push(next.v);
        else if (top.k === 'key') {
          stack.pop();
          put((stack[stack.length - 1] as { v: Obj }).v, top.v, next.v);
        } else return 'Objects must consist of key:value pairs';
        next = undefined;
        return undefined;
      case ']':
        if (!top || top.k !== 'arr') return "Unmatched ']'";
        if (next) top.v.push(next.v);
        else if (top.v.length !== 0) return 'Expected another array element';
        stack.pop();
        next = { v: top.v };
        return undefined;
      default: // '}'
        if (!top) return "Unmatched '}'";
        if (next) {
          if (top.k !== 'key') return 'Objects must consist of key:value pairs';
          stack.pop();
          const obj = stack.pop() as { v: Obj };
          put(obj.v, top.v, next.v);
          next = { v: obj.v };
          return undefined;
        }
        if (top.k !== 'obj') return "Unmatched '}'";
        if (Object.keys(top.v).length !== 0) return 'Expected another key-value pair';
        stack.pop();
        next = { v: top.v };
        return undefined;
    }
  };
  const foundString = (): string | undefined => {
    // most strings have no escape and no control character: the token is the string
    if (!/[\\\u0001-\u001e]/.test(token)) {
      const err = value(token);
      if (err) return err;
      token = '';
      return undefined;
    }
    let out = '';
    const end = token.length;
    let i = 0;
    while (i < end) {
      const c = token[i++];
      if (c !== '\\') {
        const code = c.charCodeAt(0);
        if (code > 0 && code < 0x1f) return 'Invalid string: control characters from U+0000 through U+001F must be escaped';
        out += c;
        continue;
      }
      if (i >= end) return 'Expected escape character at end of string';
      const e = token[i++];
      if (has(JSON_ESCAPES, e)) {
        out += JSON_ESCAPES[e];
        continue;
      }
      if (e !== 'u') return 'Invalid escape';
      if (i + 4 > end) return 'Invalid \\uXXXX escape';
      const hex = token.slice(i, i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return 'Invalid characters in \\uXXXX escape';
      let cp = parseInt(hex, 16);
      i += 4;
      if (cp >= 0xd800 && cp <= 0xdbff) {
        const low = token.slice(i + 2, i + 6);
        if (i + 6 > end || token[i] !== '\\' || token[i + 1] !== 'u') return 'Invalid \\uXXXX\\uXXXX surrogate pair escape';
        const surrogate = /^[0-9a-fA-F]{4}$/.test(low) ? parseInt(low, 16) : -1;
        if (!(surrogate >= 0xdc00 && surrogate <= 0xdfff)) return 'Invalid \\uXXXX\\uXXXX surrogate pair escape';
        i += 6;
        cp = 0x10000 + (((cp - 0xd800) << 10) | (surrogate - 0xdc00));
      }
      // a lone low surrogate is not valid UTF-8: jv_string_sized replaces it
      out += cp >= 0xdc00 && cp <= 0xdfff ? '\ufffd' : String.fromCodePoint(cp);
    }
    const err = value(out);
    if (err) return err;
    token = '';
    return undefined;
  };
  // the value a character completed, at the top level
  const done = (end: number): void => {
    if (stack.length === 0 && next) {
      docs.push([next.v, end]);
      next = undefined;
    }
  };

  const error = (msg: string, eof: boolean) => ({ docs, error: `parse error: ${msg} at ${eof ? 'EOF at ' : ''}line ${line}, column ${column}\n` });
  // a UTF-8 byte order mark at the start is skipped
  const n = text.length;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < n; i++) {
    const code = text.charCodeAt(i);
    // whitespace between tokens, with no word to end and no value to hand out, only moves the line and column
    if (state === 'normal' && token === '' && IS_SPACE(code) && !(stack.length === 0 && next)) {
      let j = i;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (c === 10) {
          line++;
          column = 0;
        } else if (IS_SPACE(c)) column++;
        else break;
      }
      i = j - 1;
      continue;
    }
    // a run of characters that only add to the token (inside a string, or a word outside one) is taken whole:
    // what scan does for each of them is tokenadd and a column
    if (state === 'string' ? !ENDS_STRING_RUN(code) : state === 'normal' && IN_WORD(code)) {
      const inString = state === 'string';
      let j = i + 1;
      let bytes = utf8Units(code);
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (inString ? ENDS_STRING_RUN(c) : !IN_WORD(c)) break;
        bytes += utf8Units(c);
      }
      column += bytes;
      token += text.slice(i, j);
      i = j - 1;
      continue;
    }
    const ch = text[i];
    column += utf8Units(code);
    if (code === 10) {
      line++;
      column = 0;
    }
    let err: string | undefined;
    if (code === 30) {
      // RS (JSON text sequences): outside --seq it ends the value, or drops an unfinished one
      err = checkLiteral();
      if (err) return error(err, false);
      if (state === 'normal' && stack.length === 0 && next) done(i + 1);
      else {
        stack.length = 0;
        next = undefined;
        token = '';
        state = 'normal';
      }
      continue;
    }
    if (state === 'normal') {
      // (a word's characters were taken above: this one is whitespace, a quote or structure)
      const cls = code === 34 ? 'quote' : IS_SPACE(code) ? 'ws' : 'structure';
      err = checkLiteral();
      if (err) return error(err, false);
      // a value completed here is output only if the character itself is valid (check_done, then token)
      const before = stack.length === 0 && next ? next : undefined;
      if (before) next = undefined;
      if (cls === 'quote') state = 'string';
      else if (cls === 'structure') err = structure(ch);
      if (err) return error(err, false);
      if (before) docs.push([before.v, i + 1]);
      done(i + 1);
    } else if (ch === '"' && state === 'string') {
      err = foundString();
      if (err) return error(err, false);
      state = 'normal';
      done(i + 1);
    } else {
      token += ch;
      state = ch === '\\' && state === 'string' ? 'escape' : 'string';
    }
  }
  if (state !== 'normal') return error('Unfinished string', true);
  const err = checkLiteral();
  if (err) return error(err, true);
  if (stack.length) return error('Unfinished JSON term', true);
  if (next) docs.push([next.v, text.length]);
  return { docs };
}

function sortKeys(v: V): V {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObj(v)) return v;
  return Object.keys(v).sort().reduce<Obj>((o, k) => put(o, k, sortKeys(v[k])), {});
}

export function jq(argv: string[], stdin: string): CommandResult {
  const opts = new Set<string>();
  const vars = new Map<string, V>();
  let indent = '  ';
  let program: string | undefined;
  const files: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-' || (program === undefined && /^-[^-a-zA-Z]/.test(a))) {
      if (program === undefined) program = a;
      else files.push(a);
    } else if (UNSUPPORTED_OPTIONS.has(a)) {
      return { stdout: '', stderr: `jq: podlife's jq does not support the option ${a}\n`, exitCode: 2 };
    } else if (LONG[a] !== undefined) opts.add(LONG[a]);
    else if (a === '--arg' || a === '--argjson') {
      if (i + 2 >= args.length) return usageError(`${a} takes two parameters (e.g. ${a} varname ${a === '--arg' ? 'value' : 'text'})`);
      const [k, val] = [args[++i], args[++i]];
      if (a === '--arg') vars.set(k, val);
      else {
        try {
          vars.set(k, JSON.parse(val));
        } catch {
          return usageError('invalid JSON text passed to --argjson');
        }
      }
    } else if (a === '--indent') {
      const n = Number(args[++i]);
      if (!(n >= -1 && n <= 7)) return usageError('--indent takes a number between -1 and 7');
      indent = n === -1 ? '\t' : ' '.repeat(n);
    } else if (/^-[a-zA-Z]+$/.test(a) && [...a.slice(1)].every((c) => SHORT[c] !== undefined)) {
      for (const c of a.slice(1)) opts.add(SHORT[c]);
    } else return usageError(`Unknown option ${a}`);
  }
  if (opts.has('tab')) indent = '\t';
  if (opts.has('compact') || indent === '') indent = '';
  const src = program ?? '.';
  let ast: Node;
  try {
    const parsed = parse(src, [...vars.keys()]);
    if (parsed.errors.length > 0) throw parsed.errors;
    ast = parsed.ast;
  } catch (e) {
    if (e instanceof Unsupported) {
      return { stdout: '', stderr: `jq: error: podlife's jq does not support "${e.message}" (${SUPPORTED})\n`, exitCode: 3 };
    }
    const list: [string, number][] = e instanceof CompileError ? [[e.message, e.pos], ...(e.extra ? [e.extra] : [])] : (e as [string, number][]);
    const locate = ([msg, pos]: [string, number]) => {
      const start = src.lastIndexOf('\n', pos - 1) + 1;
      const nl = src.indexOf('\n', start);
      const line = src.slice(0, start).split('\n').length;
      return `jq: error: ${msg} at <top-level>, line ${line}:\n${src.slice(start, nl < 0 ? src.length : nl + 1)}${' '.repeat(pos - start)}\n`;
    };
    const count = list.length === 1 ? '1 compile error' : `${list.length} compile errors`;
    return { stdout: '', stderr: `${list.map(locate).join('')}jq: ${count}\n`, exitCode: 3 };
  }
  // jq reads the named files instead of stdin; podlife has none to give it
  let stderr = files.map((f) => `jq: error: Could not open file ${f}: No such file or directory\n`).join('');
  const newlines = (upTo: number) => stdin.slice(0, upTo).split('\n').length - 1;
  /** Each input and the line jq's reader had reached when it was parsed (jq 1.6 counts lines read by fgets). */
  let inputs: [V, string][];
  let parseError: string | undefined;
  if (files.length > 0) inputs = [];
  else if (opts.has('null')) inputs = [[null, '<unknown>']];
  else if (opts.has('rawin')) {
    const lines = stdin.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    inputs = opts.has('slurp') ? [[stdin, `<stdin>:${newlines(stdin.length)}`]] : lines.map((l, i) => [l, `<stdin>:${newlines(stdin.length) > i ? i + 1 : i}`]);
  } else {
    const parsed = parseJsonStream(stdin);
    parseError = parsed.error;
    inputs = parsed.docs.map(([v, end]) => {
      const nl = stdin.indexOf('\n', end - 1);
      return [v, `<stdin>:${newlines(nl < 0 ? stdin.length : nl + 1)}`];
    });
    if (opts.has('slurp')) inputs = parseError ? [] : [[inputs.map((d) => d[0]), `<stdin>:${newlines(stdin.length)}`]];
  }
  const raw = opts.has('raw') || opts.has('join');
  let stdout = '';
  let status = 0;
  for (const [input, where] of inputs) {
    let last: { v: V } | null = null;
    const finished = () => (!opts.has('exit') ? 0 : last === null ? 4 : truthy(last.v) ? 0 : 1);
    budget = 2_000_000;
    try {
      for (const v0 of vals(ast, input, vars)) {
        const v = opts.has('sort') ? sortKeys(v0) : v0;
        stdout += raw && typeof v === 'string' ? v : indent === '' ? jqJson(v, true) : jqJson(v, false, indent);
        if (!opts.has('join')) stdout += '\n';
        last = { v };
      }
      status = finished();
    } catch (e) {
      const tooBig = e instanceof RangeError && `podlife stopped this jq program: ${/call stack/i.test(e.message) ? 'it recursed too deeply' : e.message}`;
      const value = tooBig || (e instanceof JqError ? e.value : null);
      if (!(e instanceof JqError) && !(e instanceof RangeError)) throw e;
      status = value === null ? finished() : 5; // jq 1.6: error(null) ends the program quietly
      if (value === null) continue;
      stderr += `jq: error (at ${where})${typeof value === 'string' ? `: ${value}` : ` (not a string): ${dump(value)}`}\n`;
    }
  }
  if (parseError) return { stdout, stderr: stderr + parseError, exitCode: 4 }; // 1.6 exits 4 here (1.7: 2)
  return { stdout, stderr, exitCode: files.length > 0 ? 2 : status };
}
