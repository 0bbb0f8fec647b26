// How the API server decodes a patch body once it has the object (handlers/patch.go with the Warn field validation
// kubectl patch gets by sending none): the messages for every JSON value that does not fit each patch type, null's
// three meanings, and the order against NotFound. Pods and nodes share the rules.

import { describe, expect, it } from 'vitest';
import { patchBodyError } from '../../../src/sim/api/patch-body.ts';
import type { Engine } from '../../../src/sim/index.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { create, engineWith, podManifest } from './helpers.ts';

type Kind = 'merge' | 'json' | 'strategic';
const MAP = 'map[string]interface {}';

// [patch type, body, the Bad Request's message or undefined when the body decodes]
const table: [Kind, unknown, string | undefined][] = [
  ['merge', true, `error decoding patch: json: cannot unmarshal bool into Go value of type ${MAP}`],
  ['merge', 1, `error decoding patch: json: cannot unmarshal number into Go value of type ${MAP}`],
  ['merge', 'x', `error decoding patch: json: cannot unmarshal string into Go value of type ${MAP}`],
  ['merge', [1], `error decoding patch: json: cannot unmarshal array into Go value of type ${MAP}`],
  ['merge', null, 'Invalid JSON Patch'],
  ['merge', {}, undefined],
  ['strategic', false, `json: cannot unmarshal bool into Go value of type ${MAP}`],
  ['strategic', 2.5, `json: cannot unmarshal number into Go value of type ${MAP}`],
  ['strategic', [], `json: cannot unmarshal array into Go value of type ${MAP}`],
  ['strategic', null, undefined],
  ['json', { a: 1 }, 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
  ['json', true, 'error decoding patch: json: cannot unmarshal bool into Go value of type []handlers.jsonPatchOp'],
  ['json', [1], 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
  ['json', [null, 'add'], 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp'],
  ['json', [{ op: 1, path: '/a' }], 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
  ['json', [{ op: 'move', path: '/a', from: ['x'] }], 'error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.from of type string'],
  // the first error in document order is the one reported
  ['json', [{ path: true, op: 1 }], 'error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.path of type string'],
  // value is interface{}; null fits a string field; keys match exactly (Op is an unknown field, a warning only)
  ['json', [{ op: 'add', path: '/a', value: [1, { b: 2 }], from: null, Op: 3 }], undefined],
  ['json', null, undefined],
  ['json', [], undefined],
];

describe('patchBodyError: the handler\'s strict decoding of a patch body', () => {
  it.each(table)('%s %j', (type, body, message) => {
    expect(patchBodyError(type, body)).toBe(message);
  });
});

describe('patches that do not decode, through the engine and podlife\'s kubectl', () => {
  const engine = (): Engine => {
    const e = engineWith();
    create(e, podManifest('web', { image: 'nginx:1.28' }, {}, { labels: { app: 'web' } }));
    e.advanceTo(5_000);
    return e;
  };

  it('pods and nodes answer each body in the table as the server does; nothing changes', () => {
    const e = engine();
    const before = JSON.stringify(e.state().pods);
    for (const [patchType, patch, message] of table) {
      if (message === undefined) continue;
      for (const target of [{ kind: 'Pod' as const, namespace: 'default', name: 'web' }, { kind: 'Node' as const, name: 'worker01' }]) {
        const r = e.apply({ type: 'patch', ...target, patchType, patch });
        expect(r.ok ? 'applied' : r.status, `${target.kind} ${patchType} ${JSON.stringify(patch)}`).toMatchObject({ code: 400, reason: 'BadRequest', message });
      }
    }
    expect(JSON.stringify(e.state().pods)).toBe(before);
  });

  it('null: a strategic merge patch of it changes nothing, a JSON patch of it has no operations, a merge patch of it is refused', () => {
    const e = engine();
    const run = (line: string) => execute(line, { state: e.state(), apply: (a) => e.apply(a) });
    expect(run(`kubectl patch pod web -p 'null'`)).toEqual({ stdout: 'pod/web patched (no change)\n', stderr: '', exitCode: 0 });
    expect(run(`kubectl patch pod web --type=json -p 'null'`)).toEqual({ stdout: 'pod/web patched (no change)\n', stderr: '', exitCode: 0 });
    expect(run(`kubectl patch pod web --type=merge -p 'null'`)).toEqual({ stdout: '', stderr: 'Error from server (BadRequest): Invalid JSON Patch\n', exitCode: 1 });
    expect(run(`kubectl patch node worker01 -p 'null'`).stdout).toBe('node/worker01 patched (no change)\n');
  });

  it('the object is looked up first: a missing pod is NotFound whatever the body', () => {
    const e = engine();
    const run = (line: string) => execute(line, { state: e.state(), apply: (a) => e.apply(a) });
    for (const type of ['merge', 'json', 'strategic']) {
      expect(run(`kubectl patch pod nope --type=${type} -p 'true'`).stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
    }
    expect(run(`kubectl patch pod web --type=merge -p '[1]'`).stderr).toBe(`Error from server (BadRequest): error decoding patch: json: cannot unmarshal array into Go value of type ${MAP}\n`);
  });
});
