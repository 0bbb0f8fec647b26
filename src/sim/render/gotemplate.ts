// Go's text/template, as kubectl's -o go-template runs it over an object (k8s.io/cli-runtime/pkg/printers/template.go):
// the object marshalled to JSON and read back with apimachinery's json.Unmarshal, so maps are map[string]interface{},
// lists []interface{}, whole numbers int64 and the rest float64. The template's own integer constants are Go ints,
// and `len` returns one: the two print alike and compare alike, but error messages name their types.
// With kubectl's two functions, `exists` and `base64decode`. kubectl v1.36 is built with a Go newer than 1.24, so
// `range` takes an integer (Go 1.24) and a failed comparison names its two types (Go 1.25).
// upstream: go/src/text/template/{lex.go,parse/parse.go,exec.go,funcs.go}; go/src/fmt/print.go (Sprint, Sprintf)

import { goQuote, goUnescape } from './gostrconv.ts';
import { goJson } from './json.ts';
import { textFromBase64 } from '../core/base64.ts';

/** A Go int: a template's integer constant, or what `len` returns; a uint8 is a byte `index` takes from a string. */
export class GoInt {
  readonly v: number;
  readonly type: 'int' | 'uint8';
  constructor(v: number, type: 'int' | 'uint8' = 'int') {
    this.v = v;
    this.type = type;
  }
}
/** A float64 with a whole value (1.0 in a template; 2.5 is a plain number). */
export class GoFloat {
  readonly v: number;
  constructor(v: number) {
    this.v = v;
  }
}

type Value = unknown;
/** reflect's zero Value: what a missing map key gives with missingkey=default. Prints as `<no value>`. */
const INVALID = undefined;

export class TemplateError extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// Lexer. upstream: text/template/parse/lex.go

type ItemType =
  | 'text' | 'left' | 'right' | 'space' | 'field' | 'variable' | 'identifier' | 'keyword' | 'dot' | 'string' | 'raw'
  | 'char' | 'number' | 'bool' | 'nil' | 'pipe' | 'lparen' | 'rparen' | 'declare' | 'assign' | 'comma' | 'punct' | 'error' | 'eof';

interface Item {
  type: ItemType;
  val: string;
  pos: number;
  line: number;
}

const KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'template', 'with']);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlnum = (c: string) => c === '_' || /[\p{L}\p{Nd}]/u.test(c);

function lex(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  // the line of an offset: 1 + the line breaks before it, by binary search over where lines start
  const starts = [0];
  for (let i = 0; i < input.length; i++) if (input[i] === '\n') starts.push(i + 1);
  const lineAt = (p: number) => {
    let lo = 0;
    let hi = starts.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= p) lo = mid;
      else hi = mid;
    }
    return lo + 1;
  };
  // the lexer runs ahead of the parser here (Go's runs beside it): an error becomes an item, reported when the parser
  // reaches it, so that a parse error before it wins as in Go
  const fail = (msg: string, at = pos): never => {
    items.push({ type: 'error', val: msg, pos: at, line: lineAt(at) });
    throw LEX_STOP;
  };
  try {
    lexAll();
  } catch (e) {
    if (e !== LEX_STOP) throw e;
    return items;
  }
  items.push({ type: 'eof', val: '', pos: input.length, line: lineAt(input.length) });
  return items;

  function lexAll(): void {
  while (pos < input.length) {
    // text up to the next "{{"
    const open = input.indexOf('{{', pos);
    const end = open < 0 ? input.length : open;
    let text = input.slice(pos, end);
    const trimLeft = open >= 0 && input[open + 2] === '-' && isSpace(input[open + 3] ?? '');
    if (trimLeft) text = text.replace(/[ \t\r\n]+$/, '');
    if (text) items.push({ type: 'text', val: text, pos, line: lineAt(pos) });
    if (open < 0) {
      pos = input.length;
      break;
    }
    pos = open + 2 + (trimLeft ? 2 : 0);
    // a comment: {{/* ... */}}, right after the delimiter
    if (input.startsWith('/*', pos)) {
      const close = input.indexOf('*/', pos + 2);
      if (close < 0) fail('unclosed comment', open);
      pos = close + 2;
      let trimRight = false;
      if (input.startsWith(' -}}', pos) || input.startsWith('\t-}}', pos) || input.startsWith('\n-}}', pos) || input.startsWith('\r-}}', pos)) {
        trimRight = true;
        pos += 4;
      } else if (input.startsWith('}}', pos)) pos += 2;
      else fail('comment ends before closing delimiter', open);
      if (trimRight) while (pos < input.length && isSpace(input[pos])) pos++;
      continue;
    }
    items.push({ type: 'left', val: '{{', pos: open, line: lineAt(open) });
    let parens = 0;
    for (;;) {
      if (pos >= input.length) fail('unclosed action', open);
      const c = input[pos];
      // the right delimiter, with or without its trim marker
      if (isSpace(c)) {
        let p = pos;
        while (p < input.length && isSpace(input[p])) p++;
        if (input.startsWith('-}}', p)) {
          if (parens) fail('unclosed left paren', open);
          items.push({ type: 'right', val: '}}', pos: p, line: lineAt(p) });
          pos = p + 3;
          while (pos < input.length && isSpace(input[pos])) pos++;
          break;
        }
        items.push({ type: 'space', val: input.slice(pos, p), pos, line: lineAt(pos) });
        pos = p;
        continue;
      }
      if (input.startsWith('}}', pos)) {
        if (parens) fail('unclosed left paren', open);
        items.push({ type: 'right', val: '}}', pos, line: lineAt(pos) });
        pos += 2;
        break;
      }
      const start = pos;
      const push = (type: ItemType, val: string) => items.push({ type, val, pos: start, line: lineAt(start) });
      if (c === '=') {
        push('assign', '=');
        pos++;
      } else if (c === ':') {
        if (input[pos + 1] !== '=') fail('expected :=');
        push('declare', ':=');
        pos += 2;
      } else if (c === '|') {
        push('pipe', '|');
        pos++;
      } else if (c === ',') {
        push('comma', ',');
        pos++;
      } else if (c === '(') {
        parens++;
        push('lparen', '(');
        pos++;
      } else if (c === ')') {
        if (--parens < 0) fail('unexpected right paren');
        push('rparen', ')');
        pos++;
      } else if (c === '"' || c === "'") {
        // a quoted string or a character constant: up to the closing quote, a backslash escaping the next character
        let p = pos + 1;
        for (;;) {
          const d = input[p];
          if (d === undefined || d === '\n') fail(c === '"' ? 'unterminated quoted string' : 'unterminated character constant');
          if (d === '\\') p += 2;
          else if (d === c) break;
          else p++;
        }
        push(c === '"' ? 'string' : 'char', input.slice(pos, p + 1));
        pos = p + 1;
      } else if (c === '`') {
        const close = input.indexOf('`', pos + 1);
        if (close < 0) fail('unterminated raw quoted string');
        push('raw', input.slice(pos, close + 1));
        pos = close + 1;
      } else if (c === '$') {
        let p = pos + 1;
        while (p < input.length && isAlnum(input[p])) p++;
        push('variable', input.slice(pos, p));
        pos = p;
      } else if (c === '.') {
        // a field (.Name) or the cursor (.); a number may start with a dot
        if (/[0-9]/.test(input[pos + 1] ?? '')) {
          pos = lexNumber(input, pos, push, fail);
        } else {
          let p = pos + 1;
          while (p < input.length && isAlnum(input[p])) p++;
          if (p === pos + 1) push('dot', '.');
          else push('field', input.slice(pos, p));
          pos = p;
        }
      } else if (c === '+' || c === '-' || /[0-9]/.test(c)) {
        pos = lexNumber(input, pos, push, fail);
      } else if (isAlnum(c)) {
        let p = pos;
        while (p < input.length && isAlnum(input[p])) p++;
        const word = input.slice(pos, p);
        if (KEYWORDS.has(word)) push('keyword', word);
        else if (word === 'true' || word === 'false') push('bool', word);
        else if (word === 'nil') push('nil', word);
        else push('identifier', word);
        pos = p;
        // an identifier may be followed by a field (a chain is parsed from the items)
      } else if (c >= '!' && c <= '~') {
        // lex.go: any other printable ASCII character is an item of its own, which the parser finds unexpected
        push('punct', c);
        pos++;
      } else {
        fail(`bad character U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${c}'`);
      }
    }
  }
  }
}

