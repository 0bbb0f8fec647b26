// kubectl's JSONPath dialect (-o jsonpath=..., --sort-by): a template of literal text and {actions},
// with fields, [index]/[start:end:step], [*], .., unions [a,b], filters [?(@.x=="y")], and
// {range ...}{end}. Scalars print as text, maps and lists as compact JSON (Go's json.Marshal:
// sorted keys), results of one action separated by a space.
// upstream: k8s.io/client-go/util/jsonpath parser.go (Parse), jsonpath.go (FindResults, PrintResults)

import { goJson } from './json.ts';
import { goUnescape } from './gostrconv.ts';

type Value = unknown;

type Node =
  | { kind: 'list'; nodes: Node[] }
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string }
  | { kind: 'array'; params: Param[] }
  | { kind: 'filter'; left: Node & { kind: 'list' }; right: Node & { kind: 'list' }; op: string }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'union'; lists: (Node & { kind: 'list' })[] }
  | { kind: 'identifier'; name: string };

interface Param {
  value: number;
  known: boolean;
  derived: boolean;
}

export class JsonPathError extends Error {}

// ---------------------------------------------------------------------------------------------
// Parser (a port of parser.go's scanner: same grammar, same error messages)
// ---------------------------------------------------------------------------------------------

const isSpace = (r: string) => r === ' ' || r === '\t';
const isEndOfLine = (r: string) => r === '\r' || r === '\n';
const isTerminator = (r: string) =>
  r === '' || isSpace(r) || isEndOfLine(r) || '.,[]$@{}'.includes(r);
const isAlphaNumeric = (r: string) => r === '_' || /[\p{L}\p{Nd}]/u.test(r);
const isDigit = (r: string) => /\p{Nd}/u.test(r);

class Parser {
  root: Node & { kind: 'list' } = { kind: 'list', nodes: [] };
  private input = '';
  private pos = 0;
  private start = 0;

  parse(text: string): void {
    this.input = text;
    this.root = { kind: 'list', nodes: [] };
    this.pos = 0;
    this.start = 0;
    this.parseText(this.root);
  }

