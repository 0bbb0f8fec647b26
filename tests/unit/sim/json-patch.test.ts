// JSON patch as the API server and kubectl apply it (gopkg.in/evanphx/json-patch.v4): the library's own test
// tables, ported (tests/fixtures/json-patch-v4.json), and the messages a real kubectl printed for patches applied
// with `kubectl patch --local -f pod.json --type=json` (kubectl v1.32, the same library; recorded on this project's
// development machine).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_SERVER_COPY_LIMIT, jsonPatch, PatchDecodeError, PatchError } from '../../../src/sim/api/json-patch.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { create, engineWith, podManifest } from './helpers.ts';

interface Vectors {
  cases: { doc: unknown; patch: unknown; result: unknown }[];
  mutations: { doc: unknown; patch: unknown }[];
  bad: { doc: unknown; patch: unknown }[];
  tests: { doc: unknown; patch: unknown; result: boolean; failedPath: string }[];
}
const vectors = JSON.parse(readFileSync(new URL('../../fixtures/json-patch-v4.json', import.meta.url), 'utf8')) as Vectors;

/** The patch's error message, or undefined when it applies. */
function failure(doc: unknown, patch: unknown, limit = 0): string | undefined {
  try {
    jsonPatch(doc, patch, limit);
    return undefined;
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    return e.message;
  }
}

describe('json-patch v4 test tables (patch_test.go)', () => {
  it.each(vectors.cases.map((c, i) => [i, c] as const))('Cases[%i] applies', (_, c) => {
    expect(jsonPatch(c.doc, c.patch)).toEqual(c.result);
  });
  it.each(vectors.mutations.map((c, i) => [i, c] as const))('MutationTestCases[%i] changes the document', (_, c) => {
    expect(jsonPatch(c.doc, c.patch)).not.toEqual(c.doc);
  });
  it.each(vectors.bad.map((c, i) => [i, c] as const))('BadCases[%i] fails', (_, c) => {
    expect(failure(c.doc, c.patch)).toEqual(expect.any(String));
  });
  it.each(vectors.tests.map((c, i) => [i, c] as const))('TestCases[%i]: the test operation', (_, c) => {
    expect(failure(c.doc, c.patch)).toBe(c.result ? undefined : `testing value ${c.failedPath} failed: test failed`);
  });
  it('the accumulated copy size limit (BadCases, with the limit of 100 the table runs under)', () => {
    const doc = { foo: ['A', 'A'.repeat(49)] };
    const copy = { op: 'copy', path: '/foo/-', from: '/foo/1' };
    expect(failure(doc, [copy], 100)).toBeUndefined();
    expect(failure(doc, [copy, copy], 100)).toBe('Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100');
    // kubectl sets no limit
    expect(failure(doc, [copy, copy])).toBeUndefined();
  });
  it('leaves the document it was given as it was', () => {
    const doc = { a: { b: [1, 2] } };
    jsonPatch(doc, [{ op: 'remove', path: '/a/b/0' }, { op: 'add', path: '/c', value: 1 }]);
    expect(doc).toEqual({ a: { b: [1, 2] } });
  });
});

