// ConfigMaps and Secrets against the real kubectl (/usr/bin/kubectl, a v1.32 client): what `kubectl create configmap`
// and `kubectl create secret generic` build and print client-side (--dry-run=client, and their errors), run in a
// directory holding the same files podlife is given; and how `kubectl get -o yaml|json|jsonpath` and `kubectl
// describe` print the objects of a podlife engine, served by a minimal API server on loopback. Where kubectl changed
// between v1.32 and v1.36 the difference is named and checked against the v1.36 source instead. Skipped, with the
// reason, where no kubectl is installed.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fakeApiServer, type FakeApiServer } from './fake-apiserver.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/sim/index.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { clusterConfigMaps, clusterSecrets } from '../../../src/sim/api/namespaces.ts';
import type { ClusterAction } from '../../../src/sim/types.ts';
import { withoutNullCreationTimestamp } from '../server/helpers.ts';

const KUBECTL = '/usr/bin/kubectl';
const available = existsSync(KUBECTL);

const FILES: Record<string, string> = {
  'f.txt': 'hello\nworld\n',
  'dir/one': 'x',
  'dir/two': 'a: b\n',
  'dir/sub/three': 'z',
  'e.env': '# a comment\n\n  A=1\nB=2=3\nC=\nD= spaced \n',
  'bad.env': 'OK=1\n1A=1\n',
  'odd.txt': 'a <b> & "c"\ttab\n',
};

const dir = mkdtempSync(path.join(tmpdir(), 'podlife-configs-'));
for (const [name, text] of Object.entries(FILES)) {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), text);
}

interface Run {
  stdout: string;
  stderr: string;
  code: number;
}

function kubectl(args: string[], server?: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      KUBECTL, [...(server ? ['--server', server] : []), ...args],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: '/dev/null', TZ: 'Asia/Shanghai' } },
      (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? (typeof err.code === 'number' ? err.code : -1) : 0 }),
    );
  });
}

function podlifeClient(line: string): Run {
  const engine = createEngine({}, { seed: 1 });
  const r = execute(line, { state: engine.state(), apply: (a: ClusterAction) => engine.apply(a), files: FILES });
  return { stdout: r.stdout, stderr: r.stderr, code: r.exitCode };
}

describe.skipIf(!available)('kubectl create configmap|secret generic --dry-run=client: the object kubectl builds, as the real kubectl prints it', () => {
  it.each([
    ['create configmap x --from-literal=b=2 --from-literal=a=1 --dry-run=client -o yaml'],
    ['create configmap x --from-literal=b=2 --from-literal=a=1 --dry-run=client -o json'],
    ['create cm x --from-file=dir --from-file=k=f.txt --from-file=odd.txt --dry-run=client -o json'],
    ['create cm x --from-file=dir,f.txt --dry-run=client -o yaml'],
    ['create cm x --from-env-file=e.env --dry-run=client -o yaml'],
    ['create cm x -n foo --append-hash --from-literal=a=b --from-file=f.txt --dry-run=client -o yaml'],
    ['create cm x --from-literal=a=b --save-config --dry-run=client -o yaml'],
    ['create cm x --from-literal=a=b --dry-run=client'],
    ['create cm x --from-literal=a=b --dry-run=client -o name'],
    ['create cm x --from-literal=a=b --dry-run=client -o jsonpath={.data}'],
    ['create cm x --from-literal=a=b --dry-run=client -o go-template={{.metadata.name}}'],
    ['create secret generic s --from-literal=a=b --from-file=f.txt --from-file=odd.txt --type=example.com/t --save-config --dry-run=client -o json'],
    ['create secret generic s --from-literal=a=b --from-file=f.txt --dry-run=client -o yaml'],
    ['create secret generic s --from-env-file=e.env -n foo --dry-run=client -o yaml'],
    ['create secret generic x --append-hash --type=t --from-literal=a=b --from-literal=c=d --dry-run=client -o name'],
    ['create secret generic x --from-file=dir --dry-run=client -o json'],
  ])('kubectl %s', async (line) => {
    const real = await kubectl(line.split(' '));
    expect(real.code, real.stderr).toBe(0);
    const ours = podlifeClient(`kubectl ${line}`);
    expect(ours).toEqual({ stdout: withoutNullCreationTimestamp(real.stdout), stderr: '', code: 0 });
  });

  it.each([
    ['create cm'], ['create configmap a b'], ['create cm -- x y'], ['create secret generic'],
    ['create cm x --dry-run=foo'], ['create cm x -o wide'], ['create cm x --validate=foo'],
    ['create cm x --from-env-file=e.env --from-literal=a=b'], ['create cm x --from-literal=a'], ['create cm x --from-literal==a'],
    ['create cm x --from-literal=a=1 --from-literal=a=2'], ['create cm x --from-file=f.txt --from-literal=f.txt=2'],
    ['create cm x --from-literal=a/b=1'], ['create cm x --from-literal=..a=1'], ['create cm x --from-literal=.=1'],
    ['create cm x --from-file=nope'], ['create cm x --from-file=k=dir'], ['create cm x --from-file==f.txt'], ['create cm x --from-file=k='],
    ['create cm x --from-file=a=b=c'], ['create cm x --from-env-file=bad.env'], ['create cm x --from-env-file=dir'],
    ['create secret generic x --from-literal=a=1 --from-literal=a=2'], ['create secret generic x --from-literal=a/b=1'],
    ['create secret generic x --from-env-file=dir'], ['create secret generic x --from-file=f.txt --from-literal=f.txt=2'],
    ['create secret generic x --from-file=nope'], ['create secret foo x'],
  ])('kubectl %s (an error)', async (line) => {
    const real = await kubectl(line.split(' '));
    expect(real.code).toBe(1);
    const ours = podlifeClient(`kubectl ${line}`);
    expect(ours).toEqual({ stdout: '', stderr: real.stderr, code: 1 });
  });
});