  private next(): string {
    if (this.pos >= this.input.length) return '';
    const r = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.pos += r.length;
    return r;
  }
  private lastWidth = 0;
  private nextTracked(): string {
    const r = this.next();
    this.lastWidth = r.length;
    return r;
  }
  private backup(): void {
    this.pos -= this.lastWidth;
  }
  private peek(): string {
    const r = this.nextTracked();
    this.backup();
    return r;
  }
  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private parseText(cur: Node & { kind: 'list' }): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
        return this.parseLeftDelim(cur);
      }
      if (this.nextTracked() === '') break;
    }
    if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
  }

  private parseLeftDelim(cur: Node & { kind: 'list' }): void {
    this.pos += 1;
    this.consumeText();
    const node: Node & { kind: 'list' } = { kind: 'list', nodes: [] };
    cur.nodes.push(node);
    return this.parseInsideAction(node);
  }

  private parseInsideAction(cur: Node & { kind: 'list' }): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) return this.parseRightDelim();
      if (rest.startsWith('[?(')) return this.parseFilter(cur);
      if (rest.startsWith('..')) return this.parseRecursive(cur);
      const r = this.nextTracked();
      if (r === '' || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === ' ') {
        this.consumeText();
        continue;
      }
      if (r === '@' || r === '$') {
        this.consumeText();
        continue;
      }
      if (r === '[') return this.parseArray(cur);
      if (r === '"' || r === "'") return this.parseQuote(cur, r);
      if (r === '.') return this.parseField(cur);
      if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        return this.parseNumber(cur);
      }
      if (isAlphaNumeric(r)) {
        this.backup();
        return this.parseIdentifier(cur);
      }
      const cp = r.codePointAt(0)!;
      throw new JsonPathError(
        `unrecognized character in action: U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`,
      );
    }
  }

  private parseRightDelim(): void {
    this.pos += 1;
    this.consumeText();
    return this.parseText(this.root);
  }

  private parseIdentifier(cur: Node & { kind: 'list' }): void {
    for (;;) {
      const r = this.nextTracked();
      if (isTerminator(r)) {
        if (r !== '') this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ kind: 'bool', value: value === 'true' });
    else cur.nodes.push({ kind: 'identifier', name: value });
    return this.parseInsideAction(cur);
  }

  private parseRecursive(cur: Node & { kind: 'list' }): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last && last.kind === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ kind: 'recursive' });
    if (isAlphaNumeric(this.peek())) return this.parseField(cur);
    return this.parseInsideAction(cur);
  }

  private parseNumber(cur: Node & { kind: 'list' }): void {
    const r = this.peek();
    if (r === '+' || r === '-') this.nextTracked();
    for (;;) {
      const c = this.nextTracked();
      if (c !== '.' && !isDigit(c)) {
        if (c !== '') this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value)) cur.nodes.push({ kind: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ kind: 'float', value: Number(value) });
    else throw new JsonPathError(`cannot parse number ${value}`);
    return this.parseInsideAction(cur);
  }

  private parseArray(cur: Node & { kind: 'list' }): void {
    for (;;) {
      const r = this.nextTracked();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';
    const strs = text.split(',');
    if (strs.length > 1) {
      const lists = strs.map((s) => parseAction(`[${s.trim()}]`));
      cur.nodes.push({ kind: 'union', lists });
      return this.parseInsideAction(cur);
    }
    const dict = /^'([^']*)'$/.exec(text);
    if (dict) {
      for (const n of parseAction(`.${dict[1]}`).nodes) cur.nodes.push(n);
      return this.parseInsideAction(cur);
    }
    const m = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(text);
    if (!m) throw new JsonPathError(`invalid array index ${text}`);
    const value = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: Param[] = [];
    for (let i = 0; i < 3; i++) {
      let v = value[i];
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false, derived: false });
        else params.push({ value: Number(v), known: true, derived: false });
      } else if (i === 1) {
        params.push({ value: params[0].value + 1, known: true, derived: true });
      } else {
        params.push({ value: 0, known: false, derived: false });
      }
    }
    cur.nodes.push({ kind: 'array', params });
    return this.parseInsideAction(cur);
  }

  private parseFilter(cur: Node & { kind: 'list' }): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.nextTracked();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')') {
        if (begin === end) break;
      }
    }
    if (this.nextTracked() !== ']') throw new JsonPathError('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
    if (!m) {
      cur.nodes.push({ kind: 'filter', left: parseAction(text), right: { kind: 'list', nodes: [] }, op: 'exists' });
    } else {
      cur.nodes.push({ kind: 'filter', left: parseAction(m[1]), right: parseAction(m[3]), op: m[2] });
    }
    return this.parseInsideAction(cur);
  }

  private parseQuote(cur: Node & { kind: 'list' }, end: string): void {
    for (;;) {
      const r = this.nextTracked();
      if (r === '' || r === '\n') throw new JsonPathError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    cur.nodes.push({ kind: 'text', text: unquoteExtend(value) });
    return this.parseInsideAction(cur);
  }

  private parseField(cur: Node & { kind: 'list' }): void {
    this.consumeText();
    for (;;) {
      const r = this.nextTracked();
      if (r === '\\') {
        this.nextTracked();
        continue;
      }
      if (isTerminator(r)) {
        if (r !== '') this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ kind: 'wildcard' });
    else cur.nodes.push({ kind: 'field', name: value.replaceAll('\\', '') });
    return this.parseInsideAction(cur);
  }
}

function parseAction(text: string): Node & { kind: 'list' } {
  const p = new Parser();
  p.parse(`{${text}}`);
  return p.root.nodes[0] as Node & { kind: 'list' };
}

