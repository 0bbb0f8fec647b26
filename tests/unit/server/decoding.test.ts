// Request decoding with the API server's messages: Go's encoding/json syntax errors (the cases of Go's own
// decode tests), the create decoder's "the object provided is unrecognized" wrapper with summarizeData,
// patch types by Content-Type, and DeleteOptions from the query and the body.

import { describe, expect, it } from 'vitest';
import { GoJsonError, parseGoJson } from '../../../src/server/gojson.ts';
import { parseCreateBody, parseDeleteOptions, patchTypeOf } from '../../../src/server/patch.ts';
import { HttpError } from '../../../src/server/status.ts';

function goError(text: string): string {
  try {
    parseGoJson(text);
  } catch (e) {
    if (e instanceof GoJsonError) return e.message;
    throw e;
  }
  throw new Error(`${text} parsed`);
}

function httpError(f: () => unknown): { code: number; reason: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof HttpError) return { code: e.status.code, reason: e.status.reason, message: e.status.message };
    throw e;
  }
  throw new Error('no error');
}

describe("Go's encoding/json syntax errors", () => {
  // upstream: go/src/encoding/json/decode_test.go (unmarshalTests: SyntaxError cases) and scanner.go
  it.each([
    ['{"X": "foo", "Y"}', "invalid character '}' after object key"],
    ['[1, 2, 3+]', "invalid character '+' after array element"],
    ['{"X":12x}', "invalid character 'x' after object key:value pair"],
    ['[2, 3', 'unexpected end of JSON input'],
    ['{"F3": -}', "invalid character '}' in numeric literal"],
    ['', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ['trUe', "invalid character 'U' in literal true (expecting 'u')"],
    ['"\\q"', "invalid character 'q' in string escape code"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1e+x', "invalid character 'x' in exponent of numeric literal"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
  ])('%j → %s', (text, message) => {
    expect(goError(text)).toBe(message);
  });

  it('valid JSON parses as JSON.parse does', () => {
    expect(parseGoJson(' {"a":[1,2.5e3,"x\\u00e9"],"b":null} ')).toEqual({ a: [1, 2500, 'xé'], b: null });
  });
});

describe('request bodies', () => {
  it('a create body that is not JSON: 400, the decoder error, and the start of the body (summarizeData)', () => {
    expect(httpError(() => parseCreateBody(Buffer.from('{"kind":'), 'application/json', 'Pod'))).toEqual({
      code: 400, reason: 'BadRequest',
      message: 'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"kind":)',
    });
    // not starting with "{": shown as hex, cut at 30 bytes
    expect(httpError(() => parseCreateBody(Buffer.from('kind: Pod, this is yaml and not json at all'), 'application/json', 'Pod')).message).toBe(
      "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: invalid character 'k' looking for beginning of value " +
        `(${Buffer.from('kind: Pod, this is yaml and no').toString('hex')} ...)`,
    );
    expect(httpError(() => parseCreateBody(Buffer.from('{}'), 'application/vnd.kubernetes.protobuf', 'Pod')).code).toBe(415);
    expect(parseCreateBody(Buffer.from('metadata: {name: a}\n'), 'application/yaml', 'Pod')).toEqual({ metadata: { name: 'a' } });
  });

  it('patch types by Content-Type; server-side apply is refused with what to do instead', () => {
    expect(patchTypeOf('application/merge-patch+json')).toBe('merge');
    expect(patchTypeOf('application/json-patch+json; charset=utf-8')).toBe('json');
    expect(patchTypeOf('application/strategic-merge-patch+json')).toBe('strategic');
    expect(httpError(() => patchTypeOf('application/apply-patch+yaml'))).toMatchObject({ code: 400, message: expect.stringContaining('kubectl apply without --server-side') });
    expect(httpError(() => patchTypeOf('text/plain'))).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
  });

  it('DeleteOptions: the body wins over the query; bad values are refused', () => {
    const q = new URLSearchParams('gracePeriodSeconds=30&propagationPolicy=Orphan');
    expect(parseDeleteOptions(q, Buffer.alloc(0))).toEqual({ gracePeriodSeconds: 30, propagationPolicy: 'Orphan' });
    expect(parseDeleteOptions(q, Buffer.from('{"gracePeriodSeconds":0,"propagationPolicy":"Background","preconditions":{"uid":"u"}}'))).toEqual({
      gracePeriodSeconds: 0, propagationPolicy: 'Background', preconditions: { uid: 'u' },
    });
    expect(httpError(() => parseDeleteOptions(new URLSearchParams('propagationPolicy=Sometimes'), Buffer.alloc(0)))).toMatchObject({
      code: 422, reason: 'Invalid', message: expect.stringContaining('propagationPolicy: Unsupported value: "Sometimes"'),
    });
    expect(httpError(() => parseDeleteOptions(new URLSearchParams('gracePeriodSeconds=soon'), Buffer.alloc(0))).code).toBe(400);
    expect(httpError(() => parseDeleteOptions(new URLSearchParams(), Buffer.from('{"gracePeriodSeconds":')))).toEqual({
      code: 400, reason: 'BadRequest', message: 'unexpected end of JSON input',
    });
    expect(httpError(() => parseDeleteOptions(new URLSearchParams('dryRun=All'), Buffer.alloc(0))).message).toContain('use --dry-run=client');
  });
});
