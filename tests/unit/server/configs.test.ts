// ConfigMaps and Secrets on `podlife serve`: the real kubectl creates, lists, describes, applies and deletes them
// (discovery now lists configmaps and secrets; each namespace has its kube-root-ca.crt), and podlife's own kubectl,
// given the same commands at the same virtual times, prints the same.

import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { type ClusterAction, createEngine } from '../../../src/sim/index.ts';
import { KUBECTL, SKIP_REASON, advance, kubectl, kubectlAvailable, kubectlEnv, podlifeAt, scratchFiles, startPaused, type Typed, watchesOpen } from './helpers.ts';

/** kubectl v1.33+ (what podlife models) says which namespace a deleted object was in; v1.32 does not. */
const asKubectl132Delete = (s: string): string => s.replace(/ from \S+ namespace( \(dry run\))?$/gm, '$1');

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const { file, readFile } = scratchFiles('podlife-serve-configs-');

describe.skipIf(!kubectlAvailable)('configmaps and secrets, the real kubectl against podlife serve', () => {
  it('create configmap|secret generic, get, describe, delete: the real kubectl and podlife print the same', async () => {
    server = await startPaused();
    await advance(server, '10s');
    const typed: Typed[] = [];
    const both = async (line: string, at: number, mutating = false) => {
      const real = await kubectl(server!, line.split(' '));
      const ours = podlifeAt(undefined, at, `kubectl ${line}`, { typed, readFile });
      if (mutating) typed.push({ at, run: `kubectl ${line}` });
      return { real, ours };
    };
    const same = async (line: string, at: number, mutating = false) => {
      const { real, ours } = await both(line, at, mutating);
      expect(ours, line).toEqual(real);
      return real;
    };

    expect((await same('create configmap app --from-literal=mode=prod', 10_000, true)).stdout).toBe('configmap/app created\n');
    expect((await same('create secret generic db --from-literal=password=hunter2 --type=example.com/db', 10_000, true)).stdout).toBe('secret/db created\n');
    expect((await same('create configmap app --from-literal=mode=prod', 10_000)).stderr).toBe('error: failed to create configmap: configmaps "app" already exists\n');
    await advance(server, '70s');
    for (const view of [
      'get cm', 'get configmaps -A', 'get cm app -o yaml', 'get cm -o json', 'get cm kube-root-ca.crt -n kube-system -o yaml', 'get cm -o name',
      'get secrets', 'get secret db -o yaml', 'get secret -A -o wide', 'get cm,secrets', 'get secret --field-selector type=example.com/db -o name',
      'describe cm app', 'describe cm kube-root-ca.crt', 'describe secret db', 'get cm nope', 'get secret -n kube-system', 'api-resources',
    ]) {
      await same(view, 70_000);
    }
    const { real, ours } = await both('delete cm app', 70_000, true);
    expect(real).toEqual({ ...ours, stdout: asKubectl132Delete(ours.stdout) });
    expect(ours.stdout).toBe('configmap "app" deleted from default namespace\n');
    await same('get cm app', 70_000);
    await same('delete secret nope', 70_000);
  });

  it('create -f and apply -f: created, AlreadyExists with the file named, unchanged; delete -f', async () => {
    server = await startPaused();
    await advance(server, '5s');
    const cm = file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels: {app: web}\ndata:\n  index.html: "<h1>hi</h1>\\n"\n');
    const applied = file('applied.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  k: v\n');
    const s = file('s.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: tok\nstringData:\n  token: abc\n');
    // podlife's side: the same empty cluster (seed, epoch), the same commands at the same times, the files read
    // (a scenario's own `run:` lines do not read files, so podlifeAt cannot replay these)
    const engine = createEngine({}, { seed: 1 });
    const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a), readFile };
    const same = async (line: string, at: number) => {
      const real = await kubectl(server!, line.split(' '));
      engine.advanceTo(at);
      const r = execute(`kubectl ${line}`, ctx);
      expect({ stdout: r.stdout, stderr: r.stderr, code: r.exitCode }, line).toEqual(real);
      return real;
    };
    expect((await same(`create -f ${cm}`, 5000)).stdout).toBe('configmap/web created\n');
    expect((await same(`apply -f ${s}`, 5000)).stdout).toBe('secret/tok created\n');
    expect((await same(`apply -f ${applied}`, 5000)).stdout).toBe('configmap/applied created\n');
    await advance(server, '6s');
    expect((await same(`apply -f ${applied}`, 6000)).stdout).toBe('configmap/applied unchanged\n');
    expect((await same(`create -f ${cm}`, 6000)).stderr).toBe(`Error from server (AlreadyExists): error when creating "${cm}": configmaps "web" already exists\n`);
    // (apply --dry-run=client of a change is left out: v1.32 prints the live object, v1.33+ patches it locally,
    // PatchLocal in apply.go applyOneObject, which podlife follows and configs-kubectl.test.ts checks)
    expect((await same(`apply -f ${s} --dry-run=client -o name`, 6000)).stdout).toBe('secret/tok\n');
    await same('get cm web -o yaml', 6000);
    await same('get secret tok -o yaml', 6000);
    await same('get cm -l app=web --show-labels', 6000);
    const real = await kubectl(server, ['delete', '-f', cm]);
    const ours = execute(`kubectl delete -f ${cm}`, ctx);
    expect(real).toEqual({ stdout: asKubectl132Delete(ours.stdout), stderr: ours.stderr, code: ours.exitCode });
    expect(server.cluster.engine.state().configMaps!.map((c) => c.metadata.name)).toEqual(['applied']);
  });

  it('apply -f of a change and patch: configured, patched, (no change), the immutable refusal; podlife prints the same', async () => {
    server = await startPaused();
    await advance(server, '5s');
    const v1 = file('app-v1.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: demo\n');
    const v2 = file('app-v2.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: prod\n  extra: "1"\n');
    const engine = createEngine({}, { seed: 1 });
    const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a), readFile };
    const same = async (args: string[], at: number) => {
      const real = await kubectl(server!, args);
      engine.advanceTo(at);
      const r = execute(`kubectl ${args.map((a) => (/[\s{}"]/.test(a) ? `'${a}'` : a)).join(' ')}`, ctx);
      expect({ stdout: r.stdout, stderr: r.stderr, code: r.exitCode }, args.join(' ')).toEqual(real);
      return real;
    };
    expect((await same(['apply', '-f', v1], 5000)).stdout).toBe('configmap/app created\n');
    expect((await same(['apply', '-f', v2], 5000)).stdout).toBe('configmap/app configured\n');
    expect((await same(['patch', 'cm', 'app', '-p', '{"data":{"extra":null}}'], 5000)).stdout).toBe('configmap/app patched\n');
    expect((await same(['patch', 'cm', 'app', '--type', 'merge', '-p', '{"data":{"mode":"prod"}}'], 5000)).stdout).toBe('configmap/app patched (no change)\n');
    expect((await same(['patch', 'cm', 'app', '--type', 'json', '-p', '[{"op":"add","path":"/immutable","value":true}]'], 5000)).stdout).toBe('configmap/app patched\n');
    expect((await same(['patch', 'cm', 'app', '-p', '{"data":{"mode":"x"}}'], 5000)).stderr).toBe('The ConfigMap "app" is invalid: data: Forbidden: field is immutable when `immutable` is set\n');
    await same(['patch', 'secret', 'nope', '-p', '{"data":{}}'], 5000);
    await same(['get', 'cm', 'app', '-o', 'yaml'], 5000);
    expect(server.cluster.engine.state().configMaps![0].data).toEqual({ mode: 'prod' });
  });

  it('kubectl get cm -w: a ConfigMap created and deleted while it watches is ADDED, then DELETED (the change feed has them)', async () => {
    server = await startPaused();
    const s = server;
    const child = spawn(KUBECTL, ['--server', s.url, 'get', 'cm', '-w', '--output-watch-events'], { env: kubectlEnv() });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const waitFor = async (check: () => boolean, what: string) => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
      if (!check()) throw new Error(`timed out waiting for ${what}: ${out}`);
    };
    try {
      await waitFor(() => out.includes('kube-root-ca.crt'), 'the list');
      await watchesOpen(s, 1);
      expect((await kubectl(s, ['create', 'cm', 'app', '--from-literal=a=b'])).stdout).toBe('configmap/app created\n');
      await waitFor(() => /ADDED +app /.test(out), 'ADDED app');
      await advance(s, '3s');
      expect((await kubectl(s, ['delete', 'cm', 'app'])).stdout).toBe('configmap "app" deleted\n');
      await waitFor(() => /DELETED +app /.test(out), 'DELETED app');
      const rows = out.split('\n').filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s{2,}/));
      expect(rows.map((r) => r.slice(0, 3))).toEqual([['EVENT', 'NAME', 'DATA'], ['ADDED', 'kube-root-ca.crt', '1'], ['ADDED', 'app', '1'], ['DELETED', 'app', '1']]);
      expect(rows[3][3]).toBe('3s');
    } finally {
      child.kill();
    }
  });
});

it.runIf(!kubectlAvailable)(SKIP_REASON, () => {
  expect(kubectlAvailable).toBe(false);
});