const LEX_STOP = Symbol('lexer stopped');

function lexNumber(input: string, pos: number, push: (t: ItemType, v: string) => void, fail: (m: string) => never): number {
  const m = /^[+-]?(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(\d[\d_]*)?\.?[\d_]*([eE][+-]?\d+)?)/.exec(input.slice(pos));
  let p = pos + (m ? m[0].length : 0);
  // a number must be followed by a delimiter of some kind
  if (p < input.length && isAlnum(input[p])) {
    while (p < input.length && (isAlnum(input[p]) || input[p] === '.')) p++;
    fail(`bad number syntax: "${input.slice(pos, p)}"`);
  }
  const text = input.slice(pos, p);
  if (!/\d/.test(text)) fail(`bad number syntax: "${text}"`);
  push('number', text);
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Parse tree. upstream: text/template/parse/node.go, parse.go

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pos: number; pipe: Pipe }
  | Control
  | { kind: 'break' | 'continue'; pos: number }
  | { kind: 'template'; pos: number; name: string; pipe?: Pipe };


interface Control {
  kind: 'if' | 'with' | 'range';
  pos: number;
  pipe: Pipe;
  list: Node[];
  elseList?: Node[];
}

interface Pipe {
  pos: number;
  isAssign: boolean;
  decl: string[];
  cmds: Cmd[];
}
interface Cmd {
  pos: number;
  args: Arg[];
}
type Arg =
  | { kind: 'field'; pos: number; ident: string[] }
  | { kind: 'variable'; pos: number; ident: string[] }
  | { kind: 'identifier'; pos: number; name: string }
  | { kind: 'dot'; pos: number }
  | { kind: 'nil'; pos: number }
  | { kind: 'literal'; pos: number; value: Value; text: string }
  | { kind: 'pipe'; pos: number; pipe: Pipe }
  | { kind: 'chain'; pos: number; node: Arg; field: string[] };

const OPERAND_START = new Set<ItemType>(['bool', 'char', 'dot', 'field', 'identifier', 'number', 'nil', 'raw', 'string', 'variable', 'lparen']);

class Parser {
  #i = 0;
  #vars: string[] = ['$'];
  #rangeDepth = 0;
  readonly defs = new Map<string, Node[]>();

  readonly items: Item[];

  constructor(items: Item[]) {
    this.items = items;
  }

