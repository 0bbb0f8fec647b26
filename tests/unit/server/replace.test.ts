// `kubectl replace -f` on `podlife serve`: the real kubectl PUTs each object of its files, and podlife's own kubectl,
// given the same commands at the same virtual times, prints the same: replaced, the image the update may change, the
// spec it may not, a stale resourceVersion, an object that is not there; a ConfigMap replaced as a whole.

import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { type ClusterAction, createEngine } from '../../../src/sim/index.ts';
import { SKIP_REASON, advance, kubectl, kubectlAvailable, scratchFiles, startPaused } from './helpers.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const { file, readFile } = scratchFiles('podlife-serve-replace-');

describe.skipIf(!kubectlAvailable)('kubectl replace, the real kubectl against podlife serve', () => {
  it('replaced, the update rules, Conflict and NotFound named with the file; podlife prints the same', async () => {
    server = await startPaused();
    const engine = createEngine({}, { seed: 1 });
    const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a), readFile };
    const same = async (args: string[], at: number) => {
      const real = await kubectl(server!, args);
      engine.advanceTo(at);
      const r = execute(`kubectl ${args.join(' ')}`, ctx);
      expect({ stdout: r.stdout, stderr: r.stderr, code: r.exitCode }, args.join(' ')).toEqual(real);
      return real;
    };
    const pod = (image: string, extra = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  containers:\n  - name: web\n    image: ${image}\n${extra}`;
    await advance(server, '5s');
    await same(['create', '-f', file('v1.yaml', pod('nginx:1.28'))], 5000);
    await advance(server, '10s');
    // the pod as it is, its image changed (the kubectl docs' `get -o yaml | sed | replace -f -`): replaced, and the
    // kubelet restarts the container for it
    const got = await same(['get', 'pod', 'web', '-o', 'yaml'], 10_000);
    expect((await same(['replace', '-f', file('v2.yaml', got.stdout.replace('image: nginx:1.28', 'image: nginx:1.29'))], 10_000)).stdout).toBe('pod/web replaced\n');
    // the manifest it was created from leaves out what the server set on create (the node, the service account's
    // volume): the server's Forbidden, with the file named (a real server adds a diff of the two specs)
    const forbidden = await same(['replace', '-f', file('v1-again.yaml', pod('nginx:1.29'))], 10_000);
    expect(forbidden.stderr).toMatch(/^The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than /);
    // an unknown field: the strict decoder's error
    await same(['replace', '-f', file('typo.yaml', pod('nginx:1.29', '    imagePullPolicyy: Always\n'))], 10_000);
    // the pod as kubectl got it before, with that resourceVersion, replaced after the pod changed: Conflict
    const stale = file('stale.yaml', got.stdout.replace('image: nginx:1.28', 'image: nginx:1.30'));
    await same(['label', 'pod', 'web', 'tier=front'], 10_000);
    expect((await same(['replace', '-f', stale], 10_000)).stderr).toMatch(/^Error from server \(Conflict\): error when replacing ".*stale\.yaml": Operation cannot be fulfilled on pods "web"/);
    await same(['replace', '-f', file('other.yaml', pod('nginx:1.29').replace('name: web\n  labels', 'name: other\n  labels'))], 10_000);
    // a ConfigMap is replaced as a whole: a key left out is gone
    await same(['create', 'configmap', 'app', '--from-literal=mode=demo', '--from-literal=extra=1'], 10_000);
    const cm = file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: prod\n');
    expect((await same(['replace', '-f', cm], 10_000)).stdout).toBe('configmap/app replaced\n');
    await same(['get', 'cm', 'app', '-o', 'jsonpath={.data}'], 10_000);
    await same(['replace', '-f', cm, '--dry-run=client', '-o', 'name'], 10_000);
    await same(['replace', '-f', file('nocm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nope\n')], 10_000);
    await same(['replace', '-f', cm, '--grace-period=3'], 10_000);
    await advance(server, '20s');
    await same(['get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[0].image},{.status.containerStatuses[0].image},{.status.containerStatuses[0].restartCount},{.metadata.generation}'], 20_000);
    expect(server.cluster.engine.state().configMaps!.find((c) => c.metadata.name === 'app')!.data).toEqual({ mode: 'prod' });
  });
  it('--force: deleted, then, once the pod is gone, created from the file; podlife\'s client does the same on the virtual clock', async () => {
    server = await startPaused();
    await advance(server, '5s');
    const v1 = file('force-v1.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.28\n');
    const v2 = file('force-v2.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: busybox:1.37\n    command: [sleep, "3600"]\n');
    await kubectl(server, ['create', '-f', v1]);
    await advance(server, '10s');
    // kubectl asks every second (real time) whether the pod is gone; virtual time moves on meanwhile
    const real = kubectl(server, ['replace', '--force', '-f', v2, '--timeout=60s'], { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 300));
    await advance(server, '15s');
    const done = await real;
    const engine = createEngine({}, { seed: 1 });
    const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a), readFile };
    execute(`kubectl create -f ${v1}`, ctx);
    engine.advanceTo(10_000);
    const ours = execute(`kubectl replace --force -f ${v2} --timeout=60s`, ctx);
    // (kubectl v1.33+ says which namespace a deleted object was in; the machine's v1.32 does not)
    expect({ stdout: ours.stdout.replace(' from default namespace', ''), stderr: ours.stderr, code: ours.exitCode }).toEqual(done);
    engine.advanceTo(15_000);
    for (const pods of [server.cluster.engine.state().pods, engine.state().pods]) {
      expect(pods.map((p) => [p.metadata.name, p.spec.containers[0].image, p.metadata.deletionTimestamp])).toEqual([['web', 'busybox:1.37', undefined]]);
    }
  });
  it.skipIf(kubectlAvailable)(SKIP_REASON, () => {});
});
