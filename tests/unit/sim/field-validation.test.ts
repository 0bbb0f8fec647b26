// Field validation as the API server applies it to a request's object: Strict refuses unknown fields, Warn (the
// server's default, which kubectl patch gets) drops each with a warning, Ignore drops them; a wrong type is an error
// under all three. kubectl prints the warnings as "Warning: …" before its result, and sends what --validate says.

import { describe, expect, it } from 'vitest';
import { goPlusV, withoutUnknown } from '../../../src/sim/api/schema.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import type { Engine, FieldValidation } from '../../../src/sim/index.ts';
import { create, engineWith, podManifest } from './helpers.ts';

const engine = (): Engine => {
  const e = engineWith();
  create(e, podManifest('web', { image: 'nginx:1.28' }, {}, { labels: { app: 'web' } }));
  e.advanceTo(5_000);
  return e;
};

const typo = () => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'typo', labelz: { a: 'b' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.28', imagee: 'x' }], bogus: true },
});

describe('creating a pod with unknown fields', () => {
  it.each<[FieldValidation | undefined, string[] | undefined]>([
    ['Warn', ['unknown field "metadata.labelz"', 'unknown field "spec.containers[0].imagee"', 'unknown field "spec.bogus"']],
    ['Ignore', undefined],
  ])('%s: created without them', (fieldValidation, warnings) => {
    const e = engine();
    const obj = typo();
    const r = e.apply({ type: 'create', namespace: 'default', obj, ...(fieldValidation ? { fieldValidation } : {}) });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual(warnings);
    expect(r.object.metadata).not.toHaveProperty('labelz');
    expect(r.object.spec).not.toHaveProperty('bogus');
    expect(r.object.spec.containers[0]).not.toHaveProperty('imagee');
    expect(r.object.spec.containers[0].image).toBe('nginx:1.28');
    // what the caller sent is left as it was
    expect(obj).toEqual(typo());
  });

  it('Strict (the default, what kubectl create and apply ask for): refused, every unknown field named', () => {
    for (const fieldValidation of [undefined, 'Strict'] as const) {
      const r = engine().apply({ type: 'create', namespace: 'default', obj: typo(), ...(fieldValidation ? { fieldValidation } : {}) });
      expect(r.ok ? r : r.status).toMatchObject({
        code: 400, reason: 'BadRequest',
        message: 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.labelz", unknown field "spec.containers[0].imagee", unknown field "spec.bogus"',
      });
    }
  });

  it('a wrong type is an error under every directive', () => {
    for (const fieldValidation of ['Strict', 'Warn', 'Ignore'] as const) {
      const obj = { ...typo(), spec: { containers: [{ name: 'app', image: 'nginx:1.28' }], activeDeadlineSeconds: 'soon' } };
      const r = engine().apply({ type: 'create', namespace: 'default', obj, fieldValidation });
      expect(r.ok ? r : r.status.message, fieldValidation).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64');
    }
  });
});