  #next(): Item {
    const it = this.items[this.#i++];
    if (it.type === 'error') this.fail(it.val, it);
    return it;
  }
  #backup(): void {
    this.#i--;
  }
  #peek(): Item {
    const it = this.items[this.#i];
    if (it.type === 'error') this.fail(it.val, it);
    return it;
  }
  #nextNonSpace(): Item {
    let it = this.#next();
    while (it.type === 'space') it = this.#next();
    return it;
  }
  #peekNonSpace(): Item {
    const it = this.#nextNonSpace();
    this.#backup();
    return it;
  }
  fail(msg: string, item: Item = this.items[Math.max(0, this.#i - 1)]): never {
    throw new TemplateError(`template: output:${item.line}: ${msg}`);
  }
  #unexpected(item: Item, context: string): never {
    if (item.type === 'eof') this.fail('unexpected EOF', item);
    this.fail(`unexpected ${describe(item)} in ${context}`, item);
  }
  #expect(type: ItemType, context: string): Item {
    const it = this.#nextNonSpace();
    if (it.type !== type) this.#unexpected(it, context);
    return it;
  }

  /** The whole template: a list up to EOF. */
  parse(): Node[] {
    const list: Node[] = [];
    for (;;) {
      const it = this.#peek();
      if (it.type === 'eof') return list;
      if (it.type === 'left') {
        const save = this.#i;
        this.#next();
        const kw = this.#nextNonSpace();
        if (kw.type === 'keyword' && kw.val === 'define') {
          this.#define();
          continue;
        }
        this.#i = save;
      }
      const [n, end] = this.#textOrAction();
      if (end) this.fail(`unexpected ${end}`);
      list.push(n!);
    }
  }

  #define(): void {
    const name = this.#nextNonSpace();
    if (name.type !== 'string' && name.type !== 'raw') this.#unexpected(name, 'define clause');
    this.#expect('right', 'define clause');
    const [list, end] = this.#ownTree(() => this.#itemList());
    if (end !== '{{end}}') this.fail(`unexpected ${end} in define clause`);
    this.defs.set(unquote(name.val, this), list);
  }

  /**
   * Parse a define's or a block's body as its own template: it sees only `$` of the variables around it, and a
   * {{break}} in it is outside any {{range}} (parse.go: the new Tree's startParse sets vars to ["$"]).
   */
  #ownTree<T>(parse: () => T): T {
    const vars = this.#vars;
    const depth = this.#rangeDepth;
    this.#vars = ['$'];
    this.#rangeDepth = 0;
    try {
      return parse();
    } finally {
      this.#vars = vars;
      this.#rangeDepth = depth;
    }
  }

  /** Nodes up to {{end}} or {{else}}: the list and which ended it. */
  #itemList(): [Node[], string] {
    const list: Node[] = [];
    for (;;) {
      if (this.#peekNonSpace().type === 'eof') this.fail('unexpected EOF', this.#peekNonSpace());
      const [n, end] = this.#textOrAction();
      if (end) return [list, end];
      list.push(n!);
    }
  }

  /** A text or an action; an {{end}} or {{else}} is returned as the list's end. */
  #textOrAction(): [Node | undefined, string | undefined] {
    const it = this.#nextNonSpace();
    if (it.type === 'text') return [{ kind: 'text', text: it.val }, undefined];
    if (it.type !== 'left') this.#unexpected(it, 'input');
    const kw = this.#peekNonSpace();
    if (kw.type === 'keyword') {
      this.#nextNonSpace();
      switch (kw.val) {
        case 'end':
          this.#expect('right', 'end');
          return [undefined, '{{end}}'];
        case 'else': {
          // {{else if ...}} / {{else with ...}}: the rest of a chain, ended by the chain's one {{end}}
          const next = this.#peekNonSpace();
          if (next.type === 'keyword' && (next.val === 'if' || next.val === 'with')) {
            this.#backup();
            return [undefined, `{{else ${next.val}}}`];
          }
          this.#expect('right', 'else');
          return [undefined, '{{else}}'];
        }
        case 'if':
        case 'with':
        case 'range':
          return [this.#control(kw.val, kw), undefined];
        case 'break':
        case 'continue':
          if (this.#rangeDepth === 0) this.fail(`{{${kw.val}}} outside {{range}}`, kw);
          this.#expect('right', kw.val);
          return [{ kind: kw.val, pos: kw.pos }, undefined];
        case 'template':
        case 'block':
          return [this.#template(kw), undefined];
        case 'define':
          this.fail('unexpected <define> in command', kw);
      }
    }
    const pipe = this.#pipeline('command', 'right');
    return [{ kind: 'action', pos: it.pos + 2, pipe }, undefined];
  }

  #template(kw: Item): Node {
    const name = this.#nextNonSpace();
    if (name.type !== 'string' && name.type !== 'raw') this.#unexpected(name, `${kw.val} clause`);
    const n = unquote(name.val, this);
    let pipe: Pipe | undefined;
    if (this.#peekNonSpace().type !== 'right') pipe = this.#pipeline(`${kw.val} clause`, 'right');
    else this.#nextNonSpace();
    if (kw.val === 'block') {
      const [list, end] = this.#ownTree(() => this.#itemList());
      if (end !== '{{end}}') this.fail(`unexpected ${end} in block clause`);
      this.defs.set(n, list);
    }
    return { kind: 'template', pos: name.pos, name: n, pipe };
  }

  #control(kind: 'if' | 'with' | 'range', kw: Item): Node {
    const vars = this.#vars.length;
    const pipe = this.#pipeline(kind, 'right');
    if (kind === 'range') this.#rangeDepth++;
    let [list, end] = this.#itemList();
    if (kind === 'range') this.#rangeDepth--;
    let elseList: Node[] | undefined;
    if (end === '{{else if}}' || end === '{{else with}}') {
      if (end === '{{else with}}' && kind !== 'with') this.fail(`unexpected {{else with}} in ${kind}`);
      if (end === '{{else if}}' && kind !== 'if') this.fail(`unexpected {{else if}} in ${kind}`);
      // "{{if a}}x{{else if b}}y{{end}}" is "{{if a}}x{{else}}{{if b}}y{{end}}{{end}}"
      const next = this.#nextNonSpace();
      elseList = [this.#control(next.val as 'if' | 'with', next)];
      end = '{{end}}';
    } else if (end === '{{else}}') {
      [elseList, end] = this.#itemList();
      if (end !== '{{end}}') this.fail(`expected end; found ${end}`);
    }
    this.#vars.length = vars;
    return { kind, pos: kw.pos, pipe, list, elseList };
  }

  /** A pipeline, with its declarations, up to `end` (the right delimiter, or a right paren). */
  #pipeline(context: string, end: 'right' | 'rparen'): Pipe {
    const start = this.#peekNonSpace();
    const pipe: Pipe = { pos: start.pos, isAssign: false, decl: [], cmds: [] };
    // declarations: $x := / $x = / $i, $e := (range)
    const v = this.#peekNonSpace();
    if (v.type === 'variable') {
      const save = this.#i;
      this.#nextNonSpace();
      const op = this.#nextNonSpace();
      if (op.type === 'declare' || op.type === 'assign') {
        pipe.isAssign = op.type === 'assign';
        pipe.decl.push(v.val);
        if (op.type === 'declare') this.#vars.push(v.val);
        else if (!this.#vars.includes(v.val)) this.fail(`undefined variable "${v.val}"`, v);
      } else if (op.type === 'comma' && context === 'range') {
        const v2 = this.#nextNonSpace();
        if (v2.type !== 'variable') this.fail(`range can only initialize variables`, v2);
        const op2 = this.#nextNonSpace();
        if (op2.type === 'comma') this.fail('too many declarations in range', op2);
        if (op2.type !== 'declare' && op2.type !== 'assign') this.#unexpected(op2, 'range');
        pipe.isAssign = op2.type === 'assign';
        pipe.decl.push(v.val, v2.val);
        if (op2.type === 'declare') this.#vars.push(v.val, v2.val);
      } else {
        this.#i = save;
      }
    }
    for (;;) {
      const it = this.#nextNonSpace();
      if (it.type === end) {
        if (pipe.cmds.length === 0) this.fail(`missing value for ${context}`, it);
        // a later stage receives the value before it: it must be something that can take one
        for (let i = 1; i < pipe.cmds.length; i++) {
          const a = pipe.cmds[i].args[0];
          if (a.kind === 'literal' || a.kind === 'dot' || a.kind === 'nil') this.fail(`non executable command in pipeline stage ${i + 1}`, it);
        }
        return pipe;
      }
      if (!OPERAND_START.has(it.type)) this.#unexpected(it, context);
      this.#backup();
      pipe.cmds.push(this.#command());
    }
  }

  #command(): Cmd {
    const cmd: Cmd = { pos: this.#peekNonSpace().pos, args: [] };
    for (;;) {
      this.#peekNonSpace();
      const op = this.#operand();
      if (op) cmd.args.push(op);
      const it = this.#next();
      if (it.type === 'space') continue;
      if (it.type === 'right' || it.type === 'rparen') this.#backup();
      else if (it.type !== 'pipe') this.#unexpected(it, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.fail('empty command');
    return cmd;
  }

  #operand(): Arg | undefined {
    const node = this.#term();
    if (!node) return undefined;
    if (this.#peek().type !== 'field') return node;
    // the chain's position is its first field's (parse.go newChain(t.peek().pos, node)): errors point there
    const pos = this.#peek().pos;
    const field: string[] = [];
    while (this.#peek().type === 'field') field.push(this.#next().val.slice(1));
    switch (node.kind) {
      case 'field':
        return { ...node, pos, ident: [...node.ident, ...field] };
      case 'variable':
        return { ...node, pos, ident: [...node.ident, ...field] };
      case 'literal':
      case 'nil':
      case 'dot':
        this.fail(`unexpected . after term "${node.kind === 'literal' ? node.text : node.kind === 'nil' ? 'nil' : '.'}"`);
      // falls through (fail throws)
      default:
        return { kind: 'chain', pos, node, field };
    }
  }

  #term(): Arg | undefined {
    const it = this.#nextNonSpace();
    switch (it.type) {
      case 'identifier':
        if (!Object.hasOwn(SIGNATURES, it.val)) this.fail(`function "${it.val}" not defined`, it);
        return { kind: 'identifier', pos: it.pos, name: it.val };
      case 'dot':
        return { kind: 'dot', pos: it.pos };
      case 'nil':
        return { kind: 'nil', pos: it.pos };
      case 'variable':
        if (!this.#vars.includes(it.val)) this.fail(`undefined variable "${it.val}"`, it);
        return { kind: 'variable', pos: it.pos, ident: [it.val] };
      case 'field':
        return { kind: 'field', pos: it.pos, ident: [it.val.slice(1)] };
      case 'bool':
        return { kind: 'literal', pos: it.pos, value: it.val === 'true', text: it.val };
      case 'char':
      case 'number':
        return { kind: 'literal', pos: it.pos, value: numberConstant(it, this), text: it.val };
      case 'lparen': {
        const pipe = this.#pipeline('parenthesized pipeline', 'rparen');
        return { kind: 'pipe', pos: it.pos, pipe };
      }
      case 'string':
      case 'raw':
        return { kind: 'literal', pos: it.pos, value: unquote(it.val, this), text: it.val };
    }
    this.#backup();
    return undefined;
  }
}

/** An item as parse errors name it (lex.go item.String): a long one cut to its first 10 characters. */
function describe(item: Item): string {
  if (item.type === 'eof') return 'EOF';
  if (item.type === 'keyword') return `<${item.val}>`;
  const chars = [...item.val];
  return chars.length > 10 ? `${goQuote(chars.slice(0, 10).join(''))}...` : goQuote(item.val);
}

function unquote(s: string, p: Parser): string {
  if (s.startsWith('`')) return s.slice(1, -1);
  const body = goUnescape(s.slice(1, -1));
  return body ?? p.fail('invalid syntax');
}

function numberConstant(it: Item, p: Parser): Value {
  if (it.type === 'char') return new GoInt(unquote(`"${it.val.slice(1, -1)}"`, p).codePointAt(0) ?? 0);
  const text = it.val.replaceAll('_', '');
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[+-]/, '');
  if (/^0[xX]/.test(body)) return new GoInt(sign * parseInt(body.slice(2), 16));
  if (/^0[bB]/.test(body)) return new GoInt(sign * parseInt(body.slice(2), 2));
  if (/^0[oO]/.test(body)) return new GoInt(sign * parseInt(body.slice(2), 8));
  const n = Number(text);
  if (Number.isNaN(n)) p.fail(`illegal number syntax: "${it.val}"`, it);
  if (/[.eE]/.test(body)) return Number.isInteger(n) ? new GoFloat(n) : n;
  if (/^0\d/.test(body)) return new GoInt(sign * parseInt(body, 8));
  return new GoInt(n);
}

// ---------------------------------------------------------------------------------------------------------------
// Values: kinds, truth, Go's %v.

type Kind = 'invalid' | 'nil' | 'bool' | 'int' | 'float' | 'string' | 'map' | 'slice';

function kindOf(v: Value): Kind {
  if (v === INVALID) return 'invalid';
  if (v === null) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoInt) return 'int';
  if (v instanceof GoFloat) return 'float';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** The Go type a value has in kubectl's data (for messages). */
function typeName(v: Value): string {
  if (v instanceof GoInt) return v.type;
  switch (kindOf(v)) {
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'bool':
      return 'bool';
    case 'string':
      return 'string';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return 'interface {}';
  }
}

const num = (v: Value): number => (v instanceof GoInt || v instanceof GoFloat ? v.v : (v as number));

/** text/template's isTrue: the zero value of its type is false. */
function truth(v: Value): boolean {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return false;
    case 'bool':
      return v as boolean;
    case 'int':
    case 'float':
      return num(v) !== 0;
    case 'string':
      return (v as string).length > 0;
    case 'slice':
      return (v as unknown[]).length > 0;
    default:
      return Object.keys(v as object).length > 0;
  }
}

/**
 * fmt's %v of a float64: strconv.FormatFloat(f, 'g', -1, 64), the shortest digits, in exponent form when the
 * exponent is below -4 or, the precision being the shortest, from 6 up (1e+06, 1.5e-05; 123456 stays as it is).
 */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, e] = f.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(f);
}

