// Label and field selectors as the API server parses and matches them. The tables are ported from
// k8s.io/apimachinery v0.36.2: pkg/labels/selector_test.go (TestLexer, TestParserLookahead, TestSelectorParse,
// TestSelectorMatches, TestSetSelectorParser, TestRequirementConstructor, TestRequirementSelectorMatching) and
// pkg/fields/selector_test.go (TestSplitTerms, TestSplitTerm, TestSelectorParse, TestSelectorMatches); the error
// messages are the parser's, as a 400 BadRequest carries them.

import { describe, expect, it } from 'vitest';
import {
  type LabelOperator, type LabelRequirement, Lexer, SelectorError, type Token, fieldMatcher, labelMatcher, newRequirement, parseFieldSelector,
  parseLabelSelector, requirementMatches,
} from '../../../src/sim/api/selectors.ts';

const req = (key: string, operator: LabelOperator, values: string[] = []): LabelRequirement => ({ key, operator, values: [...new Set(values)].sort() });
const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof SelectorError) return e.message;
    throw e;
  }
  return 'no error';
};

describe('labels: the lexer (TestLexer, TestParserLookahead)', () => {
  it.each<[string, Token]>([
    ['', 'end'], [',', ','], ['notin', 'notin'], ['in', 'in'], ['=', '='], ['==', '=='], ['>', '>'], ['<', '<'],
    // the longest valid token
    ['!', '!'], ['!=', '!='], ['(', '('], [')', ')'],
    // non-special characters are part of an identifier
    ['~', 'identifier'], ['||', 'identifier'],
  ])('%j → %s', (s, token) => {
    const [t, lit] = new Lexer(s).lex();
    expect(t).toBe(token);
    expect(lit).toBe(s);
  });

  it.each<[string, Token[]]>([
    ['key in ( value )', ['identifier', 'in', '(', 'identifier', ')', 'end']],
    ['key notin ( value )', ['identifier', 'notin', '(', 'identifier', ')', 'end']],
    ['key in ( value1, value2 )', ['identifier', 'in', '(', 'identifier', ',', 'identifier', ')', 'end']],
    ['key', ['identifier', 'end']],
    ['!key', ['!', 'identifier', 'end']],
    ['()', ['(', ')', 'end']],
    ['', ['end']],
    ['x in (),y', ['identifier', 'in', '(', ')', ',', 'identifier', 'end']],
    ['== != (), = notin', ['==', '!=', '(', ')', ',', '=', 'notin', 'end']],
    ['key>2', ['identifier', '>', 'identifier', 'end']],
    ['key<1', ['identifier', '<', 'identifier', 'end']],
  ])('%j scans as %j', (s, tokens) => {
    const l = new Lexer(s);
    const got: Token[] = [];
    for (;;) {
      const [t] = l.lex();
      got.push(t);
      if (t === 'end') break;
    }
    expect(got).toEqual(tokens);
  });
});