describe('patching with unknown fields', () => {
  const patches: [string, 'merge' | 'json' | 'strategic', unknown, string][] = [
    ['a typo for finalizers', 'merge', { metadata: { finalizer: [] } }, 'unknown field "metadata.finalizer"'],
    ['a field the container does not have', 'strategic', { spec: { containers: [{ name: 'web', imagee: 'x' }] } }, 'unknown field "spec.containers[0].imagee"'],
    ['an added field', 'json', [{ op: 'add', path: '/spec/bogus', value: 1 }], 'unknown field "spec.bogus"'],
  ];

  it.each(patches)('%s (%s): Warn by default, the pod unchanged, one warning', (_what, patchType, patch, warning) => {
    const e = engine();
    const before = JSON.stringify(e.state().pods[0]);
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType, patch });
    expect(r).toMatchObject({ ok: true, unchanged: true, warnings: [warning] });
    expect(JSON.stringify(e.state().pods[0])).toBe(before);
  });

  it('the known fields of the same patch are taken; Ignore takes them without a warning; Strict refuses the patch', () => {
    const patch = { metadata: { labels: { tier: 'front' } }, spec: { bogus: 1 } };
    const e = engine();
    const warned = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', patch });
    expect(warned).toMatchObject({ ok: true, warnings: ['unknown field "spec.bogus"'] });
    expect(e.state().pods[0].metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(e.state().pods[0].spec).not.toHaveProperty('bogus');
    const ignored = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', patch: { ...patch, metadata: { labels: { tier: 'back' } } }, fieldValidation: 'Ignore' });
    expect(ignored.ok && ignored.warnings).toBeUndefined();
    expect(e.state().pods[0].metadata.labels).toEqual({ app: 'web', tier: 'back' });
    const strict = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', patch, fieldValidation: 'Strict' });
    expect(strict.ok ? strict : strict.status.message).toBe('Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus"');
    expect(e.state().pods[0].metadata.labels).toEqual({ app: 'web', tier: 'back' });
  });

  it('a node patch is decoded the same way', () => {
    const e = engine();
    const r = e.apply({ type: 'patch', kind: 'Node', name: 'worker01', patchType: 'strategic', patch: { metadata: { labels: { disk: 'ssd' } }, spec: { unschedulabel: true } } });
    expect(r).toMatchObject({ ok: true, warnings: ['unknown field "spec.unschedulabel"'] });
    expect(e.state().nodes[0].metadata.labels).toMatchObject({ disk: 'ssd' });
    expect(e.state().nodes[0].spec).not.toHaveProperty('unschedulabel');
    const strict = e.apply({ type: 'patch', kind: 'Node', name: 'worker01', patchType: 'merge', patch: { spec: { x: 1 } }, fieldValidation: 'Strict' });
    expect(strict.ok ? strict : strict.status.message).toBe('Node in version "v1" cannot be handled as a Node: strict decoding error: unknown field "spec.x"');
  });
});

describe('kubectl and the warnings', () => {
  const run = (e: Engine, line: string, files: Record<string, string> = {}) =>
    execute(line, { state: e.state(), apply: (a) => e.apply(a), readFile: (f: string) => files[f] });

  it('kubectl patch prints each warning before its result, as the response brings them', () => {
    const e = engine();
    const r = run(e, `kubectl patch pod web --type=merge -p '{"metadata":{"finalizer":[],"labelz":{}}}'`);
    expect(r).toMatchObject({ stdout: 'pod/web patched (no change)\n', stderr: 'Warning: unknown field "metadata.finalizer"\nWarning: unknown field "metadata.labelz"\n', exitCode: 0 });
    expect(r.writes?.map((w) => w[0])).toEqual([2, 1]);
  });

  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo\nspec:\n  containers:\n  - name: app\n    image: nginx:1.28\n    imagee: x\n';

  it.each([
    ['--validate=warn', 'Warning: unknown field "spec.containers[0].imagee"\n'],
    ['--validate=false', ''],
    ['--validate=ignore', ''],
  ])('kubectl create -f %s: created, without the field', (flag, stderr) => {
    const e = engine();
    expect(run(e, `kubectl create -f typo.yaml ${flag}`, { 'typo.yaml': manifest })).toMatchObject({ stdout: 'pod/typo created\n', stderr, exitCode: 0 });
    expect(e.state().pods.find((p) => p.metadata.name === 'typo')!.spec.containers[0]).not.toHaveProperty('imagee');
  });

  it('kubectl create and apply refuse unknown fields by default (--validate=strict); apply --validate=warn creates with a warning', () => {
    const e = engine();
    const files = { 'typo.yaml': manifest };
    expect(run(e, 'kubectl create -f typo.yaml', files).stderr).toBe(
      'Error from server (BadRequest): error when creating "typo.yaml": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagee"\n',
    );
    expect(run(e, 'kubectl apply -f typo.yaml --validate=true', files).exitCode).toBe(1);
    expect(run(e, 'kubectl apply -f typo.yaml --validate=warn', files)).toMatchObject({ stdout: 'pod/typo created\n', stderr: 'Warning: unknown field "spec.containers[0].imagee"\n' });
    expect(run(e, 'kubectl apply -f typo.yaml --validate=maybe', files).stderr).toBe('error: invalid - validate option "maybe"; must be one of: strict (or true), warn, ignore (or false)\n');
  });
});