/** fmt's %v of a value (fmt.Sprint of one operand). */
export function goValue(v: Value): string {
  return formatValue(v, 'v');
}

/**
 * fmt's %v or %s of a value: a map with its keys sorted, a list with spaces, a nil inside either as <nil>; %s prints
 * what is not a string as %!s(type=value).
 */
function formatValue(v: Value, verb: 'v' | 's'): string {
  const k = kindOf(v);
  const inner = (x: Value) => formatValue(x === INVALID ? null : x, verb);
  if (k === 'slice') return `[${(v as Value[]).map(inner).join(' ')}]`;
  if (k === 'map') {
    const o = v as Record<string, Value>;
    return `map[${Object.keys(o).sort(byteOrder).map((key) => `${key}:${inner(o[key])}`).join(' ')}]`;
  }
  if (verb === 's') return k === 'string' ? (v as string) : badVerb('s', v);
  switch (k) {
    case 'invalid':
      return '<no value>';
    case 'nil':
      return '<nil>';
    case 'float':
      return goFloat(num(v));
    case 'int':
      return String(num(v));
    default:
      return String(v);
  }
}
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------------------------
// fmt.Sprintf, for printf. upstream: go/src/fmt/print.go doPrintf, format.go

function badVerb(verb: string, v: Value): string {
  if (v === INVALID || v === null) return `%!${verb}(<nil>)`;
  return `%!${verb}(${typeName(v)}=${goValue(v)})`;
}

