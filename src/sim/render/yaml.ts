// `kubectl get -o yaml`: kubectl marshals the object to JSON, then sigs.k8s.io/yaml turns the JSON
// into YAML with go-yaml v2. So keys come out sorted (go-yaml's key order), lists are not indented
// under their key, strings are quoted only when they would otherwise read as another type
// (`"True"`, `"12345"`, timestamps), and long values are folded at 80 columns, all as go-yaml does.
// upstream: sigs.k8s.io/yaml JSONToYAML; gopkg.in/yaml.v2 encode.go (stringv), resolve.go (resolve),
// emitterc.go (yaml_emitter_analyze_scalar, yaml_emitter_select_scalar_style, the scalar writers).

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Marshal a JSON-shaped value as kubectl -o yaml prints it (ends with a newline). */
export function toYaml(value: unknown): string {
  const e = new Emitter();
  e.node(normalise(value), -1, 'top');
  return e.finish();
}

/** Drop undefined members, as JSON encoding does. */
function normalise(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(normalise);
  if (typeof v === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = normalise(x);
    return out;
  }
  return v as Json;
}

// ---------------------------------------------------------------------------------------------
// Key order: go-yaml v2 sorts map keys with keyList.Less, which compares digit runs numerically
// and puts non-letters before letters.
// ---------------------------------------------------------------------------------------------

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

export function yamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

export function sortedYamlKeys(o: object): string[] {
  return Object.keys(o).sort((a, b) => (yamlKeyLess(a, b) ? -1 : yamlKeyLess(b, a) ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Scalar resolution: would this string, written plain, read back as something other than a string?
// ---------------------------------------------------------------------------------------------

const RESOLVE_MAP = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF',
  '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<',
]);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const TIMESTAMP =
  /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))|(?: \d{1,2}:\d{1,2}:\d{1,2}(?:\.\d{1,9})?))?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** True when the plain form of s resolves to !!str. upstream: yaml.v2 resolve.go resolve */