/** strconv.Unquote extended to single quotes (UnquoteExtend). */
function unquoteExtend(s: string): string {
  const quote = s[0];
  const body = s.length >= 2 && s[s.length - 1] === quote ? goUnescape(s.slice(1, -1)) : undefined;
  if (body === undefined) throw new JsonPathError(`unquote string ${s} error invalid syntax`);
  return body;
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

/** A found value; `present` distinguishes a JSON null from "nothing". */
type Found = { v: Value };

const isMap = (v: Value): v is Record<string, Value> => v !== null && typeof v === 'object' && !Array.isArray(v);

export class JsonPath {
  private parser = new Parser();
  private allowMissingKeys = false;

  constructor(template: string, options: { allowMissingKeys?: boolean } = {}) {
    this.parser.parse(template);
    this.allowMissingKeys = options.allowMissingKeys ?? false;
  }

  /** Groups of results, one group per action (or text), ranges expanded. */
  findResults(data: Value): Found[][] {
    const out: Found[][] = [];
    this.runNodes(this.parser.root.nodes, data, out);
    return out;
  }

  /** Execute the template: the text kubectl prints. */
  execute(data: Value): string {
    return this.findResults(data).map((group) => printResults(group)).join('');
  }

  /** Run a node sequence; `{range}` blocks recurse per item up to their matching `{end}`. */
  private runNodes(nodes: Node[], data: Value, out: Found[][]): void {
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      const ident = rangeIdentifier(node);
      if (ident === 'end') throw new JsonPathError('not in range, nothing to end');
      if (ident === 'range') {
        const endAt = matchingEnd(nodes, i);
        const body = nodes.slice(i + 1, endAt);
        const items = this.walk([{ v: data }], { kind: 'list', nodes: (node as Node & { kind: 'list' }).nodes.slice(1) });
        for (const item of items) this.runNodes(body, item.v, out);
        i = endAt;
        continue;
      }
      out.push(this.walk([{ v: data }], node));
    }
  }

  private walk(input: Found[], node: Node): Found[] {
    switch (node.kind) {
      case 'list': {
        let cur = input;
        for (const n of node.nodes) cur = this.walk(cur, n);
        return cur;
      }
      case 'text':
        return [{ v: node.text }];
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return this.evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
      case 'float':
      case 'bool':
        return input.map(() => ({ v: node.value }));
      case 'wildcard':
        return input.flatMap(({ v }) => children(v));
      case 'recursive':
        return input.flatMap(({ v }) => recursive(v));
      case 'union':
        return node.lists.flatMap((l) => this.walk(input, l));
      case 'identifier':
        throw new JsonPathError(`unrecognized identifier ${node.name}`);
    }
  }

  private evalField(input: Found[], name: string): Found[] {
    const results: Found[] = [];
    if (input.length === 0) return results;
    for (const { v } of input) {
      if (v === null || v === undefined) continue;
      if (isMap(v) && Object.hasOwn(v, name)) results.push({ v: v[name] });
    }
    if (results.length === 0 && !this.allowMissingKeys) throw new JsonPathError(`${name} is not found`);
    return results;
  }

  private evalArray(input: Found[], template: Param[]): Found[] {
    const result: Found[] = [];
    for (const { v } of input) {
      if (v === null || v === undefined) continue;
      if (!Array.isArray(v)) throw new JsonPathError(`${goTypeName(v)} is not array or slice`);
      const params = template.map((p) => ({ ...p }));
      const len = v.length;
      if (!params[0].known) params[0].value = 0;
      if (params[0].value < 0) params[0].value += len;
      if (!params[1].known) params[1].value = len;
      if (params[1].value < 0 || (params[1].value === 0 && params[1].derived)) params[1].value += len;
      if (params[1].value !== params[0].value) {
        if (params[0].value >= len || params[0].value < 0) {
          throw new JsonPathError(`array index out of bounds: index ${params[0].value}, length ${len}`);
        }
        if (params[1].value > len || params[1].value < 0) {
          throw new JsonPathError(`array index out of bounds: index ${params[1].value - 1}, length ${len}`);
        }
        if (params[0].value > params[1].value) {
          throw new JsonPathError(`starting index ${params[0].value} is greater than ending index ${params[1].value}`);
        }
      } else {
        return result;
      }
      const slice = v.slice(params[0].value, params[1].value);
      let step = 1;
      if (params[2].known) {
        if (params[2].value <= 0) throw new JsonPathError('step must be > 0');
        step = params[2].value;
      }
      for (let i = 0; i < slice.length; i += step) result.push({ v: slice[i] });
    }
    return result;
  }

  private evalFilter(input: Found[], node: Node & { kind: 'filter' }): Found[] {
    const results: Found[] = [];
    for (const { v } of input) {
      if (!Array.isArray(v)) throw new JsonPathError(`${goPrint(v)} is not array or slice and cannot be filtered`);
      for (const item of v) {
        const temp = [{ v: item }];
        let lefts: Found[];
        try {
          lefts = this.walk(temp, node.left);
        } catch (e) {
          if (node.op === 'exists') continue;
          throw e;
        }
        if (node.op === 'exists') {
          if (lefts.length > 0) results.push({ v: item });
          continue;
        }
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
        const rights = this.walk(temp, node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
        if (compare(lefts[0].v, rights[0].v, node.op)) results.push({ v: item });
      }
    }
    return results;
  }
}

function rangeIdentifier(node: Node): string | undefined {
  if (node.kind !== 'list') return undefined;
  const first = node.nodes[0];
  return first && first.kind === 'identifier' && (first.name === 'range' || first.name === 'end') ? first.name : undefined;
}

/** The index of the `{end}` closing the `{range}` at `start` (or the end of the template). */
function matchingEnd(nodes: Node[], start: number): number {
  let depth = 0;
  for (let i = start + 1; i < nodes.length; i++) {
    const id = rangeIdentifier(nodes[i]);
    if (id === 'range') depth++;
    if (id === 'end') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return nodes.length;
}

function children(v: Value): Found[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.map((x) => ({ v: x }));
  if (isMap(v)) return Object.keys(v).sort().map((k) => ({ v: v[k] }));
  if (typeof v === 'string') return Array.from(v).map((c) => ({ v: c.codePointAt(0)! }));
  return [];
}

function recursive(v: Value): Found[] {
  const kids = children(v);
  if (kids.length === 0) return [];
  return [{ v }, ...kids.flatMap((k) => recursive(k.v))];
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

function basicKind(v: Value): BasicKind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'string';
  throw new JsonPathError('invalid type for comparison');
}

/** upstream: client-go/third_party/forked/golang/template funcs.go Equal, Less, ... */
function compare(left: Value, right: Value, op: string): boolean {
  const k1 = basicKind(left);
  const k2 = basicKind(right);
  if (k1 !== k2) throw new JsonPathError('incompatible types for comparison');
  const eq = left === right;
  const less = () => {
    if (k1 === 'bool') throw new JsonPathError('invalid type for comparison');
    return (left as number | string) < (right as number | string);
  };
  switch (op) {
    case '==':
      return eq;
    case '!=':
      return !eq;
    case '<':
      return less();
    case '<=':
      return less() || eq;
    case '>':
      return !less() && !eq;
    case '>=':
      return !less();
    default:
      throw new JsonPathError(`unrecognized filter operator ${op}`);
  }
}

/** Print one group: maps and lists as compact JSON, scalars as text, space-separated. */
function printResults(group: Found[]): string {
  return group
    .map(({ v }) => {
      if (v !== null && typeof v === 'object') return goJson(v);
      if (v === null || v === undefined) return 'null';
      return String(v);
    })
    .join(' ');
}

function goTypeName(v: Value): string {
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'interface {}';
}

/** Go's %#v of an unstructured value (kubectl prints it when a template fails). */
export function goSyntax(v: Value): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[string]interface {}{${keys.map((k) => `${JSON.stringify(k)}:${goSyntax(v[k])}`).join(', ')}}`;
  }
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** Go's %v of an unstructured value (error messages; the cells of -o custom-columns). */
export function goPrint(v: Value): string {
  if (isMap(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goPrint(v[k])}`).join(' ')}]`;
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

/**
 * kubectl's RelaxedJSONPathExpression (used by --sort-by): `.a.b`, `a.b` or `{.a.b}` → `{.a.b}`.
 * upstream: k8s.io/kubectl/pkg/cmd/get/customcolumn.go RelaxedJSONPathExpression
 */
export function relaxedJsonPathExpression(pathExpression: string): string {
  if (pathExpression.length === 0) return pathExpression;
  const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/.exec(pathExpression);
  if (!m) {
    throw new JsonPathError(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  }
  return `{.${m[1] || m[2]}}`;
}