describe('labels: parsing (TestSelectorParse, TestSetSelectorParser)', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])('%j parses', (s) => {
    expect(() => parseLabelSelector(s)).not.toThrow();
  });
  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a'])('%j is refused', (s) => {
    expect(() => parseLabelSelector(s)).toThrow(SelectorError);
  });

  // [selector, requirements (sorted by key), whether they are compared, valid]
  it.each<[string, LabelRequirement[] | null, boolean, boolean]>([
    ['', [], true, true],
    ['\rx', [req('x', 'exists')], true, true],
    ['this-is-a-dns.domain.com/key-with-dash', [req('this-is-a-dns.domain.com/key-with-dash', 'exists')], true, true],
    ['this-is-another-dns.domain.com/key-with-dash in (so,what)', [req('this-is-another-dns.domain.com/key-with-dash', 'in', ['so', 'what'])], true, true],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', [req('0.1.2.domain/99', 'notin', ['10.10.100.1', 'tick.tack.clock'])], true, true],
    ['foo  in\t (abc)', [req('foo', 'in', ['abc'])], true, true],
    ['x notin\n (abc)', [req('x', 'notin', ['abc'])], true, true],
    ['x  notin\t\t\t(abc,def)', [req('x', 'notin', ['abc', 'def'])], true, true],
    ['x in (abc,def)', [req('x', 'in', ['abc', 'def'])], true, true],
    ['x in (abc,)', [req('x', 'in', ['abc', ''])], true, true],
    ['x in (abc,abc)', [req('x', 'in', ['abc'])], true, true],
    ['x in ()', [req('x', 'in', [''])], true, true],
    ['x in (a,,)', [req('x', 'in', ['a', ''])], true, true],
    ['x in (a,,,)', [req('x', 'in', ['a', ''])], true, true],
    ['x in (a,,,,,,)', [req('x', 'in', ['a', ''])], true, true],
    ['x in (a,,a,,a,,a,,)', [req('x', 'in', ['a', ''])], true, true],
    ['x notin (abc,,def),bar,z in (),w', [req('bar', 'exists'), req('w', 'exists'), req('x', 'notin', ['abc', '', 'def']), req('z', 'in', [''])], true, true],
    ['x,y in (a)', null, false, true],
    ['x=a', [req('x', '=', ['a'])], true, true],
    ['x>1', [req('x', 'gt', ['1'])], true, true],
    ['x<7', [req('x', 'lt', ['7'])], true, true],
    ['x=a,y!=b', [req('x', '=', ['a']), req('y', '!=', ['b'])], true, true],
    ['x=a,y!=b,z in (h,i,j)', [req('x', '=', ['a']), req('y', '!=', ['b']), req('z', 'in', ['h', 'i', 'j'])], true, true],
    ['x=a||y=b', null, false, false],
    ['x,,y', null, true, false],
    [',x,y', null, true, false],
    ['x nott in (y)', null, true, false],
    ['x notin ( )', [req('x', 'notin', [''])], true, true],
    ['x notin (, a)', [req('x', 'notin', ['', 'a'])], true, true],
    ['a in (xyz),', null, true, false],
    ['a in (xyz)b notin ()', null, true, false],
    ['a ', [req('a', 'exists')], true, true],
    ['a in (x,y,notin, z,in)', [req('a', 'in', ['in', 'notin', 'x', 'y', 'z'])], true, true],
    ['a in (xyz abc)', null, false, false],
    ['a notin(', null, true, false],
    ['a (', null, false, false],
    ['(', null, false, false],
  ])('%j → %j', (s, out, compare, valid) => {
    if (!valid) {
      expect(() => parseLabelSelector(s)).toThrow(SelectorError);
      return;
    }
    const got = parseLabelSelector(s);
    if (compare) expect(got).toEqual(out);
  });

  it('sorts the requirements by key (x,y in (a): y first? no: by key, x then y)', () => {
    expect(parseLabelSelector('y in (a),x').map((r) => r.key)).toEqual(['x', 'y']);
  });

  it.each([
    // the messages a 400 BadRequest carries
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['x in y', "unable to parse requirement: found 'y' expected: '('"],
    ['=x', "found '=', expected: !, identifier, or 'end of string'"],
    ['x,,y', "found ',', expected: identifier after ','"],
    ['x=a,', "found '', expected: identifier after ','"],
    ['a in (xyz)b', "found 'b', expected: ',' or 'end of string'"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (=', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!=x', "found '!=', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['x>a', 'unable to parse requirement: values[0]: Invalid value: "a": for \'Gt\', \'Lt\' operators, the value must be an integer'],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['A_/b', 'unable to parse requirement: <nil>: Invalid value: "A_/b": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'],
    ['x=-a', 'unable to parse requirement: values[0][x]: Invalid value: "-a": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')'],
  ])('%j: %s', (s, message) => {
    expect(errorOf(() => parseLabelSelector(s))).toBe(message);
  });
});

describe('labels: NewRequirement (TestRequirementConstructor)', () => {
  it.each<[string, LabelOperator, string[], string | undefined]>([
    ['x1', 'in', [], 'values: Invalid value: []: for \'in\', \'notin\' operators, values set can\'t be empty'],
    ['x2', 'notin', [], 'values: Invalid value: []: for \'in\', \'notin\' operators, values set can\'t be empty'],
    ['x3', 'in', ['foo'], undefined],
    ['x4', 'notin', ['foo'], undefined],
    ['x5', '=', ['bar', 'foo'], 'values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value'],
    ['x6', 'exists', [], undefined],
    ['x7', '!', [], undefined],
    ['x8', 'exists', ['foo'], 'values: Invalid value: ["foo"]: values set must be empty for exists and does not exist'],
    ['x9', 'in', ['bar'], undefined],
    ['x11', 'gt', ['1'], undefined],
    ['x12', 'lt', ['6'], undefined],
    ['x13', 'gt', [], "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required"],
    ['x14', 'gt', ['bar'], "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['x15', 'lt', ['bar'], "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['a'.repeat(254), 'exists', [], 'key: Invalid value: "' + 'a'.repeat(254) + '": name part must be no more than 63 characters'],
    ['x18', '=', ['a'.repeat(254)], 'values[0][x18]: Invalid value: "' + 'a'.repeat(254) + '": must be no more than 63 characters'],
    ['x19', 'gt', ['9223372036854775808'], "values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, the value must be an integer"],
  ])('%s %s %j', (key, op, values, message) => {
    if (message === undefined) expect(newRequirement(key, op, values)).toEqual({ key, operator: op, values });
    else expect(errorOf(() => newRequirement(key, op, values))).toBe(message);
  });
});

describe('labels: matching (TestSelectorMatches, TestRequirementSelectorMatching)', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['', { x: 'y' }, true], ['x=y', { x: 'y' }, true], ['x=y,z=w', { x: 'y', z: 'w' }, true], ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true], ['x', { x: 'z' }, true], ['!x', { y: 'z' }, true], ['x>1', { x: '2' }, true], ['x<1', { x: '0' }, true],
    ['x=z', {}, false], ['x=y', { x: 'z' }, false], ['x=y,z=w', { x: 'w', z: 'w' }, false], ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false], ['!x', { x: 'z' }, false], ['x>1', { x: '0' }, false], ['x<1', { x: '2' }, false],
    ['foo=bar', { foo: 'bar', baz: 'blah' }, true], ['baz=blah', { foo: 'bar', baz: 'blah' }, true],
    ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }, true], ['foo=blah', { foo: 'bar', baz: 'blah' }, false],
    ['baz=bar', { foo: 'bar', baz: 'blah' }, false], ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }, false],
  ])('%j on %j → %s', (s, labels, match) => {
    expect(labelMatcher(s)(labels)).toBe(match);
    expect(labelMatcher(s)(Object.keys(labels).length ? labels : undefined)).toBe(match);
  });

  it.each<[Record<string, string>, LabelRequirement[], boolean]>([
    [{ x: 'foo', y: 'baz' }, [req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])], true],
    [{ x: 'foo', y: 'baz' }, [req('x', 'in', ['foo']), req('y', 'in', ['alpha'])], false],
    [{ y: '' }, [req('x', 'notin', ['']), req('y', 'exists')], true],
    [{ y: '' }, [req('x', '!'), req('y', 'exists')], true],
    [{ y: '' }, [req('x', 'notin', ['']), req('y', '!')], false],
    [{ y: 'baz' }, [req('x', 'in', [''])], false],
    [{ z: '2' }, [req('z', 'gt', ['1'])], true],
    [{ z: 'v2' }, [req('z', 'gt', ['1'])], false],
  ])('%j against %j → %s', (labels, reqs, match) => {
    expect(reqs.every((r) => requirementMatches(r, labels))).toBe(match);
  });
});