function resolvesToString(s: string): boolean {
  const c = s[0];
  const hint =
    s === '' ? 'N'
    : c === '+' || c === '-' ? 'S'
    : isDigit(c) ? 'D'
    : 'yYnNtTfFoO~'.includes(c) ? 'M'
    : c === '.' ? '.'
    : '';
  if (!hint) return true;
  if (RESOLVE_MAP.has(s)) return false;
  if (hint === '.') return !YAML_STYLE_FLOAT.test(s);
  if (hint === 'D' || hint === 'S') {
    if (TIMESTAMP.test(s)) return false;
    const plain = s.replaceAll('_', '');
    if (GO_INT.test(plain)) return false;
    if (YAML_STYLE_FLOAT.test(plain)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Scalar analysis (which styles are allowed) — yaml_emitter_analyze_scalar.
// ---------------------------------------------------------------------------------------------

interface Analysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

const isBreakCh = (c: string) => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isSpaceCh = (c: string) => c === ' ';
const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function analyse(value: string): Analysis {
  if (value.length === 0) {
    return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  }
  const ch = Array.from(value);
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < ch.length; i++) {
    const c = ch[i];
    const followedByWhitespace = i + 1 >= ch.length || isBlank(ch[i + 1]) || isBreakCh(ch[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (c === '?' || c === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      } else if (c === '-' && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (',?[]{}'.includes(c)) {
      flowIndicators = true;
    } else if (c === ':') {
      flowIndicators = true;
      if (followedByWhitespace) blockIndicators = true;
    } else if (c === '#' && precededByWhitespace) {
      flowIndicators = true;
      blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (isSpaceCh(c)) {
      if (i === 0) leadingSpace = true;
      if (i === ch.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakCh(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === ch.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreakCh(c);
  }
  const a: Analysis = { multiline: lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlain = false;
    a.blockPlain = false;
  }
  if (trailingSpace) a.block = false;
  if (breakSpace) {
    a.flowPlain = false;
    a.blockPlain = false;
    a.singleQuoted = false;
  }
  if (spaceBreak || special) {
    a.flowPlain = false;
    a.blockPlain = false;
    a.singleQuoted = false;
    a.block = false;
  }
  if (lineBreaks) {
    a.flowPlain = false;
    a.blockPlain = false;
  }
  if (flowIndicators) a.flowPlain = false;
  if (blockIndicators) a.blockPlain = false;
  return a;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** yaml.v2 encode.go stringv + emitterc.go yaml_emitter_select_scalar_style (block context). */
function selectStyle(s: string, simpleKey: boolean): Style {
  const canUsePlain = resolvesToString(s) && !BASE60_FLOAT.test(s);
  let style: Style = s.includes('\n') ? 'literal' : canUsePlain ? 'plain' : 'double';
  const a = analyse(s);
  if (style === 'plain') {
    if (!a.blockPlain) style = 'single';
    if (s.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuoted) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  return style;
}

// ---------------------------------------------------------------------------------------------
// The emitter: block mappings and indentless sequences, scalars with go-yaml's line folding.
// ---------------------------------------------------------------------------------------------

type Context = 'top' | 'mapValue' | 'seqItem';

class Emitter {
  private out = '';
  private column = 0;

  finish(): string {
    return this.column > 0 ? `${this.out}\n` : this.out;
  }

  private put(s: string): void {
    this.out += s;
    for (const _ of s) this.column++;
  }

  private newline(): void {
    this.out += '\n';
    this.column = 0;
  }

  /**
   * Emit a value. `indent` is the indentation of the enclosing collection's entries;
   * the caller has already written "key:" or "-" when context is mapValue/seqItem.
   */
  node(v: Json, indent: number, context: Context): void {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = sortedYamlKeys(v);
      if (keys.length === 0) return this.inlineScalar('{}', context);
      const inner = context === 'top' ? 0 : indent + BEST_INDENT;
      keys.forEach((k, i) => {
        if (context === 'seqItem' && i === 0) this.put(' ');
        else this.lineAt(inner);
        this.scalar(k, inner, true);
        this.put(':');
        this.node(v[k], inner, 'mapValue');
      });
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return this.inlineScalar('[]', context);
      // Sequences inside a mapping are "indentless"; inside a sequence they nest by 2.
      const inner = context === 'mapValue' ? indent : context === 'top' ? 0 : indent + BEST_INDENT;
      v.forEach((item, i) => {
        if (context === 'seqItem' && i === 0) this.put(' ');
        else this.lineAt(inner);
        this.put('-');
        this.node(item, inner, 'seqItem');
      });
      return;
    }
    if (context !== 'top') this.put(' ');
    if (v === null) this.put('null');
    else if (typeof v === 'boolean') this.put(v ? 'true' : 'false');
    else if (typeof v === 'number') this.put(String(v));
    else this.scalar(v, (context === 'top' ? -BEST_INDENT : indent) + BEST_INDENT, false);
    if (context === 'top') this.newline();
  }

  private inlineScalar(text: string, context: Context): void {
    if (context !== 'top') this.put(' ');
    this.put(text);
    if (context === 'top') this.newline();
  }

  /** Start a new line at `indent` (unless at the very start of the output). */
  private lineAt(indent: number): void {
    if (this.column > 0) this.newline();
    this.put(' '.repeat(indent));
  }

  /** Write a string scalar; `indent` is where folded continuation lines start. */
  private scalar(s: string, indent: number, simpleKey: boolean): void {
    const style = selectStyle(s, simpleKey);
    const breaks = !simpleKey;
    if (style === 'plain') return this.plain(s, indent, breaks);
    if (style === 'single') return this.single(s, indent, breaks);
    if (style === 'double') return this.double(s, indent, breaks);
    return this.literal(s, indent);
  }

  private fold(indent: number): void {
    this.newline();
    this.put(' '.repeat(Math.max(0, indent)));
  }

  private plain(s: string, indent: number, breaks: boolean): void {
    const ch = Array.from(s);
    let spaces = false;
    for (let i = 0; i < ch.length; i++) {
      if (ch[i] === ' ') {
        if (breaks && !spaces && this.column > BEST_WIDTH && ch[i + 1] !== ' ') this.fold(indent);
        else this.put(' ');
        spaces = true;
      } else {
        this.put(ch[i]);
        spaces = false;
      }
    }
  }

  private single(s: string, indent: number, breaks: boolean): void {
    const ch = Array.from(s);
    this.put("'");
    let spaces = false;
    for (let i = 0; i < ch.length; i++) {
      if (ch[i] === ' ') {
        if (breaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < ch.length - 1 && ch[i + 1] !== ' ') {
          this.fold(indent);
        } else this.put(' ');
        spaces = true;
      } else {
        if (ch[i] === "'") this.put("'");
        this.put(ch[i]);
        spaces = false;
      }
    }
    this.put("'");
  }

  private double(s: string, indent: number, breaks: boolean): void {
    const ch = Array.from(s);
    this.put('"');
    let spaces = false;
    for (let i = 0; i < ch.length; i++) {
      const c = ch[i];
      if (!isPrintable(c) || c === '\ufeff' || isBreakCh(c) || c === '"' || c === '\\') {
        this.put(escapeDouble(c));
        spaces = false;
      } else if (c === ' ') {
        if (breaks && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== ch.length - 1) {
          this.fold(indent);
          if (ch[i + 1] === ' ') this.put('\\');
        } else this.put(' ');
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
    }
    this.put('"');
  }

  private literal(s: string, indent: number): void {
    let hints = '';
    if (s.startsWith(' ') || isBreakCh(s[0])) hints += String(BEST_INDENT);
    if (!isBreakCh(s[s.length - 1])) hints += '-';
    else if (s.length === 1 || isBreakCh(s[s.length - 2])) hints += '+';
    this.put(`|${hints}`);
    let atLineStart = true;
    this.newline();
    for (const c of Array.from(s)) {
      if (isBreakCh(c)) {
        this.newline();
        atLineStart = true;
      } else {
        if (atLineStart) this.put(' '.repeat(indent));
        atLineStart = false;
        this.put(c);
      }
    }
  }
}

function escapeDouble(c: string): string {
  const named: Record<string, string> = {
    '\0': '0', '\x07': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r',
    '\x1b': 'e', '"': '"', '\\': '\\', '\u0085': 'N', '\u00a0': '_', '\u2028': 'L', '\u2029': 'P',
  };
  if (named[c] !== undefined) return `\\${named[c]}`;
  const cp = c.codePointAt(0)!;
  if (cp <= 0xff) return `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
}
