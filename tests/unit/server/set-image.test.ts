// `kubectl set image` on `podlife serve`: the real kubectl computes its patch and sends it, and podlife's own kubectl,
// given the same commands at the same virtual times, prints the same, errors included; the kubelet restarts the
// container for the new image either way.

import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { type ClusterAction, createEngine } from '../../../src/sim/index.ts';
import { SKIP_REASON, advance, kubectl, kubectlAvailable, startPaused } from './helpers.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(!kubectlAvailable)('kubectl set image, the real kubectl against podlife serve', () => {
  it('image updated, nothing sent when nothing changes, the errors of each stage; podlife prints the same', async () => {
    server = await startPaused();
    const engine = createEngine({}, { seed: 1 });
    const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a) };
    const same = async (args: string[], at: number, asReal = (s: string) => s) => {
      const real = await kubectl(server!, args);
      engine.advanceTo(at);
      const r = execute(`kubectl ${args.join(' ')}`, ctx);
      expect({ stdout: asReal(r.stdout), stderr: r.stderr, code: r.exitCode }, args.join(' ')).toEqual(real);
      return real;
    };
    await advance(server, '5s');
    await same(['run', 'web', '--image=nginx:1.28'], 5000);
    await advance(server, '10s');
    expect((await same(['set', 'image', 'pod/web', 'web=nginx:1.29'], 10_000)).stdout).toBe('pod/web image updated\n');
    // the same image again: the patch is empty, so nothing is sent and nothing printed
    expect(await same(['set', 'image', 'pod/web', 'web=nginx:1.29'], 10_000)).toEqual({ stdout: '', stderr: '', code: 0 });
    expect((await same(['set', 'image', 'pod/web', 'foo=nginx:1'], 10_000)).stderr).toBe('error: unable to find container named "foo"\n');
    expect((await same(['set', 'image', 'pod', 'web', '*=nginx:1.30', '--dry-run=client'], 10_000)).stdout).toBe('pod/web image updated (dry run)\n');
    await same(['set', 'image', 'pod/web'], 10_000);
    await same(['set', 'image', 'web=x'], 10_000);
    await same(['set', 'image', 'pod/nope', 'pod/gone', 'a=b'], 10_000);
    await same(['set', 'image', 'pod/web', 'a=b', 'c'], 10_000);
    await same(['set', 'image', 'pod/web', '*=b', 'a=c'], 10_000);
    await same(['set', 'image', 'pods', 'web=x'], 10_000);
    await same(['set', 'image', 'pods', '-l', 'app=none', 'web=x'], 10_000);
    await same(['set', 'image', 'pod/web', 'web='], 10_000);
    // an object without a pod spec, and a container not found, together: one error per line
    await same(['set', 'image', 'node/worker01', 'pod/web', 'foo=x'], 10_000);
    await same(['set'], 10_000);
    await same(['set', 'foo'], 10_000);
    await advance(server, '20s');
    expect((await same(['set', 'image', 'pods', '--all', 'web=nginx:1.31', '-o', 'name'], 20_000)).stdout).toBe('pod/web\n');
    await advance(server, '30s');
    // set image prints the pod decoded into kubectl's own types: v1.32's have no status.observedGeneration (v1.33+)
    const typed132 = (yaml: string) => yaml.replace(/^ *observedGeneration: \d+\n/gm, '');
    expect((await same(['set', 'image', 'pod/web', 'web=nginx:1.32', '-o', 'yaml'], 30_000, typed132)).stdout).toMatch(/^  - image: nginx:1\.32$/m);
    await advance(server, '40s');
    await same(['get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[0].image},{.status.containerStatuses[0].image},{.status.containerStatuses[0].restartCount}'], 40_000);
    const st = server.cluster.engine.state().pods[0].status.containerStatuses![0];
    expect([st.image, st.restartCount]).toEqual(['docker.io/library/nginx:1.32', 3]);
  });
  it.skipIf(kubectlAvailable)(SKIP_REASON, () => {});
});