describe('fields (pkg/fields TestSplitTerms, TestSplitTerm, TestSelectorParse, TestSelectorMatches)', () => {
  it.each<[string, [string, boolean, string][]]>([
    ['a=avalue', [['a', false, 'avalue']]],
    ['a=avalue,b=bvalue', [['a', false, 'avalue'], ['b', false, 'bvalue']]],
    ['a=avalue,b==bvalue,c!=cvalue', [['a', false, 'avalue'], ['b', false, 'bvalue'], ['c', true, 'cvalue']]],
    ['', []], ['a=a,', [['a', false, 'a']]], [',a=a', [['a', false, 'a']]],
    // escaped values: the comma and the backslash are data (and "k2=…" sorts before "k=…", byte by byte)
    ['k=\\,,k2=v2', [['k2', false, 'v2'], ['k', false, ',']]],
    ['k=\\\\,k2=v2', [['k2', false, 'v2'], ['k', false, '\\']]],
    ['k=\\\\\\,,k2=v2', [['k2', false, 'v2'], ['k', false, '\\,']]],
    ['함=수,목=록', [['목', false, '록'], ['함', false, '수']]],
    ['x=a\\=\\=b', [['x', false, 'a==b']]],
    // sorted, as ParseSelector sorts its terms
    ['z=1,a=2', [['a', false, '2'], ['z', false, '1']]],
  ])('%j → %j', (s, terms) => {
    expect(parseFieldSelector(s).map((r) => [r.field, r.negated, r.value])).toEqual(terms);
  });

  it.each([
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a,b', "invalid selector: 'x=a,b'; can't understand 'b'"],
    ['x in (a)', "invalid selector: 'x in (a)'; can't understand 'x in (a)'"],
    ['x in (a,b,c)', "invalid selector: 'x in (a,b,c)'; can't understand 'b'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['k=\\a\\b\\', 'invalid field selector: invalid escape sequence: \\a'],
    ['k=\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('%j: %s', (s, message) => {
    expect(errorOf(() => parseFieldSelector(s))).toBe(message);
  });

  const pod = { metadata: { name: 'web', namespace: 'default' }, spec: { nodeName: 'worker01', restartPolicy: 'Always' }, status: { phase: 'Running' } };
  it.each<[string, boolean]>([
    ['', true], ['metadata.name=web', true], ['metadata.name==web', true], ['metadata.name!=web', false],
    ['status.phase=Running,spec.nodeName=worker01', true], ['status.phase=Running,spec.nodeName!=worker01', false],
    ['spec.hostNetwork=false', true], ['status.podIP=', true],
    // the pod's field label conversion: spec.host, from old v1 clients, is spec.nodeName
    ['spec.host=worker01', true], ['spec.host!=worker01', false],
  ])('pods: %j → %s', (s, match) => {
    expect(fieldMatcher('pods', s)(pod)).toBe(match);
  });

  it('a field the resource does not select by: "field label not supported", for the first such term in sorted order', () => {
    expect(errorOf(() => fieldMatcher('pods', 'status.podIPs=x'))).toBe('field label not supported: status.podIPs');
    expect(errorOf(() => fieldMatcher('pods', 'z.y=1,metadata.labels=x'))).toBe('field label not supported: metadata.labels');
    expect(errorOf(() => fieldMatcher('nodes', 'metadata.namespace=default'))).toBe('field label not supported: metadata.namespace');
    expect(fieldMatcher('events', 'involvedObject.name=web,type=Warning')({ metadata: { name: 'e' }, involvedObject: { name: 'web' }, type: 'Warning' })).toBe(true);
  });
});