describe('a strategic merge patch that does not convert: a 422 on "patch", the patch printed with %+v', () => {
  // what the unstructured converter (runtime/converter.go) says for each mismatch; the first in the object's order
  it.each([
    ['{"spec":{"activeDeadlineSeconds":"30"}}', 'map[spec:map[activeDeadlineSeconds:30]]', 'unrecognized type: int64'],
    ['{"spec":{"activeDeadlineSeconds":1.5}}', 'map[spec:map[activeDeadlineSeconds:1.5]]', 'cannot convert float64 to int64'],
    ['{"spec":{"terminationGracePeriodSeconds":true}}', 'map[spec:map[terminationGracePeriodSeconds:true]]', 'unrecognized type: int64'],
    ['{"metadata":{"labels":{"a":1}}}', 'map[metadata:map[labels:map[a:1]]]', 'cannot convert int64 to string'],
    ['{"metadata":{"labels":{"a":0.5}}}', 'map[metadata:map[labels:map[a:0.5]]]', 'unrecognized type: string'],
    ['{"metadata":{"labels":"x"}}', 'map[metadata:map[labels:x]]', 'cannot restore map from string'],
    ['{"metadata":{"finalizers":"x"}}', 'map[metadata:map[finalizers:x]]', 'cannot restore slice from string'],
    ['{"spec":{"containers":[{"name":"web","image":["a","b"]}]}}', 'map[spec:map[containers:[map[image:[a b] name:web]]]]', 'unrecognized type: string'],
    ['{"spec":{"containers":[{"name":"web","resources":{"limits":{"cpu":true}}}]}}', 'map[spec:map[containers:[map[name:web resources:map[limits:map[cpu:true]]]]]]',
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ])('%s', (patch, value, detail) => {
    const e = engine();
    const r = execute(`kubectl patch pod web -p '${patch}'`, { state: e.state(), apply: (a) => e.apply(a) });
    expect(r).toEqual({ stdout: '', stderr: `The request is invalid: patch: Invalid value: ${JSON.stringify(value)}: ${detail}\n`, exitCode: 1 });
    const status = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', patch: JSON.parse(patch) });
    expect(status.ok ? status : status.status).toMatchObject({
      code: 422, reason: 'Invalid', message: ` "" is invalid: patch: Invalid value: ${JSON.stringify(value)}: ${detail}`,
      details: { causes: [{ reason: 'FieldValueInvalid', field: 'patch', message: `Invalid value: ${JSON.stringify(value)}: ${detail}` }] },
    });
  });

  it('under Strict an unknown field is the same 422, the fields sorted (kubectl apply\'s patch)', () => {
    const patch = { spec: { zeta: 1, containers: [{ name: 'web', imagee: 'x' }] } };
    const r = engine().apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', patch, fieldValidation: 'Strict' });
    expect(r.ok ? r : r.status.message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[containers:[map[imagee:x name:web]] zeta:1]]": strict decoding error: unknown field "spec.containers[0].imagee", unknown field "spec.zeta"');
  });

  it('goPlusV prints as Go\'s %+v does: sorted keys, bare strings, <nil>, floats in their shortest form', () => {
    expect(goPlusV({ b: [1, 'x y', null], a: { d: true, c: false } })).toBe('map[a:map[c:false d:true] b:[1 x y <nil>]]');
    expect([0.5, 1e-5, 0.0001, 1.5e21, 1e20, -2.5e-7].map(goPlusV)).toEqual(['0.5', '1e-05', '0.0001', '1.5e+21', '100000000000000000000', '-2.5e-07']);
  });
});

describe('withoutUnknown', () => {
  it('drops the fields at the paths given, copying only what leads to them', () => {
    const shared = { keep: 1 };
    const raw = { a: { b: 1, c: 2 }, list: [{ x: 1, y: 2 }, shared], d: shared };
    const out = withoutUnknown(raw, [['a', 'c'], ['list', 0, 'y']]);
    expect(out).toEqual({ a: { b: 1 }, list: [{ x: 1 }, { keep: 1 }], d: { keep: 1 } });
    expect(raw).toEqual({ a: { b: 1, c: 2 }, list: [{ x: 1, y: 2 }, shared], d: shared });
    expect(out.d).toBe(shared);
    expect(withoutUnknown(raw, [])).toBe(raw);
  });
});