export function sprintf(format: string, args: Value[]): string {
  let out = '';
  let argi = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    let j = i + 1;
    const flags = { minus: false, plus: false, zero: false, space: false, sharp: false };
    for (; j < format.length; j++) {
      const f = format[j];
      if (f === '-') flags.minus = true;
      else if (f === '+') flags.plus = true;
      else if (f === '0') flags.zero = !flags.minus;
      else if (f === ' ') flags.space = true;
      else if (f === '#') flags.sharp = true;
      else break;
    }
    let width: number | undefined;
    let prec: number | undefined;
    const w = /^\d+/.exec(format.slice(j));
    if (w) {
      width = Number(w[0]);
      j += w[0].length;
    }
    if (format[j] === '.') {
      const p = /^\d*/.exec(format.slice(j + 1))![0];
      prec = p ? Number(p) : 0;
      j += 1 + p.length;
    }
    const verb = format[j];
    i = j;
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const v = args[argi++];
    let s: string;
    const k = kindOf(v);
    switch (verb) {
      case 'v':
        s = k === 'string' && flags.sharp ? goQuote(v as string) : goValue(v);
        if (k === 'float' && prec !== undefined) s = formatG(num(v), prec);
        break;
      case 's':
        s = formatValue(v, 's');
        if (k === 'string' && prec !== undefined) s = [...s].slice(0, prec).join('');
        break;
      case 'q':
        s = k === 'string' ? goQuote(v as string) : k === 'int' ? `'${String.fromCodePoint(num(v))}'` : badVerb(verb, v);
        break;
      case 'd':
        s = k === 'int' ? String(num(v)) : badVerb(verb, v);
        if (k === 'int' && flags.plus && num(v) >= 0) s = `+${s}`;
        break;
      case 't':
        s = k === 'bool' ? String(v) : badVerb(verb, v);
        break;
      case 'T':
        s = v === INVALID || v === null ? '<nil>' : typeName(v);
        break;
      case 'c':
        s = k === 'int' ? (num(v) >= 0 && num(v) <= 0x10ffff ? String.fromCodePoint(num(v)) : '\uFFFD') : badVerb(verb, v);
        break;
      case 'x':
      case 'X': {
        let h: string;
        if (k === 'int') h = (num(v) < 0 ? '-' : '') + (flags.sharp ? '0x' : '') + Math.abs(num(v)).toString(16);
        else if (k === 'string') h = [...utf8(v as string)].map((b) => b.toString(16).padStart(2, '0')).join('');
        else {
          s = badVerb(verb, v);
          break;
        }
        s = verb === 'X' ? h.toUpperCase().replace('0X', '0X') : h;
        break;
      }
      case 'o':
        s = k === 'int' ? (flags.sharp ? '0' : '') + num(v).toString(8) : badVerb(verb, v);
        break;
      case 'f':
      case 'F':
        s = k === 'float' ? fixed(num(v), prec ?? 6) : badVerb(verb, v);
        if (k === 'float' && flags.plus && num(v) >= 0) s = `+${s}`;
        break;
      case 'e':
      case 'E': {
        if (k !== 'float') {
          s = badVerb(verb, v);
          break;
        }
        const [m0, e] = num(v).toExponential(Math.min(prec ?? 6, 100)).split('e');
        const m = m0 + '0'.repeat(Math.max(0, (prec ?? 6) - 100));
        s = `${m}e${e.startsWith('-') ? '-' : '+'}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
        if (verb === 'E') s = s.toUpperCase();
        break;
      }
      case 'g':
      case 'G':
        s = k === 'float' ? (prec === undefined ? goFloat(num(v)) : formatG(num(v), prec)) : badVerb(verb, v);
        if (verb === 'G') s = s.toUpperCase();
        break;
      default:
        s = badVerb(verb, v);
    }
    if (width !== undefined && [...s].length < width) {
      const pad = width - [...s].length;
      if (flags.minus) s += ' '.repeat(pad);
      else if (flags.zero && 'dfFeEgGxXo'.includes(verb) && /^[+-]/.test(s)) s = s[0] + '0'.repeat(pad) + s.slice(1);
      else s = (flags.zero && verb !== 's' && verb !== 'q' && verb !== 'v' ? '0' : ' ').repeat(pad) + s;
    }
    out += s;
  }
  if (argi < args.length) {
    out += `%!(EXTRA ${args.slice(argi).map((a) => `${typeName(a)}=${goValue(a)}`).join(', ')})`;
  }
  return out;
}

/** %.Nf: toFixed, which stops at 100 places; a double's exact expansion has ended by then for the values printed. */
function fixed(f: number, prec: number): string {
  return prec <= 100 ? f.toFixed(prec) : f.toFixed(100) + '0'.repeat(prec - 100);
}

function formatG(f: number, prec: number): string {
  const p = Math.min(prec === 0 ? 1 : prec, 101);
  const [m, e] = f.toExponential(p - 1).split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= p) {
    return `${m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const text = f.toFixed(Math.min(100, Math.max(0, p - 1 - exp)));
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** fmt.Sprint: operands' %v, with a space between two operands when neither is a string. */
function sprint(args: Value[]): string {
  let out = '';
  for (let i = 0; i < args.length; i++) {
    if (i > 0 && typeof args[i] !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += goValue(args[i]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Execution. upstream: text/template/exec.go, funcs.go

class ExecError extends Error {}
class Break {}
class Continue {}

export interface TemplateOptions {
  /** missingkey=default (kubectl's --allow-missing-template-keys, true by default) or missingkey=error. */
  allowMissingKeys: boolean;
}

export class GoTemplate {
  readonly #list: Node[];
  readonly #defs: Map<string, Node[]>;
  readonly #text: string;

  /** Parse a template; a syntax error throws TemplateError with Go's message. */
  constructor(text: string) {
    const p = new Parser(lex(text));
    this.#list = p.parse();
    this.#defs = p.defs;
    this.#text = text;
  }

  /** Run the template over `data`; an error throws TemplateError with Go's message (after what was written). */
  execute(data: Value, opts: TemplateOptions): { out: string; error?: string } {
    const s = new State(this.#text, this.#defs, opts, data);
    try {
      s.walkList(data, this.#list);
      return { out: s.out };
    } catch (e) {
      if (e instanceof ExecError) return { out: s.out, error: e.message };
      // a template that calls itself without end: Go stops it at maxExecDepth, this engine when its stack runs out
      if (e instanceof RangeError && /call stack/.test(e.message)) return { out: s.out, error: s.message('exceeded maximum template depth (100000)') };
      // anything else that breaks is reported as kubectl's safeExecute reports a panic, not as a crash
      if (e instanceof Error) return { out: s.out, error: `caught panic: ${e.message}` };
      throw e;
    }
  }
}

class State {
  out = '';
  vars: { name: string; value: Value }[];
  node: { pos: number; text: string } | undefined;
  depth = 0;

  readonly text: string;
  readonly defs: Map<string, Node[]>;
  readonly opts: TemplateOptions;

  constructor(text: string, defs: Map<string, Node[]>, opts: TemplateOptions, data: Value) {
    this.text = text;
    this.defs = defs;
    this.opts = opts;
    this.vars = [{ name: '$', value: data }];
  }

  errorf(msg: string): never {
    throw new ExecError(this.message(msg));
  }

  /** An execution error as exec.go's errorf writes it: where (line:column of the node) and at which node. */
  message(msg: string): string {
    if (!this.node) return `template: output: executing "output": ${msg}`;
    const before = this.text.slice(0, this.node.pos);
    const line = before.split('\n').length;
    const col = this.node.pos - (before.lastIndexOf('\n') + 1);
    return `template: output:${line}:${col}: executing "output" at <${this.node.text}>: ${msg}`;
  }

  at(pos: number, text: string): void {
    this.node = { pos, text };
  }

  walkList(dot: Value, list: Node[]): void {
    for (const n of list) this.walk(dot, n);
  }

  walk(dot: Value, n: Node): void {
    switch (n.kind) {
      case 'text':
        this.out += n.text;
        return;
      case 'action': {
        const v = this.evalPipeline(dot, n.pipe);
        if (n.pipe.decl.length === 0) this.out += goValue(v);
        return;
      }
      case 'if':
      case 'with': {
        const mark = this.vars.length;
        const v = this.evalPipeline(dot, n.pipe);
        if (truth(v)) this.walkList(n.kind === 'with' ? v : dot, n.list);
        else if (n.elseList) this.walkList(dot, n.elseList);
        this.vars.length = mark;
        return;
      }
      case 'range':
        this.walkRange(dot, n);
        return;
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
      case 'template': {
        const list = this.defs.get(n.name);
        this.at(n.pos, `{{template ${goQuote(n.name)}${n.pipe ? ` ${pipeText(n.pipe)}` : ''}}}`);
        if (!list) this.errorf(`template ${goQuote(n.name)} not defined`);
        if (++this.depth > 100000) this.errorf('exceeded maximum template depth (100000)');
        // without a pipeline the template runs with no value at all (exec.go evalPipeline of a nil pipe)
        const v = n.pipe ? this.evalPipeline(dot, n.pipe) : INVALID;
        const saved = this.vars;
        this.vars = [{ name: '$', value: v }];
        this.walkList(v, list);
        this.vars = saved;
        this.depth--;
        return;
      }
    }
  }

  walkRange(dot: Value, n: Control): void {
    const mark = this.vars.length;
    const v = this.evalPipeline(dot, n.pipe);
    // the pipeline's own declaration is the element's, set per iteration below
    this.vars.length = mark;
    const one = (index: Value, elem: Value): boolean => {
      if (n.pipe.decl.length > 0) {
        if (n.pipe.isAssign) this.setVar(n.pipe.decl.length > 1 ? n.pipe.decl[1] : n.pipe.decl[0], elem);
        else this.vars.push({ name: n.pipe.decl.length > 1 ? n.pipe.decl[1] : n.pipe.decl[0], value: elem });
      }
      if (n.pipe.decl.length > 1) {
        if (n.pipe.isAssign) this.setVar(n.pipe.decl[0], index);
        else this.vars.push({ name: n.pipe.decl[0], value: index });
      }
      try {
        this.walkList(elem, n.list);
      } catch (e) {
        if (e instanceof Break) return false;
        if (!(e instanceof Continue)) throw e;
      } finally {
        this.vars.length = mark;
      }
      return true;
    };
    const k = kindOf(v);
    let any = false;
    if (k === 'slice') {
      const a = v as Value[];
      for (let i = 0; i < a.length; i++) {
        any = true;
        if (!one(new GoInt(i), a[i])) break;
      }
    } else if (k === 'map') {
      const o = v as Record<string, Value>;
      for (const key of Object.keys(o).sort(byteOrder)) {
        any = true;
        if (!one(key, o[key])) break;
      }
    } else if (k === 'int') {
      if (n.pipe.decl.length > 1) this.errorf(`can't use ${goValue(v)} to iterate over more than one variable`);
      // the index and the element have the integer's own type: int64 from the object (a plain number), a
      // template's int, or a uint8 (a byte from a string)
      const at = (i: number): Value => (v instanceof GoInt ? new GoInt(i, v.type) : i);
      for (let i = 0; i < num(v); i++) {
        any = true;
        if (!one(at(i), at(i))) break;
      }
    } else if (k === 'invalid' || k === 'nil') {
      // nothing to range over
    } else {
      this.errorf(`range can't iterate over ${goValue(v)}`);
    }
    if (!any && n.elseList) this.walkList(dot, n.elseList);
  }

  setVar(name: string, value: Value): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].name === name) {
        this.vars[i].value = value;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  varValue(name: string): Value {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].name === name) return this.vars[i].value;
    return this.errorf(`undefined variable: ${name}`);
  }

  evalPipeline(dot: Value, pipe: Pipe): Value {
    let v: Value = INVALID;
    let first = true;
    for (const cmd of pipe.cmds) {
      v = this.evalCommand(dot, cmd, first ? NO_FINAL : v);
      // exec.go: "If the object has type interface{}, dig down one level to the thing inside": a nil interface (a
      // JSON null, a missing key's zero from index) becomes no value at all, and prints as <no value>
      if (v === null) v = INVALID;
      first = false;
    }
    for (const name of pipe.decl) {
      if (pipe.isAssign) this.setVar(name, v);
      else this.vars.push({ name, value: v });
    }
    return v;
  }

  evalCommand(dot: Value, cmd: Cmd, final: Value | typeof NO_FINAL): Value {
    const first = cmd.args[0];
    // exec.go's s.at: a field or a variable is where its error is; a chain's is wherever evaluating its operand left it
    if (first.kind === 'field' || first.kind === 'variable' || first.kind === 'chain') this.at(first.pos, argText(first));
    switch (first.kind) {
      case 'field':
        return this.evalFieldChain(dot, first.ident, cmd.args, final);
      case 'chain': {
        const base = this.evalArg(dot, first.node);
        return this.evalFieldChain(base, first.field, cmd.args, final);
      }
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final, first);
        return this.evalPipeline(dot, first.pipe);
      case 'variable': {
        const v = this.varValue(first.ident[0]);
        if (first.ident.length === 1) {
          this.notAFunction(cmd.args, final, first);
          return v;
        }
        return this.evalFieldChain(v, first.ident.slice(1), cmd.args, final);
      }
    }
    this.at(first.pos, argText(first));
    this.notAFunction(cmd.args, final, first);
    switch (first.kind) {
      case 'dot':
        return dot;
      case 'nil':
        return this.errorf('nil is not a command');
      default:
        return first.value;
    }
  }

  notAFunction(args: Arg[], final: Value | typeof NO_FINAL, first: Arg): void {
    if (args.length > 1 || final !== NO_FINAL) {
      this.at(first.pos, argText(first));
      this.errorf(`can't give argument to non-function ${argText(first)}`);
    }
  }

  evalFieldChain(receiver: Value, ident: string[], args: Arg[], final: Value | typeof NO_FINAL): Value {
    let v = receiver;
    for (let i = 0; i < ident.length - 1; i++) v = this.evalField(v, ident[i], [], NO_FINAL);
    return this.evalField(v, ident[ident.length - 1], args, final);
  }

  evalField(receiver: Value, name: string, args: Arg[], final: Value | typeof NO_FINAL): Value {
    const k = kindOf(receiver);
    if (k === 'invalid') {
      if (!this.opts.allowMissingKeys) this.errorf(`nil data; no entry for key "${name}"`);
      return INVALID;
    }
    if (k === 'nil') this.errorf(`nil pointer evaluating interface {}.${name}`);
    if (k === 'map') {
      if (args.length > 1 || final !== NO_FINAL) this.errorf(`${name} is not a method but has arguments`);
      const o = receiver as Record<string, Value>;
      if (Object.hasOwn(o, name) && o[name] !== undefined) return o[name];
      if (!this.opts.allowMissingKeys) this.errorf(`map has no entry for key "${name}"`);
      return INVALID;
    }
    // the type is the receiver's static one: interface {} for anything read from the object (a map element)
    return this.errorf(`can't evaluate field ${name} in type ${receiver instanceof GoInt ? receiver.type : 'interface {}'}`);
  }

  evalArg(dot: Value, a: Arg): Value {
    this.at(a.pos, argText(a));
    switch (a.kind) {
      case 'dot':
        return dot;
      case 'nil':
        return null;
      case 'field':
        return this.evalFieldChain(dot, a.ident, [], NO_FINAL);
      case 'variable': {
        const v = this.varValue(a.ident[0]);
        return a.ident.length === 1 ? v : this.evalFieldChain(v, a.ident.slice(1), [], NO_FINAL);
      }
      case 'pipe':
        return this.evalPipeline(dot, a.pipe);
      case 'identifier':
        return this.evalFunction(dot, a, undefined, [a], NO_FINAL);
      case 'chain':
        return this.evalFieldChain(this.evalArg(dot, a.node), a.field, [], NO_FINAL);
      case 'literal':
        return a.value;
    }
  }

  evalFunction(dot: Value, fn: Extract<Arg, { kind: 'identifier' }>, cmd: Cmd | undefined, args: Arg[], final: Value | typeof NO_FINAL): Value {
    const name = fn.name;
    const rest = args.slice(1);
    const [fixed, variadic] = SIGNATURES[name];
    const count = rest.length + (final === NO_FINAL ? 0 : 1);
    // exec.go evalCall: the count is checked at the function's name, before any argument is evaluated
    this.at(fn.pos, name);
    if (variadic ? count < fixed.length : count !== fixed.length) {
      this.errorf(`wrong number of args for ${name}: want ${variadic ? 'at least ' : ''}${fixed.length} got ${count}`);
    }
    const paramOf = (i: number): Param => (i < fixed.length ? fixed[i] : variadic!);
    // an argument as the parameter takes it: a missing value is a nil interface{}, and no string at all
    const convert = (v: Value, i: number): Value => {
      const param = paramOf(i);
      if (param === 'any') return v === INVALID ? null : v;
      if (param === 'string') {
        if (v === INVALID) this.errorf('invalid value; expected string');
        if (typeof v !== 'string') this.errorf(`wrong type for value; expected string; got ${v === null ? 'interface {}' : typeName(v)}`);
      }
      return v;
    };
    const arg = (i: number): Value => {
      const v = i < rest.length ? this.evalArg(dot, rest[i]) : (final as Value);
      return convert(v, i);
    };
    // and/or evaluate their operands lazily, left to right
    if (name === 'and' || name === 'or') {
      let v: Value = INVALID;
      for (let i = 0; i < count; i++) {
        v = arg(i);
        if ((name === 'and') !== truth(v)) return v;
      }
      return v;
    }
    const argv: Value[] = [];
    for (let i = 0; i < count; i++) argv.push(arg(i));
    const call = (f: () => Value): Value => {
      try {
        return f();
      } catch (e) {
        if (e instanceof CallError) {
          // a failed call is reported at the whole command
          this.at(cmd?.pos ?? fn.pos, cmd ? cmd.args.map(argText).join(' ') : name);
          this.errorf(`error calling ${name}: ${e.message}`);
        }
        throw e;
      }
    };
    switch (name) {
      case 'not':
        return !truth(argv[0]);
      case 'len':
        return call(() => length(argv[0]));
      case 'index':
        return call(() => index(argv[0], argv.slice(1)));
      case 'slice':
        return call(() => slice(argv[0], argv.slice(1)));
      case 'print':
        return sprint(argv);
      case 'println':
        return `${argv.map(goValue).join(' ')}\n`;
      case 'printf':
        return sprintf(argv[0] as string, argv.slice(1));
      case 'eq':
        return call(() => eq(argv[0], argv.slice(1)));
      case 'ne':
        return call(() => !eq(argv[0], [argv[1]]));
      case 'lt':
        return call(() => lt(argv[0], argv[1]));
      case 'le':
        return call(() => lt(argv[0], argv[1]) || eq(argv[0], [argv[1]]));
      case 'gt':
        return call(() => !(lt(argv[0], argv[1]) || eq(argv[0], [argv[1]])));
      case 'ge':
        return call(() => !lt(argv[0], argv[1]));
      case 'html':
        return htmlEscape(evalArgs(argv));
      case 'js':
        return jsEscape(evalArgs(argv));
      case 'urlquery':
        return encodeURIComponent(evalArgs(argv)).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      case 'exists':
        return exists(argv[0], argv.slice(1));
      case 'base64decode':
        return call(() => base64decode(argv[0] as string));
      default:
        // call: the model has no function values
        return call(() => {
          throw new CallError(`non-function ${argText(rest[0] ?? fn)} of type ${typeName(argv[0])}`);
        });
    }
  }
}

/** A builtin's parameter: a reflect.Value (taken as it is), an interface{} (no value is nil) or a string. */
type Param = 'value' | 'any' | 'string';

/** The builtins' parameters, fixed and variadic (funcs.go builtins(), and kubectl's two). */
const SIGNATURES: Record<string, [Param[], Param | undefined]> = {
  and: [['value'], 'value'],
  or: [['value'], 'value'],
  not: [['value'], undefined],
  len: [['value'], undefined],
  index: [['value'], 'value'],
  slice: [['value'], 'value'],
  call: [['value'], 'value'],
  print: [[], 'any'],
  println: [[], 'any'],
  printf: [['string'], 'any'],
  html: [[], 'any'],
  js: [[], 'any'],
  urlquery: [[], 'any'],
  eq: [['value'], 'value'],
  ne: [['value', 'value'], undefined],
  lt: [['value', 'value'], undefined],
  le: [['value', 'value'], undefined],
  gt: [['value', 'value'], undefined],
  ge: [['value', 'value'], undefined],
  exists: [['any'], 'any'],
  base64decode: [['string'], undefined],
};

const NO_FINAL = Symbol('no final value');

class CallError extends Error {}

/** A pipeline as parse.PipeNode.String writes it. */
function pipeText(p: Pipe): string {
  const decl = p.decl.length ? `${p.decl.join(', ')} ${p.isAssign ? '=' : ':='} ` : '';
  return decl + p.cmds.map((c) => c.args.map(argText).join(' ')).join(' | ');
}

function argText(a: Arg): string {
  switch (a.kind) {
    case 'field':
      return a.ident.map((x) => `.${x}`).join('');
    case 'variable':
      return a.ident.join('.');
    case 'identifier':
      return a.name;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'literal':
      return a.text;
    case 'pipe':
      return `(${pipeText(a.pipe)})`;
    case 'chain':
      return `${argText(a.node)}${a.field.map((x) => `.${x}`).join('')}`;
  }
}

/** funcs.go evalArgs (html, js, urlquery): one string as it is, else fmt.Sprint with nils as <no value>. */
function evalArgs(args: Value[]): string {
  return args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args.map((a) => (a === null ? INVALID : a)));
}

function length(v: Value): Value {
  switch (kindOf(v)) {
    case 'string':
      return new GoInt(utf8(v as string).length);
    case 'slice':
      return new GoInt((v as unknown[]).length);
    case 'map':
      return new GoInt(Object.keys(v as object).length);
    case 'invalid':
      // an invalid reflect.Value: length() asks for its type, and reflect panics
      throw new CallError('reflect: call of reflect.Value.Type on zero Value');
    case 'nil':
      throw new CallError('len of nil pointer');
    default:
      throw new CallError(`len of type ${typeName(v)}`);
  }
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function indexArg(i: Value, cap: number): number {
  if (kindOf(i) !== 'int') throw new CallError(`cannot index slice/array with type ${typeName(i)}`);
  const x = num(i);
  if (x < 0 || x >= cap) throw new CallError(`index out of range: ${x}`);
  return x;
}

function index(item: Value, indexes: Value[]): Value {
  let v = item;
  for (const i of indexes) {
    const k = kindOf(v);
    if (k === 'slice') v = (v as Value[])[indexArg(i, (v as Value[]).length)];
    else if (k === 'string') {
      const bytes = utf8(v as string);
      // a string's element is a byte (funcs.go index: item.Index(x) of a string is a uint8)
      v = new GoInt(bytes[indexArg(i, bytes.length)], 'uint8');
    } else if (k === 'map') {
      if (kindOf(i) !== 'string') {
        if (i === null || i === INVALID) throw new CallError('value is nil; should be of type string');
        throw new CallError(`value has type ${typeName(i)}; should be string`);
      }
      const o = v as Record<string, Value>;
      // a missing key gives the map's zero value: a nil interface
      v = Object.hasOwn(o, i as string) ? o[i as string] : null;
    } else if (k === 'invalid' || k === 'nil') throw new CallError('index of untyped nil');
    else throw new CallError(`can't index item of type ${typeName(v)}`);
  }
  return v;
}

function slice(item: Value, idx: Value[]): Value {
  const k = kindOf(item);
  if (k === 'invalid' || k === 'nil') throw new CallError('slice of untyped nil');
  if (idx.length > 3) throw new CallError(`too many slice indexes: ${idx.length}`);
  if (k !== 'slice' && k !== 'string') throw new CallError(`can't slice item of type ${typeName(item)}`);
  if (k === 'string' && idx.length === 3) throw new CallError('cannot 3-index slice a string');
  // a Go string is its UTF-8 bytes
  const bytes = k === 'string' ? utf8(item as string) : undefined;
  const len = bytes ? bytes.length : (item as Value[]).length;
  const xs = idx.map((i) => {
    if (kindOf(i) !== 'int') throw new CallError(`cannot index slice/array with type ${typeName(i)}`);
    const x = num(i);
    if (x < 0 || x > len) throw new CallError(`index out of range: ${x}`);
    return x;
  });
  const [lo = 0, hi = len] = xs;
  if (hi < lo) throw new CallError(`invalid slice index: ${lo} > ${hi}`);
  return bytes ? new TextDecoder().decode(bytes.subarray(lo, hi)) : (item as Value[]).slice(lo, hi);
}

function basicKind(v: Value): 'bool' | 'int' | 'float' | 'string' | 'other' {
  const k = kindOf(v);
  return k === 'bool' || k === 'int' || k === 'float' || k === 'string' ? k : 'other';
}

const percentS = (v: Value): string => formatValue(v, 's');

// Go 1.25 names the two types (golang/go#71421); kubectl v1.36 is built with a Go that has it
const incompatible = (a: Value, b: Value) => new CallError(`incompatible types for comparison: ${typeName(a)} and ${typeName(b)}`);

/** funcs.go eq: arg1 == arg2 || arg1 == arg3 ...; a nil interface is no value, which equals nothing but itself. */
function eq(arg1: Value, others: Value[]): boolean {
  if (others.length === 0) throw new CallError('missing argument for comparison');
  const a = arg1 === null ? INVALID : arg1;
  const k1 = basicKind(a);
  for (const other of others) {
    const b = other === null ? INVALID : other;
    const k2 = basicKind(b);
    let t: boolean;
    if (k1 !== k2) {
      if (a !== INVALID && b !== INVALID) throw incompatible(a, b);
      t = false;
    } else if (k1 === 'other') {
      // maps, slices and no value: comparable only as nil
      if (a === INVALID || b === INVALID) t = a === b;
      else if (kindOf(a) !== kindOf(b)) {
        throw new CallError(`non-comparable types ${percentS(a)}: ${typeName(a)}, ${typeName(b)}: ${percentS(b)}`);
      } else throw new CallError(`non-comparable type ${percentS(b)}: ${typeName(b)}`);
    } else if (k1 === 'int' || k1 === 'float') t = num(a) === num(b);
    else t = a === b;
    if (t) return true;
  }
  return false;
}

/** funcs.go lt: ordered kinds only, both of one kind. */
function lt(arg1: Value, arg2: Value): boolean {
  const a = arg1 === null ? INVALID : arg1;
  const b = arg2 === null ? INVALID : arg2;
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'other' || k2 === 'other') throw new CallError('invalid type for comparison');
  if (k1 !== k2) throw incompatible(a, b);
  if (k1 === 'bool') throw new CallError('invalid type for comparison');
  if (k1 === 'string') return (a as string) < (b as string);
  return num(a) < num(b);
}

function htmlEscape(s: string): string {
  return s.replace(/[<>&'"\0]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&#34;', '\0': '\uFFFD' })[c]!);
}

function jsEscape(s: string): string {
  let out = '';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '\\') out += '\\\\';
    else if (c === "'") out += "\\'";
    else if (c === '"') out += '\\"';
    else if (c === '<') out += '\\u003C';
    else if (c === '>') out += '\\u003E';
    else if (c === '&') out += '\\u0026';
    else if (c === '=') out += '\\u003D';
    else if (cp < 0x20) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += c;
  }
  return out;
}

/** kubectl's exists: whether each index in turn finds a value (a map key, or a position in a list or string). */
// upstream: k8s.io/cli-runtime/pkg/printers/jsonpath.go exists
function exists(item: Value, indices: Value[]): boolean {
  let v = item;
  for (const i of indices) {
    const k = kindOf(v);
    if (k === 'invalid' || k === 'nil') return false;
    if (k === 'slice' || k === 'string') {
      if (kindOf(i) !== 'int') return false;
      const x = num(i);
      const bytes = k === 'string' ? utf8(v as string) : undefined;
      const len = bytes ? bytes.length : (v as Value[]).length;
      if (x < 0 || x >= len) return false;
      v = bytes ? new GoInt(bytes[x], 'uint8') : (v as Value[])[x];
    } else if (k === 'map') {
      if (typeof i !== 'string') return false;
      const o = v as Record<string, Value>;
      if (!Object.hasOwn(o, i)) return false;
      v = o[i];
    } else return false;
  }
  return true;
}

function base64decode(s: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) {
    const bad = s.search(/[^A-Za-z0-9+/=]/);
    throw new CallError(`base64 decode failed: illegal base64 data at input byte ${bad < 0 ? s.length - (s.length % 4) : bad}`);
  }
  return textFromBase64(s);
}

/**
 * kubectl's GoTemplatePrinter.PrintObj: the output, or on an execution error the debugging text kubectl writes to
 * stdout and the error it returns.
 */
// upstream: k8s.io/cli-runtime/pkg/printers/template.go PrintObj
export function printGoTemplate(tmpl: GoTemplate, raw: string, obj: unknown, opts: TemplateOptions): { out: string; error?: string } {
  const r = tmpl.execute(obj, opts);
  if (r.error === undefined) return r;
  const debug =
    `Error executing template: ${r.error}. Printing more information for debugging the template:\n` +
    `\ttemplate was:\n\t\t${raw}\n` +
    `\traw data was:\n\t\t${goJson(obj)}\n` +
    `\tobject given to template engine was:\n\t\t${goValue(obj)}\n\n`;
  return { out: r.out + debug, error: `error executing template ${goQuote(raw)}: ${r.error}` };
}