describe('what kubectl v1.32 printed for the same patches (kubectl patch --local, error: stripped)', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', labels: { run: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
  const errors: [unknown, string][] = [
    [[{ op: 'remove', path: '/metadata/annotations/zz' }], 'remove operation does not apply: doc is missing path: "/metadata/annotations/zz": missing value'],
    [[{ op: 'remove', path: '/metadata/labels/zz' }], "error in remove for path: '/metadata/labels/zz': Unable to remove nonexistent key: zz: missing value"],
    [[{ op: 'remove', path: '/spec/containers/1' }], "error in remove for path: '/spec/containers/1': Unable to access invalid index: 1: invalid index referenced"],
    [[{ op: 'test', path: '/metadata/name', value: 'nope' }], 'testing value /metadata/name failed: test failed'],
    [{ a: 1 }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    [['a'], 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
    [[{ op: 'bogus', path: '/a' }], 'Unexpected kind: bogus'],
    [[{ path: '/a' }], 'Unexpected kind: unknown'],
    [[{ op: 'add', path: '/metadata/nope/x', value: 1 }], 'add operation does not apply: doc is missing path: "/metadata/nope/x": missing value'],
    [[{ op: 'add', path: '/spec/containers/x', value: {} }], "error in add for path: '/spec/containers/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax"],
    [[{ op: 'replace', path: '/spec/containers/5/image', value: 'y' }], 'replace operation does not apply: doc is missing path: /spec/containers/5/image: missing value'],
    // kubectl rewords this one: "Object to be patched is missing field (/spec/containers/5: missing value)"
    [[{ op: 'replace', path: '/spec/containers/5', value: {} }], 'replace operation does not apply: doc is missing key: /spec/containers/5: missing value'],
    [[{ op: 'move', from: '/metadata/labels/q', path: '/metadata/labels/r2' }], "error in move for path: 'q': Unable to remove nonexistent key: q: missing value"],
    [[{ op: 'copy', from: '/metadata/labels', path: '/spec/containers/9' }], 'error while adding value during copy: Unable to access invalid index: 9: invalid index referenced'],
  ];
  it.each(errors)('%j fails with the library\'s message', (patch, message) => {
    expect(failure(pod, patch)).toBe(message);
  });
  it('and what v4 lets through: replace adds a missing key, -1 appends and removes the last, copy of nothing is null', () => {
    const p = (patch: unknown) => jsonPatch(pod, patch) as typeof pod & { metadata: Record<string, unknown> };
    expect(p([{ op: 'replace', path: '/metadata/labels/x', value: 'y' }]).metadata.labels).toEqual({ run: 'web', x: 'y' });
    expect(p([{ op: 'add', path: '/spec/containers/-1', value: { name: 'z' } }]).spec.containers.map((c) => c.name)).toEqual(['web', 'z']);
    expect(p([{ op: 'remove', path: '/spec/containers/-1' }]).spec.containers).toEqual([]);
    expect(p([{ op: 'copy', from: '/metadata/nolabel', path: '/metadata/x' }]).metadata.x).toBeNull();
    expect(p([{ op: 'move', from: '/metadata/labels/run', path: '/metadata/labels/r2' }]).metadata.labels).toEqual({ r2: 'web' });
    expect(p(null)).toEqual(pod);
  });
});

describe('the API server applies JSON patches with the same library', () => {
  const engine = () => {
    const e = engineWith();
    create(e, podManifest('web', { image: 'nginx:1.28' }, {}, { labels: { app: 'web' } }));
    return e;
  };
  const patch = (e: ReturnType<typeof engine>, p: unknown) => e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'json', patch: p });
  it('a replace of a label the pod lacks adds it, as on a real cluster', () => {
    const r = patch(engine(), [{ op: 'replace', path: '/metadata/labels/tier', value: 'web' }]);
    expect(r.ok && r.object.metadata.labels).toEqual({ app: 'web', tier: 'web' });
  });
  it('kubectl prints the answers as it prints a real API server\'s', () => {
    const e = engine();
    const run = (line: string) => execute(line, { state: e.state(), apply: (a) => e.apply(a) });
    expect(run(`kubectl patch pod web --type=json -p '[{"op":"replace","path":"/metadata/labels/x","value":"y"}]'`).stdout).toBe('pod/web patched\n');
    expect(run(`kubectl patch pod web --type=json -p '[{"op":"remove","path":"/metadata/labels/zz"}]'`)).toEqual({
      stdout: '', stderr: 'The request is invalid: the server rejected our request due to an error in our request\n', exitCode: 1,
    });
    expect(run(`kubectl patch pod web --type=json -p '{"a":1}'`).stderr).toBe('Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp\n');
    // the server decodes the patch once it has the object: a missing pod is NotFound whatever the patch
    expect(run(`kubectl patch pod nope --type=json -p '{"a":1}'`).stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
    expect(e.state().pods[0].metadata.labels).toEqual({ app: 'web', x: 'y' });
  });
  it('a patch that is not a list of operations is a Bad Request (the handler\'s strict decoding), one that does not apply is Invalid (422)', () => {
    const e = engine();
    expect(patch(e, { a: 1 })).toMatchObject({ ok: false, status: { reason: 'BadRequest', code: 400, message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp' } });
    expect(patch(e, [{ op: 'test', path: '/metadata/name', value: 'x' }])).toMatchObject({ ok: false, status: { reason: 'Invalid', code: 422, details: {} } });
  });
  it('copies are limited to JSONPatchMaxCopyBytes (3 MiB): a patch over it changes nothing', () => {
    const e = engine();
    const big = 'x'.repeat(1024 * 1024);
    expect(patch(e, [{ op: 'add', path: '/metadata/annotations', value: { big } }]).ok).toBe(true);
    const copy = { op: 'copy', from: '/metadata/annotations/big', path: '/metadata/annotations/c' };
    const ops = [copy, { ...copy, path: '/metadata/annotations/d' }, { ...copy, path: '/metadata/annotations/e' }];
    expect(failure({ metadata: { annotations: { big } } }, ops, API_SERVER_COPY_LIMIT)).toBe(
      `Unable to complete the copy, the accumulated size increase of copy is ${3 * (big.length + 2)}, exceeding the limit ${API_SERVER_COPY_LIMIT}`,
    );
    expect(patch(e, ops)).toMatchObject({ ok: false, status: { code: 422 } });
    expect(patch(e, ops.slice(0, 2)).ok).toBe(true);
    expect(PatchDecodeError.prototype).toBeInstanceOf(PatchError);
  });
});