// -------------------------------------------------------------------------------------------------------------------
// get and describe: a podlife engine's objects, served to the real kubectl
// -------------------------------------------------------------------------------------------------------------------

const engine = createEngine({}, { seed: 1 });
engine.advanceTo(5000);
const files = {
  'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  labels: {tier: web, app: shop}\n  annotations: {note: "a <b> & c"}\ndata:\n  app.conf: "line1\\nline2\\n\\tindented\\n"\n',
  'bin.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bin\nbinaryData:\n  logo: AAECAw==\n',
};
const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a), files };
for (const line of ['kubectl create -f cm.yaml', 'kubectl create -f bin.yaml', 'kubectl create secret generic db --from-literal=password=hunter2']) {
  if (execute(line, ctx).exitCode !== 0) throw new Error(line);
}
engine.advanceTo(65_000);

let server: FakeApiServer;
let url = '';

async function serve(): Promise<void> {
  const state = engine.state();
  server = await fakeApiServer([
    { name: 'configmaps', singularName: 'configmap', kind: 'ConfigMap', shortNames: ['cm'], items: clusterConfigMaps(state, undefined) },
    { name: 'secrets', singularName: 'secret', kind: 'Secret', items: clusterSecrets(state, undefined) },
    { name: 'events', singularName: 'event', kind: 'Event', shortNames: ['ev'], items: [] },
  ]);
  url = server.url;
}

describe.skipIf(!available)('kubectl get|describe configmaps and secrets: podlife prints what the real kubectl prints of the same objects', () => {
  beforeAll(serve);
  afterAll(() => server.close());

  it.each([
    ['get cm -o yaml'], ['get cm -o json'], ['get cm app -o yaml'], ['get cm kube-root-ca.crt -o json'], ['get cm bin -o yaml'],
    ['get cm -o name'], ['get secret -o yaml'], ['get secret db -o json'], ['get cm kube-root-ca.crt -n kube-system -o yaml'],
    ['get cm app -o jsonpath={.data}'], ['get secrets -o jsonpath={.items[*].data.password}'],
    ['get cm -o custom-columns=NAME:.metadata.name,BIN:.binaryData,NOTE:.metadata.annotations.note'],
    ['get cm nope -o yaml'],
  ])('kubectl %s', async (line) => {
    const real = await kubectl(line.split(' '), url);
    const ours = execute(`kubectl ${line}`, ctx);
    expect({ stdout: ours.stdout, stderr: ours.stderr, code: ours.exitCode }).toEqual(real);
  });

  // one key each: kubectl v1.32 ranged over the maps (Go's random order); v1.36 sorts the keys (describe.go v0.36.3
  // slices.Sorted(maps.Keys(...))), which tests/unit/sim/configs-kubectl.test.ts checks with several
  it.each([['describe cm app'], ['describe cm bin'], ['describe cm kube-root-ca.crt'], ['describe secret db'], ['describe configmap kube-root-ca.crt -n kube-public']])(
    'kubectl %s',
    async (line) => {
      const real = await kubectl(line.split(' '), url);
      expect(real.code, real.stderr).toBe(0);
      expect(execute(`kubectl ${line}`, ctx).stdout).toBe(real.stdout);
    },
  );
});

it.runIf(!available)('configmap and secret kubectl parity tests are skipped: no kubectl at /usr/bin/kubectl', () => {
  expect(available).toBe(false);
});
