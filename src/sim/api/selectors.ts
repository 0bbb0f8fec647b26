// Label and field selectors, parsed and matched as the API server does, with its error messages: one module for
// `podlife serve`'s labelSelector/fieldSelector query parameters and for podlife's own kubectl (-l, --field-selector).
// upstream: k8s.io/apimachinery pkg/labels/selector.go (v0.36.2: Lexer, Parser, NewRequirement, Requirement.Matches),
// pkg/fields/selector.go (ParseSelector, splitTerms, splitTerm, UnescapeValue), pkg/util/validation/field (the
// error text); the selectable fields: pkg/registry/core/{pod,event,node,namespace}/strategy.go, with the field label
// conversions of pkg/apis/core/v1/conversion.go

import { isQualifiedName, isValidLabelValue } from './validation.ts';

/** A selector the API server cannot read: its message is what the 400 BadRequest says. */
export class SelectorError extends Error {}

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Sorted and unique (a sets.String's List()). */
  values: string[];
}

// ---------------------------------------------------------------------------------------------------------
// The lexer

export type Token =
  | 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'identifier' | 'in' | '<' | '!=' | 'notin' | '(';

const STRING_TO_TOKEN: Record<string, Token> = {
  ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', in: 'in', '<': '<', '!=': '!=', notin: 'notin', '(': '(',
};

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** Splits a label selector into tokens: the longest special symbol, or an identifier/keyword up to one. */
export class Lexer {
  #pos = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  #read(): string {
    return this.#pos < this.s.length ? this.s[this.#pos++] : '';
  }

  #unread(): void {
    this.#pos--;
  }

  #scanIDOrKeyword(): [Token, string] {
    let buffer = '';
    for (;;) {
      const ch = this.#read();
      if (ch === '') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.#unread();
        break;
      }
      buffer += ch;
    }
    return Object.hasOwn(STRING_TO_TOKEN, buffer) ? [STRING_TO_TOKEN[buffer], buffer] : ['identifier', buffer];
  }

  #scanSpecialSymbol(): [Token, string] {
    let last: [Token, string] | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.#read();
      if (ch === '') break;
      if (!isSpecialSymbol(ch)) {
        this.#unread();
        break;
      }
      buffer += ch;
      if (Object.hasOwn(STRING_TO_TOKEN, buffer)) last = [STRING_TO_TOKEN[buffer], buffer];
      else if (last) {
        this.#unread();
        break;
      }
    }
    return last ?? ['error', `error expected: keyword found '${buffer}'`];
  }

  lex(): [Token, string] {
    let ch = this.#read();
    while (isWhitespace(ch)) ch = this.#read();
    if (ch === '') return ['end', ''];
    this.#unread();
    return isSpecialSymbol(ch) ? this.#scanSpecialSymbol() : this.#scanIDOrKeyword();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Requirements and their validation (field.ErrorList as the API server prints it)

const goQuote = (s: string): string => JSON.stringify(s);

/** field.Invalid(path, value, detail).Error(): `path: Invalid value: <value>: detail`. */
function invalid(path: string, value: string | string[], detail: string): string {
  return `${path}: Invalid value: ${typeof value === 'string' ? goQuote(value) : JSON.stringify(value)}: ${detail}`;
}

/** An ErrorList's aggregate: the one message, or the distinct ones in brackets. */
function aggregate(errs: string[]): string | undefined {
  const distinct = [...new Set(errs)];
  if (distinct.length === 0) return undefined;
  return distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
}

function validateLabelKey(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? invalid(path, key, errs.join('; ')) : undefined;
}

const INT64 = /^[+-]?\d+$/;
function parseInt64(s: string): bigint | undefined {
  if (!INT64.test(s)) return undefined;
  const v = BigInt(s);
  return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
}

/** NewRequirement: the requirement, or its validation errors (a parsed selector's path is the root). */
// upstream: selector.go NewRequirement
export function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs: string[] = [];
  const keyErr = validateLabelKey(key, 'key');
  if (keyErr) errs.push(keyErr);
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(invalid('values', values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(invalid('values', values, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(invalid('values', values, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const e = isValidLabelValue(v);
    if (e.length) errs.push(invalid(`values[${i}][${key}]`, v, e.join('; ')));
  });
  const err = aggregate(errs);
  if (err !== undefined) throw new SelectorError(err);
  return { key, operator, values };
}

/** Requirement.Matches */
export function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value!);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const mine = parseInt64(value!);
      const theirs = parseInt64(r.values[0]);
      if (mine === undefined || theirs === undefined) return false;
      return r.operator === 'gt' ? mine > theirs : mine < theirs;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The parser

type Context = 'keyAndOperator' | 'values';

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  readonly #items: [Token, string][] = [];
  #position = 0;

  constructor(selector: string) {
    const l = new Lexer(selector);
    for (;;) {
      const item = l.lex();
      this.#items.push(item);
      if (item[0] === 'end') break;
    }
  }

  // in a list of values, 'in' and 'notin' are identifiers
  lookahead(context: Context): [Token, string] {
    const [tok, lit] = this.#items[this.#position];
    return context === 'values' && (tok === 'in' || tok === 'notin') ? ['identifier', lit] : [tok, lit];
  }

  consume(context: Context): [Token, string] {
    const item = this.lookahead(context);
    this.#position++;
    return item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const [tok, lit] = this.lookahead('values');
      if (tok === 'identifier' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.#parseRequirement();
        } catch (e) {
          if (e instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${e.message}`);
          throw e;
        }
        requirements.push(r);
        const [t, l] = this.consume('values');
        if (t === 'end') return requirements;
        if (t === ',') {
          const [t2, l2] = this.lookahead('values');
          if (t2 !== 'identifier' && t2 !== '!') throw new SelectorError(`found '${l2}', expected: identifier after ','`);
        } else throw new SelectorError(`found '${l}', expected: ',' or 'end of string'`);
      } else if (tok === 'end') return requirements;
      else throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  #parseRequirement(): LabelRequirement {
    const [key, inferred] = this.#parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const operator = this.#parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.#parseValues() : this.#parseExactValue();
    return newRequirement(key, operator, [...values].sort());
  }

  #parseKeyAndInferOperator(): [string, LabelOperator | undefined] {
    let operator: LabelOperator | undefined;
    let [tok, literal] = this.consume('values');
    if (tok === '!') {
      operator = '!';
      [tok, literal] = this.consume('values');
    }
    if (tok !== 'identifier') throw new SelectorError(`found '${literal}', expected: identifier`);
    // the parser's own path is nil: field.Path's String() of nil
    const err = validateLabelKey(literal, '<nil>');
    if (err) throw new SelectorError(err);
    const [t] = this.lookahead('values');
    if ((t === 'end' || t === ',') && operator !== '!') operator = 'exists';
    return [literal, operator];
  }

  #parseOperator(): LabelOperator {
    const [tok, lit] = this.consume('keyAndOperator');
    switch (tok) {
      case 'in':
      case 'notin':
      case '=':
      case '==':
      case '!=':
        return tok;
      case '>':
        return 'gt';
      case '<':
        return 'lt';
      default:
        throw new SelectorError(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    }
  }

  #parseValues(): Set<string> {
    let [tok, lit] = this.consume('values');
    if (tok !== '(') throw new SelectorError(`found '${lit}' expected: '('`);
    [tok, lit] = this.lookahead('values');
    if (tok === 'identifier' || tok === ',') {
      const s = this.#parseIdentifiersList();
      if (this.consume('values')[0] !== ')') throw new SelectorError(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === ')') {
      this.consume('values');
      return new Set(['']);
    }
    throw new SelectorError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  #parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const [tok, lit] = this.consume('values');
      if (tok === 'identifier') {
        s.add(lit);
        const [tok2, lit2] = this.lookahead('values');
        if (tok2 === ',') continue;
        if (tok2 === ')') return s;
        throw new SelectorError(`found '${lit2}', expected: ',' or ')'`);
      } else if (tok === ',') {
        if (s.size === 0) s.add(''); // "(,"
        const [tok2] = this.lookahead('values');
        if (tok2 === ')') {
          s.add(''); // ",)"
          return s;
        }
        if (tok2 === ',') s.add(''); // ",,"
      } else throw new SelectorError(`found '${lit}', expected: ',', or identifier`);
    }
  }

  #parseExactValue(): Set<string> {
    const [next] = this.lookahead('values');
    if (next === 'end' || next === ',') return new Set(['']);
    const [tok, lit] = this.consume('values');
    if (tok === 'identifier') return new Set([lit]);
    throw new SelectorError(`found '${lit}', expected: identifier`);
  }
}

/** labels.Parse: the requirements, sorted by key; throws SelectorError with the API server's message. */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const items = new Parser(selector).parse();
  // sort.Sort(ByKey(items)): not a stable sort, but equal keys keep their order in practice for the few a selector has
  return items.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : i - j)).map(([r]) => r);
}

/** A label selector as a predicate over an object's labels. */
export function labelMatcher(selector: string | null | undefined): (labels: Record<string, string> | undefined) => boolean {
  if (!selector) return () => true;
  const reqs = parseLabelSelector(selector);
  return (labels) => reqs.every((r) => requirementMatches(r, labels));
}

// ---------------------------------------------------------------------------------------------------------
// Field selectors

export interface FieldRequirement {
  field: string;
  /** != */
  negated: boolean;
  value: string;
}

/** Terms split on unescaped commas (the backslash kept). */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator found, in the order !=, ==, =, splits the term. */
function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
  }
  return undefined;
}

/** fields.UnescapeValue */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let v = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      v += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else v += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return v;
}

/** fields.ParseSelector: the terms in sorted order, each with its unescaped value. */
export function parseFieldSelector(selector: string): FieldRequirement[] {
  const reqs: FieldRequirement[] = [];
  for (const part of splitTerms(selector).sort()) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    reqs.push({ field: t[0], negated: t[1] === '!=', value: unescapeValue(t[2]) });
  }
  return reqs;
}

/** The resources whose fields a selector can name. */
export type SelectableResource = 'pods' | 'events' | 'nodes' | 'namespaces' | 'services' | 'configmaps' | 'secrets';

// biome-ignore lint/suspicious/noExplicitAny: each resource's own shape
type Fields = (o: any) => Record<string, string>;

const metaFields = (o: { metadata: { name: string; namespace?: string } }, namespaced: boolean): Record<string, string> =>
  namespaced ? { 'metadata.name': o.metadata.name, 'metadata.namespace': o.metadata.namespace ?? 'default' } : { 'metadata.name': o.metadata.name };

/** Each resource's selectable fields, as strings (booleans as "true"/"false"). */
// upstream: pod/strategy.go PodToSelectableFields, event/strategy.go ToSelectableFields, node/strategy.go
// NodeToSelectableFields, namespace/strategy.go NamespaceToSelectableFields, service/strategy.go SelectableFields,
// configmap/strategy.go (the generic namespace-scoped metadata fields), secret/strategy.go SelectableFields (type)
const SELECTABLE: Record<SelectableResource, Fields> = {
  pods: (p) => ({
    ...metaFields(p, true),
    'spec.nodeName': p.spec?.nodeName ?? '',
    'spec.restartPolicy': p.spec?.restartPolicy ?? '',
    'spec.schedulerName': p.spec?.schedulerName ?? '',
    'spec.serviceAccountName': p.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': String(p.spec?.hostNetwork ?? false),
    'status.phase': p.status?.phase ?? '',
    'status.podIP': p.status?.podIP ?? '',
    'status.nominatedNodeName': p.status?.nominatedNodeName ?? '',
  }),
  events: (e) => ({
    ...metaFields(e, true),
    'involvedObject.kind': e.involvedObject?.kind ?? '',
    'involvedObject.namespace': e.involvedObject?.namespace ?? '',
    'involvedObject.name': e.involvedObject?.name ?? '',
    'involvedObject.uid': e.involvedObject?.uid ?? '',
    'involvedObject.apiVersion': e.involvedObject?.apiVersion ?? '',
    'involvedObject.resourceVersion': e.involvedObject?.resourceVersion ?? '',
    'involvedObject.fieldPath': e.involvedObject?.fieldPath ?? '',
    reason: e.reason ?? '',
    reportingComponent: e.reportingComponent ?? '',
    source: e.source?.component ?? '',
    type: e.type ?? '',
  }),
  nodes: (n) => ({ ...metaFields(n, false), 'spec.unschedulable': String(n.spec?.unschedulable ?? false) }),
  namespaces: (n) => ({ ...metaFields(n, false), 'status.phase': n.status?.phase ?? '' }),
  services: (s) => ({ ...metaFields(s, true), 'spec.clusterIP': s.spec?.clusterIP ?? '', 'spec.type': s.spec?.type ?? '' }),
  configmaps: (c) => metaFields(c, true),
  secrets: (s) => ({ ...metaFields(s, true), type: s.type ?? '' }),
};

const FIELD_LABELS: Record<SelectableResource, Set<string>> = Object.fromEntries(
  Object.entries(SELECTABLE).map(([r, f]) => [r, new Set(Object.keys(f({ metadata: { name: '' } })))]),
) as Record<SelectableResource, Set<string>>;

/**
 * A field selector as a predicate over objects of `resource`: parsed, then each field label checked against the
 * resource's (the conversion's "field label not supported", in the terms' sorted order).
 */
export function fieldMatcher(resource: SelectableResource, selector: string | null | undefined): (o: unknown) => boolean {
  if (!selector) return () => true;
  const reqs = parseFieldSelector(selector);
  // "for backwards compatibility with old v1 clients which send spec.host" (the pod's field label conversion)
  if (resource === 'pods') for (const r of reqs) if (r.field === 'spec.host') r.field = 'spec.nodeName';
  for (const r of reqs) if (!FIELD_LABELS[resource].has(r.field)) throw new SelectorError(`field label not supported: ${r.field}`);
  const fields = SELECTABLE[resource];
  return (o) => {
    const values = fields(o);
    return reqs.every((r) => (values[r.field] === r.value) !== r.negated);
  };
}
