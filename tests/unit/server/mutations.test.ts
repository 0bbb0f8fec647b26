// Changing the served cluster with the real kubectl: run, apply (create, unchanged, configured), delete
// (graceful: Terminating, then gone, while kubectl waits), patch (merge, JSON and strategic), and the
// errors kubectl prints for what the API server refuses. Each change is made with the real kubectl on the
// server and with podlife's own kubectl at the same virtual time; what both print, and what the cluster
// looks like afterwards, must agree.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { createEngine, type Engine, type Scenario } from '../../../src/sim/index.ts';
import {
  SKIP_REASON, advance, kubectl, kubectlAvailable, loadScenario, podlifeAt, shell, startPaused, type Typed,
} from './helpers.ts';

/** kubectl v1.33+ (what podlife models) says which namespace a deleted pod was in; v1.32 does not. */
const asKubectl132Delete = (s: string): string => s.replace(/ from \S+ namespace( \(dry run\))?$/gm, '$1');

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(!kubectlAvailable)('kubectl run, get and delete on an empty cluster', () => {
  it('kubectl run at 0s: the pod goes through the lifecycle exactly as in podlife', async () => {
    server = await startPaused();
    const run = 'kubectl run web --image=m.daocloud.io/docker.io/library/nginx:alpine --restart=Never --labels=app=web,tier=front --env=MODE=prod --port=80';
    const typed: Typed[] = [{ at: 0, run }];
    const created = await shell(server, run);
    expect(created.stdout).toBe('pod/web created\n');
    expect(created.stdout).toBe(podlifeAt(undefined, 0, run).stdout);
    for (const at of [1000, 2500, 7000, 30_000, 125_000]) {
      await advance(server, `${at}ms`);
      for (const view of ['kubectl get pods', 'kubectl get pod web -o wide', 'kubectl get pod web -o yaml', 'kubectl get pods -l app=web --show-labels', 'kubectl get events -o wide']) {
        const real = await shell(server, view);
        const ours = podlifeAt(undefined, at, view, { typed });
        expect(real.stdout, `${view} at ${at} ms`).toBe(ours.stdout);
        expect(real.stderr, `${view} at ${at} ms`).toBe(ours.stderr);
      }
    }
  });

  it('kubectl delete pod: Terminating while kubectl waits, then gone; kubectl returns when the pod is', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    const scenario = loadScenario('nginx-test');
    await advance(server, '2m');
    const deleting = shell(server, 'kubectl delete pod nginx-test');
    const typed: Typed[] = [{ at: 120_000, run: 'kubectl delete pod nginx-test --wait=false' }];
    let done = false;
    void deleting.then(() => (done = true));
    // The DELETE has reached the server once the pod shows a deletionTimestamp.
    for (let i = 0; i < 200 && !server.cluster.engine.state().pods[0]?.metadata.deletionTimestamp; i++) await new Promise((r) => setTimeout(r, 25));
    await advance(server, '2m0.1s');
    const terminating = await kubectl(server, ['get', 'pod', 'nginx-test']);
    expect(terminating.stdout).toBe(podlifeAt(scenario, 120_100, 'kubectl get pod nginx-test', { typed }).stdout);
    expect(terminating.stdout).toMatch(/nginx-test +\d\/1 +Terminating /);
    expect(done).toBe(false);
    await advance(server, '3m');
    const finished = await deleting;
    expect(finished.code).toBe(0);
    expect(finished.stdout).toBe(asKubectl132Delete(podlifeAt(scenario, 120_000, 'kubectl delete pod nginx-test --wait=false').stdout));
    const gone = await kubectl(server, ['get', 'pod', 'nginx-test']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe(podlifeAt(scenario, 180_000, 'kubectl get pod nginx-test', { typed }).stderr);
    expect(gone.stderr).toBe('Error from server (NotFound): pods "nginx-test" not found\n');
  });

  it('kubectl delete --force --grace-period=0 removes the pod at once', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    await advance(server, '10s');
    const r = await kubectl(server, ['delete', 'pod', 'nginx-test', '--force', '--grace-period=0']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Immediate deletion does not wait for confirmation');
    expect(r.stdout).toBe(asKubectl132Delete(podlifeAt(loadScenario('nginx-test'), 10_000, 'kubectl delete pod nginx-test --force --grace-period=0').stdout));
    expect(server.cluster.engine.state().pods).toEqual([]);
  });
});

/** The nginx-test scenario served at 10 s: what the real kubectl prints for `args` (split at spaces), and podlife. */
async function onNginxTestAt10s(args: string) {
  const scenario = loadScenario('nginx-test');
  server = await startPaused({ scenario });
  await advance(server, '10s');
  const argv = args.split(' ');
  const real = await kubectl(server, argv);
  const ours = podlifeAt(scenario, 10_000, `kubectl ${argv.map((a) => `'${a}'`).join(' ')}`);
  return { real, ours, running: server };
}

describe.skipIf(!kubectlAvailable)('kubectl delete --dry-run=client, and the deprecated --dry-run forms', () => {
  it.each([
    ['delete pod nginx-test --dry-run=client'], ['delete pod nginx-test nope --dry-run=client'], ['delete pods --all --dry-run=client -o name'],
    ['delete all --all --dry-run=client'], ['delete pods -l run=nginx-test --dry-run=client --force --grace-period=0'],
    ['delete pods -l run=none --dry-run=client'], ['delete pod nope --dry-run=client --ignore-not-found'],
    // the deprecated forms: a bare --dry-run and Go booleans, with klog's warning (its time, PID and, in 1.32, its
    // line differ: the header is compared by shape)
    ['delete pod nginx-test --dry-run'], ['delete pods --all --dry-run=true'], ['delete pod nginx-test --dry-run=T -o name'],
    ['delete pod nginx-test --dry-run='], ['delete pod nginx-test --dry-run=maybe'],
    ['run web --image=nginx --dry-run -o name'], ['label pod nginx-test a=b --dry-run'], ['cordon worker01 --dry-run=1'],
    // --list: the labels as the change would leave them, listed, and nothing sent
    ['label pods nginx-test run=x --list --overwrite'], ['label pods nginx-test run- --list'], ['label pods nginx-test run=x --list'],
    ['annotate pods nginx-test a=b --list'],
    // patch: the fetched object patched locally (the line says "patched", without "(dry run)", as kubectl does)
    ['patch pod nginx-test -p {"metadata":{"labels":{"x":"y"}}} --dry-run=client'], ['patch pod nginx-test -p {"metadata":{"labels":{"x":"y"}}} --dry-run=client -o yaml'],
    ['patch pod nginx-test -p {"metadata":{"labels":{"run":"nginx-test"}}} --dry-run=client'], ['patch pod nope -p {} --dry-run=client'],
    ['patch pod nginx-test --type=merge -p {"spec":{"activeDeadlineSeconds":5}} --dry-run=client -o json'],
    ['patch pod nginx-test --type=merge -p {"spec":{"containers":[{"name":"nginx-test","image":"busybox"}]}} --dry-run=client -o jsonpath={.spec.containers}'],
    // a JSON patch, applied by kubectl itself with json-patch v4, its errors reworded by getPatchedJSON
    ['patch pod nginx-test --type=json -p [{"op":"replace","path":"/metadata/labels/x","value":"y"}] --dry-run=client -o jsonpath={.metadata.labels}'],
    ['patch pod nginx-test --type=json -p [{"op":"add","path":"/spec/containers/-1/args","value":["-g"]}] --dry-run=client -o json'],
    ['patch pod nginx-test --type=json -p [] --dry-run=client'], ['patch pod nginx-test --type=json -p {"a":1} --dry-run=client'],
    ['patch pod nginx-test --type=json -p [{"op":"replace","path":"/spec/containers/3","value":{}}] --dry-run=client'],
    ['patch pod nginx-test --type=json -p [{"op":"remove","path":"/metadata/labels/zz"}] --dry-run=client'],
    ['patch pod nginx-test --type=json -p [{"op":"test","path":"/metadata/name","value":"x"}] --dry-run=client'],
    ['patch pod nginx-test --type=json -p ["x"] --dry-run=client'], ['patch pod nope --type=json -p {"a":1} --dry-run=client'],
    // bodies of the wrong shape, as each library answers them in kubectl
    ['patch pod nginx-test --type=merge -p true --dry-run=client'], ['patch pod nginx-test --type=merge -p null --dry-run=client'],
    ['patch pod nginx-test --type=merge -p [1] --dry-run=client'], ['patch pod nginx-test -p [1] --dry-run=client'],
    ['patch pod nginx-test -p null --dry-run=client'], ['patch pod nginx-test --type=json -p null --dry-run=client'],
    // nodes
    ['patch node worker01 -p {"metadata":{"labels":{"x":"y"}}} --dry-run=client -o jsonpath={.metadata.labels}'],
    ['patch node worker01 --type=json -p [{"op":"add","path":"/spec/unschedulable","value":true}] --dry-run=client'],
    ['patch node nope -p {} --dry-run=client'],
  ])('kubectl %s: printed, not sent', async (args) => {
    const { real, ours, running } = await onNginxTestAt10s(args);
    const klogHeader = (s: string) => s.replace(/^W\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ helpers\.go:\d+\] /gm, 'W<header>] ');
    expect(real.stdout).toBe(asKubectl132Delete(ours.stdout));
    expect(klogHeader(real.stderr)).toBe(klogHeader(ours.stderr));
    expect(real.code).toBe(ours.code);
    expect(running.cluster.engine.state().pods.map((p) => [p.metadata.name, p.metadata.deletionTimestamp])).toEqual([['nginx-test', undefined]]);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl patch --type=json sent to the API server', () => {
  it.each([
    ['patch pod nginx-test --type=json -p [{"op":"replace","path":"/metadata/labels/x","value":"y"}]'],
    // what does not apply: the generic 422, its message after "The request is invalid" (the library's is not in it)
    ['patch pod nginx-test --type=json -p [{"op":"test","path":"/metadata/name","value":"x"}]'],
    ['patch pod nginx-test --type=json -p [{"op":"remove","path":"/metadata/labels/zz"}]'],
    // what does not decode: a 400 with it
    ['patch pod nginx-test --type=json -p {"a":1}'], ['patch pod nginx-test --type=json -p ["a"]'],
  ])('kubectl %s', async (args) => {
    const { real, ours } = await onNginxTestAt10s(args);
    expect(real).toEqual({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl patch bodies the server decodes strictly, on pods and nodes', () => {
  it.each([
    ['patch pod nginx-test --type=merge -p true'], ['patch pod nginx-test --type=merge -p null'], ['patch pod nginx-test -p 1'],
    ['patch pod nginx-test -p null'], ['patch pod nginx-test --type=json -p null'], ['patch pod nginx-test --type=json -p [{"op":1}]'],
    ['patch pod nope --type=merge -p true'],
    ['patch node worker01 -p {"metadata":{"labels":{"x":"y"}}}'], ['patch node worker01 --type=merge -p {"spec":{"unschedulable":true}} -o name'],
    ['patch node worker01 --type=json -p [{"op":"add","path":"/metadata/labels/x","value":"y"}] -o jsonpath={.metadata.labels.x}'],
    ['patch node worker01 --type=merge -p [1]'], ['patch node worker01 -p null'], ['patch node nope -p {}'],
    ['patch node worker01 --subresource=resize -p {}'],
  ])('kubectl %s', async (args) => {
    const { real, ours } = await onNginxTestAt10s(args);
    expect(real).toEqual({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code });
  });

  it('a body that is not JSON is refused before the object is looked up', async () => {
    server = await startPaused();
    for (const name of ['nope', 'worker01']) {
      const res = await fetch(`${server.url}/api/v1/nodes/${name}`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: 'invalid JSON patch' });
    }
    const missing = await fetch(`${server.url}/api/v1/nodes/nope`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: 'true' });
    expect(missing.status).toBe(404);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl patch --patch-file', () => {
  it('reads the patch from the file, in YAML or JSON; a missing file, and a file with -p, are kubectl\'s errors', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'podlife-patch-'));
    const files: Record<string, string> = {
      'labels.yaml': 'metadata:\n  labels:\n    tier: web\n',
      'ops.json': '[{"op":"replace","path":"/metadata/labels/run","value":"x"}]',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const readFile = (p: string) => (p.startsWith(`${dir}/`) ? files[p.slice(dir.length + 1)] : undefined);
    const scenario = loadScenario('nginx-test');
    server = await startPaused({ scenario });
    await advance(server, '10s');
    for (const args of [
      `patch pod nginx-test --patch-file ${dir}/labels.yaml --dry-run=client -o jsonpath={.metadata.labels}`,
      `patch pod nginx-test --type=json --patch-file=${dir}/ops.json --dry-run=client -o jsonpath={.metadata.labels}`,
      `patch pod nginx-test --patch-file ${dir}/nope.yaml`,
      `patch pod nginx-test --patch-file ${dir}/labels.yaml -p {}`,
    ]) {
      const argv = args.split(' ');
      const real = await kubectl(server, argv);
      const ours = podlifeAt(scenario, 10_000, `kubectl ${argv.map((a) => `'${a}'`).join(' ')}`, { readFile });
      expect({ args, ...real }).toEqual({ args, ...ours });
    }
  });
});

describe.skipIf(!kubectlAvailable)('unknown fields: warnings under the server\'s default field validation, refused under Strict', () => {
  it.each([
    ['patch pod nginx-test --type=merge -p {"metadata":{"finalizer":[]}}'],
    ['patch pod nginx-test -p {"metadata":{"labels":{"x":"y"}},"spec":{"foo":1}}'],
    ['patch pod nginx-test --type=json -p [{"op":"add","path":"/spec/foo","value":1}] -o jsonpath={.metadata.name}'],
    ['patch node worker01 -p {"metadata":{"labels":{"disk":"ssd"}},"spec":{"bogus":true}}'],
  ])('kubectl %s: the server\'s Warning headers, printed by kubectl', async (args) => {
    const { real, ours } = await onNginxTestAt10s(args);
    expect(real).toEqual({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code });
    expect(real.stderr).toMatch(/^Warning: unknown field "/);
  });

  it.each([
    ['patch pod nginx-test -p {"spec":{"activeDeadlineSeconds":"30"}}'],
    ['patch pod nginx-test -p {"metadata":{"labels":{"a":1}}}'],
    ['patch node worker01 -p {"spec":{"unschedulable":"yes"}}'],
  ])('kubectl %s: a wrong type in a strategic merge patch is the converter\'s 422 on "patch"', async (args) => {
    const { real, ours } = await onNginxTestAt10s(args);
    expect(real).toEqual({ stdout: ours.stdout, stderr: ours.stderr, code: ours.code });
    expect(real.stderr).toMatch(/^The request is invalid: patch: Invalid value: "map\[/);
  });

  it('kubectl create and apply with --validate: strict refuses, warn warns, false and ignore drop the field', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'podlife-validate-'));
    const manifest = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n    imagee: x\n`;
    const files: Record<string, string> = {};
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      files[`${name}.yaml`] = manifest(name);
      writeFileSync(path.join(dir, `${name}.yaml`), files[`${name}.yaml`]);
    }
    const readFile = (p: string) => (p.startsWith(`${dir}/`) ? files[p.slice(dir.length + 1)] : undefined);
    server = await startPaused();
    const typed: Typed[] = [];
    for (const args of [
      `create -f ${dir}/a.yaml`, `create -f ${dir}/a.yaml --validate=warn`, `create -f ${dir}/b.yaml --validate=false -o name`,
      `apply -f ${dir}/c.yaml --validate=ignore`, `apply -f ${dir}/d.yaml --validate=warn`, `apply -f ${dir}/e.yaml`,
      // onto a pod that exists, apply sends a strategic merge patch: under Strict an unknown field is a 422 on "patch"
      `apply -f ${dir}/a.yaml`,
    ]) {
      const argv = args.split(' ');
      const real = await kubectl(server, argv);
      // the typed commands replay without the files: pod a, created from its file under --validate=warn, is given
      // to podlife as the object that create stored (the manifest without the unknown field)
      const a = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } };
      const withA: Scenario | undefined = args === `apply -f ${dir}/a.yaml`
        ? { file: '', title: 'a', cluster: { nodes: [], images: {} }, timeline: [{ at: 0, line: 0, column: 0, apply: a }] }
        : undefined;
      const ours = podlifeAt(withA, 0, `kubectl ${args}`, { typed, readFile });
      expect({ args, ...real }).toEqual({ args, ...ours });
      typed.push({ at: 0, run: `kubectl ${args}` });
    }
    const created = server.cluster.engine.state().pods;
    expect(created.map((p) => p.metadata.name).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(created.every((p) => !('imagee' in p.spec.containers[0]))).toBe(true);
  });

  it('fieldValidation over HTTP: none is Warn (a Warning header each), Strict refuses, anything else is a 422', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    const patch = (query: string) => fetch(`${server!.url}/api/v1/namespaces/default/pods/nginx-test${query}`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":{"a":1,"b":"\\"q\\""}}',
    });
    const warned = await patch('');
    expect(warned.status).toBe(200);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"spec.a\\"", 299 - "unknown field \\"spec.b\\""');
    const strict = await patch('?fieldValidation=Strict');
    expect(strict.status).toBe(400);
    expect(strict.headers.get('warning')).toBeNull();
    const bad = await patch('?fieldValidation=Loud');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'PatchOptions' },
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
    });
    const ignored = await patch('?fieldValidation=Ignore');
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('warning')).toBeNull();
  });
});

describe.skipIf(!kubectlAvailable)('kubectl patch of finalizers on the stuck-finalizer scenario', () => {
  it.each([
    ['merge', `kubectl patch pod guarded -p '{"metadata":{"finalizers":[]}}' --type=merge`],
    ['json', `kubectl patch pod guarded --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]'`],
    ['strategic', `kubectl patch pod guarded -p '{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/cleanup"]}}'`],
  ])('%s patch at 5m: the terminated pod that would not go away is removed', async (_type, patch) => {
    const scenario = loadScenario('stuck-finalizer');
    server = await startPaused({ scenario });
    await advance(server, '5m');
    const stuck = await kubectl(server, ['get', 'pod', 'guarded', '-o', 'jsonpath={.metadata.finalizers}']);
    expect(stuck.stdout).toBe('["example.com/cleanup"]');
    const typed: Typed[] = [{ at: 300_000, run: patch }];
    const real = await shell(server, patch);
    expect(real.stdout).toBe(podlifeAt(scenario, 300_000, patch).stdout);
    expect(real.stdout).toBe('pod/guarded patched\n');
    await advance(server, '5m15s');
    const after = await kubectl(server, ['get', 'pod', 'guarded']);
    expect(after.stderr).toBe(podlifeAt(scenario, 315_000, 'kubectl get pod guarded', { typed }).stderr);
    expect(after.stderr).toBe('Error from server (NotFound): pods "guarded" not found\n');
  });
});

describe.skipIf(!kubectlAvailable)('kubectl apply -f (client-side apply)', () => {
  /** podlife's own kubectl on its own engine: the same cluster the server starts with (no scenario). */
  function podlifeConsole(files: Record<string, string>) {
    const engine: Engine = createEngine({}, { seed: 1 });
    return {
      engine,
      run: (line: string) => execute(line, { get state() { return engine.state(); }, apply: (a) => engine.apply(a), files }),
    };
  }
  const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  /** A started server, podlife's console beside it, and one manifest file both read (written with `write`). */
  async function applySetup() {
    server = await startPaused();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'podlife-apply-')), 'web.yaml');
    const files: Record<string, string> = {};
    const write = (text: string) => {
      writeFileSync(file, text);
      files[file] = text;
    };
    return { server, file, ours: podlifeConsole(files), write };
  }

  it('creates (POST with the last-applied annotation), leaves unchanged, configures (a strategic three-way patch)', async () => {
    const { server, file, ours, write } = await applySetup();
    const manifest = (labels: string, image: string, restart = 'Always') =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {${labels}}\nspec:\n  restartPolicy: ${restart}\n  containers:\n  - name: nginx\n    image: ${image}\n`;
    const at = async (t: number) => {
      await advance(server!, `${t}ms`);
      ours.engine.advanceTo(t);
    };
    const sameView = async (when: string) => {
      for (const view of ['kubectl get pod web -o yaml', 'kubectl get pods -o wide']) {
        expect((await shell(server!, view)).stdout, `${view} ${when}`).toBe(ours.run(view).stdout);
      }
    };
    const nginx = 'm.daocloud.io/docker.io/library/nginx:alpine';

    // Create and unchanged: podlife's kubectl apply prints the same and builds the same object.
    write(manifest('app: web', nginx));
    await at(0);
    let real = await shell(server, `kubectl apply -f ${file}`);
    expect(real.stdout).toBe('pod/web created\n');
    expect(real.stdout).toBe(ours.run(`kubectl apply -f ${file}`).stdout);
    await sameView('after the create');
    await at(5000);
    real = await shell(server, `kubectl apply -f ${file}`);
    expect(real.stdout).toBe('pod/web unchanged\n');
    expect(real.stdout).toBe(ours.run(`kubectl apply -f ${file}`).stdout);
    await sameView('after unchanged');

    // Configured: kubectl sends the strategic merge patch its three-way diff computes; podlife's engine,
    // sent the same patch at the same time, must hold the same object as the server.
    const served = () => server!.cluster.engine.state().pods[0].metadata.annotations![LAST_APPLIED];
    write(manifest('app: web, tier: front', nginx));
    await at(10_000);
    real = await shell(server, `kubectl apply -f ${file}`);
    expect(real.stdout).toBe('pod/web configured\n');
    const labels = { metadata: { annotations: { [LAST_APPLIED]: served() }, labels: { tier: 'front' } } };
    expect(ours.run(`kubectl patch pod web -p ${quote(JSON.stringify(labels))}`).stdout).toBe('pod/web patched\n');
    await sameView('after a label change');
    expect(JSON.parse(served())).toMatchObject({ metadata: { labels: { app: 'web', tier: 'front' }, namespace: 'default' } });

    write(manifest('app: web, tier: front', 'm.daocloud.io/docker.io/library/nginx:1.27'));
    await at(15_000);
    real = await shell(server, `kubectl apply -f ${file}`);
    expect(real.stdout).toBe('pod/web configured\n');
    const image = {
      metadata: { annotations: { [LAST_APPLIED]: served() } },
      spec: { $setElementOrder$containers: [{ name: 'nginx' }], containers: [{ image: 'm.daocloud.io/docker.io/library/nginx:1.27', name: 'nginx' }] },
    };
    const imagePatch = JSON.stringify(image).replace('$setElementOrder$containers', '$setElementOrder/containers');
    expect(ours.run(`kubectl patch pod web -p ${quote(imagePatch)}`).stdout).toBe('pod/web patched\n');
    await sameView('after an image change');

    // restartPolicy cannot change on a pod: the API server refuses the patch (422), and kubectl says so.
    write(manifest('app: web, tier: front', 'm.daocloud.io/docker.io/library/nginx:1.27', 'Never'));
    await at(20_000);
    real = await shell(server, `kubectl apply -f ${file}`);
    expect(real.code).toBe(1);
    expect(real.stderr).toMatch(/^The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/);
    await at(40_000);
    await sameView('40s later');
  });

  it('--dry-run=client (created, configured, unchanged: computed here, nothing sent) and -o name|yaml|json', async () => {
    const { server, file, ours, write } = await applySetup();
    const manifest = (labels: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {${labels}}\nspec:\n  containers:\n  - name: nginx\n    image: m.daocloud.io/docker.io/library/nginx:alpine\n`;
    const same = async (line: string, expected?: string) => {
      const real = await shell(server!, line);
      const mine = ours.run(line);
      expect(mine.stdout, line).toBe(real.stdout);
      expect(mine.stderr, line).toBe(real.stderr);
      expect(mine.exitCode, line).toBe(real.code);
      if (expected !== undefined) expect(real.stdout, line).toBe(expected);
    };
    write(manifest('app: web'));
    for (const o of ['', ' -o name', ' -o yaml', ' -o json', ' -o jsonpath={.metadata.annotations}']) await same(`kubectl apply -f ${file} --dry-run=client${o}`);
    await same(`kubectl apply -f ${file} --dry-run=client`, 'pod/web created (dry run)\n');
    expect(server.cluster.engine.state().pods).toEqual([]);
    expect(ours.engine.state().pods).toEqual([]);
    await same(`kubectl apply -f ${file} -o yaml`);
    // v0.36.2 computes the patch of a dry run locally (PatchLocal) and finds it empty; 1.32 computed none and
    // always said "configured"
    expect(ours.run(`kubectl apply -f ${file} --dry-run=client`).stdout).toBe('pod/web unchanged (dry run)\n');
    expect((await shell(server, `kubectl apply -f ${file} --dry-run=client`)).stdout).toBe('pod/web configured (dry run)\n');
    write(manifest('app: web, tier: front'));
    for (const o of ['', ' -o name']) await same(`kubectl apply -f ${file} --dry-run=client${o}`);
    await same(`kubectl apply -f ${file} --dry-run=client`, 'pod/web configured (dry run)\n');
    // the locally patched object (1.32 printed the live one)
    expect(ours.run(`kubectl apply -f ${file} --dry-run=client -o jsonpath={.metadata.labels}`).stdout).toBe('{"app":"web","tier":"front"}');
    expect(server.cluster.engine.state().pods[0].metadata.labels).toEqual({ app: 'web' });
    expect(ours.engine.state().pods[0].metadata.labels).toEqual({ app: 'web' });
    await same(`kubectl apply -f ${file} -o name`, 'pod/web\n');
    await same(`kubectl apply -f ${file} -o wide`);
    await same(`kubectl get pod web --show-labels`);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl create -f', () => {
  /** The real kubectl on a started server and podlife's own on an engine like it, reading the same files. */
  async function createSetup() {
    server = await startPaused();
    const engine: Engine = createEngine({}, { seed: 1 });
    const dir = mkdtempSync(path.join(tmpdir(), 'podlife-create-'));
    const files: Record<string, string> = {};
    const write = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      files[path.join(dir, name)] = text;
      return path.join(dir, name);
    };
    const ours = (line: string) => execute(line, { get state() { return engine.state(); }, apply: (a) => engine.apply(a), files });
    const same = async (line: string) => {
      const real = await shell(server!, line);
      const mine = ours(line);
      expect(mine.stdout, line).toBe(real.stdout);
      expect(mine.stderr, line).toBe(real.stderr);
      expect(mine.exitCode, line).toBe(real.code);
      return real;
    };
    const at = async (t: number) => {
      await advance(server!, `${t}ms`);
      engine.advanceTo(t);
    };
    return { server, engine, write, same, at, ours };
  }
  const pod = (name: string, labels = 'app: web', container = 'nginx') =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  containers:\n  - name: ${container}\n    image: m.daocloud.io/docker.io/library/nginx:alpine\n`;

  it('creates each pod of the files (POST), prints the server\'s object, and says which file a taken name came from', async () => {
    const { server, engine, write, same, at, ours } = await createSetup();
    const web = write('web.yaml', pod('web'));
    const both = write('both.yaml', `${pod('web')}---\n${pod('db', 'app: db')}`);
    await at(0);
    expect((await same(`kubectl create -f ${web}`)).stdout).toBe('pod/web created\n');
    await at(3000);
    for (const view of ['kubectl get pod web -o yaml', 'kubectl get pods -o wide']) await same(view);
    // the first is taken (AlreadyExists, with its file), the second is still created (ContinueOnError)
    const r = await same(`kubectl create -f ${both}`);
    expect(r.stdout).toBe('pod/db created\n');
    expect(r.stderr).toBe(`Error from server (AlreadyExists): error when creating "${both}": pods "web" already exists\n`);
    expect(engine.state().pods.map((p) => p.metadata.name).sort()).toEqual(['db', 'web']);
    await at(6000);
    await same('kubectl get pods -o wide');
    // -o yaml prints what the server answered; --save-config adds the last-applied annotation kubectl apply reads
    await same(`kubectl create -f ${write('cache.yaml', pod('cache', 'app: cache'))} -o yaml --save-config`);
    await same('kubectl get pod cache -o jsonpath={.metadata.annotations}');
    expect(server.cluster.engine.state().pods.length).toBe(3);
    // get -f: the pods the files name, as get pods NAME... prints them; one file implies one item, so with -o
    // yaml|name a missing pod is printed alone
    const gone = write('gone.yaml', `${pod('web')}---\n${pod('gone')}`);
    for (const line of [
      `kubectl get -f ${both}`, `kubectl get -f ${both} -o name`, `kubectl get -f ${web} -o yaml`, `kubectl get -f ${both} -o wide --show-labels`,
      `kubectl get -f ${gone}`, `kubectl get -f ${gone} -o name`, `kubectl get -f ${gone} -o yaml`, `kubectl get -f ${gone} -o name --ignore-not-found`,
      `kubectl get -f ${web} -f ${gone} -o name`, `kubectl get -f ${both} -l app=db`, `kubectl get -f ${both} -l app=db -o name`,
      `kubectl get -f ${web} pod web`,
    ]) await same(line);
    // delete -f: the pods of the file, a missing one the server's NotFound with its file (kubectl 1.32 does not
    // name the namespace)
    await at(9000);
    const del = async (line: string) => {
      const real = await shell(server, line);
      const mine = ours(line);
      expect(mine.stdout, line).toBe(real.stdout.replace(/^pod "(\S+)" deleted$/gm, 'pod "$1" deleted from default namespace'));
      expect(mine.stderr, line).toBe(real.stderr);
      expect(mine.exitCode, line).toBe(real.code);
    };
    await del(`kubectl delete -f ${both} --wait=false`);
    await del(`kubectl delete -f ${web} --wait=false`);
    await del(`kubectl delete -f ${web} --wait=false --ignore-not-found`);
    await at(60_000);
    await same('kubectl get pods -o wide');
  });

  it('the -o *-file formats read their template from a file (go-template-file, templatefile, jsonpath-file, custom-columns-file)', async () => {
    const { write, same, at } = await createSetup();
    const web = write('web.yaml', pod('web'));
    await at(0);
    await same(`kubectl create -f ${web}`);
    await at(4000);
    const files = {
      go: write('phase.tmpl', '{{.metadata.name}} {{.status.phase}}{{"\\n"}}'),
      jp: write('ip.jsonpath', '{.status.podIP} {.spec.nodeName}'),
      cols: write('cols.txt', 'NAME   NODE           IMAGE\nmetadata.name spec.nodeName {.spec.containers[*].image}\n'),
      oneLine: write('one.txt', 'NAME NODE\n'),
      mismatch: write('mismatch.txt', 'NAME NODE\n.metadata.name\n'),
      badTemplate: write('bad.tmpl', '{{.metadata.name'),
    };
    for (const line of [
      `kubectl get pod web -o go-template-file=${files.go}`, `kubectl get pods -o templatefile=${files.go}`, `kubectl get pod web -o jsonpath-file=${files.jp}`,
      `kubectl get pods -o custom-columns-file=${files.cols}`, `kubectl get pods -o custom-columns-file=${files.cols} --no-headers`,
      `kubectl get pod web -o go-template-file --template=${files.go}`, `kubectl get pod web -o custom-columns-file=${files.oneLine}`,
      `kubectl get pod web -o custom-columns-file=${files.mismatch}`, `kubectl get pod web -o go-template-file=${files.badTemplate}`,
      `kubectl get pod web -o go-template-file=/nonexistent/t.tmpl`, `kubectl get pod web -o custom-columns-file=/nonexistent/c.txt`,
      `kubectl get pod web -o jsonpath-file=`,
    ]) await same(line);
  });

  it('--dry-run=client, -l, and the errors before anything is sent', async () => {
    const { server, engine, write, same } = await createSetup();
    const web = write('web.yaml', `${pod('web')}---\n${pod('db', 'app: db')}`);
    for (const o of ['', ' -o name', ' -o yaml', ' -o json', ' --save-config -o yaml', ' -l app=db']) await same(`kubectl create -f ${web} --dry-run=client${o}`);
    expect(server.cluster.engine.state().pods).toEqual([]);
    expect(engine.state().pods).toEqual([]);
    const invalid = write('invalid.yaml', pod('bad', 'app: bad', 'Nginx'));
    const empty = write('empty.yaml', '');
    const other = write('other.yaml', pod('web').replace('  name: web', '  name: web\n  namespace: kube-system'));
    for (const line of [
      'kubectl create', 'kubectl create web', `kubectl create -f ${empty}`, `kubectl create -f ${web} -l app=none`, `kubectl create -f ${invalid}`,
      `kubectl create -f ${web} -o wide`, `kubectl create -f ${web} --validate=bogus`, `kubectl create -f ${web} --dry-run=bogus`,
      // a namespace the server does not have: its NotFound, with the file (apply creates the same way)
      `kubectl create -f ${web} -n nope`, `kubectl apply -f ${web} -n nope`, `kubectl apply -f ${empty}`, `kubectl apply -f ${web} -l app=none`,
      // an explicit -n that is not the object's namespace; -f with names
      `kubectl create -f ${other} -n default`, `kubectl apply -f ${other} -n default`, `kubectl delete -f ${other} -n default`, `kubectl delete -f ${web} pod web`,
      `kubectl delete -f ${empty}`, `kubectl get -f ${empty}`, `kubectl get -f ${empty} -o yaml`, `kubectl get -f ${empty} -o name`, `kubectl get -f ${other} -n default`,
    ]) await same(line);
    expect(engine.state().pods).toEqual([]);
  });
});

describe.skipIf(!kubectlAvailable)('errors kubectl prints, from the Status the server answers', () => {
  it.each([
    ['AlreadyExists', ['kubectl run web --image=nginx', 'kubectl run web --image=nginx'], /^Error from server \(AlreadyExists\): pods "web" already exists\n$/],
    ['NotFound (get)', ['kubectl get pod nope'], /^Error from server \(NotFound\): pods "nope" not found\n$/],
    ['NotFound (delete)', ['kubectl delete pod nope'], /^Error from server \(NotFound\): pods "nope" not found\n$/],
    ['NotFound (patch)', [`kubectl patch pod nope -p '{"metadata":{"labels":{"a":"b"}}}'`], /^Error from server \(NotFound\): pods "nope" not found\n$/],
    ['Invalid (422 with field causes)', ['kubectl run Bad_Name --image=nginx'], /^The Pod "Bad_Name" is invalid: \n\* metadata\.name: Invalid value: "Bad_Name"/],
    ['unsupported field selector', ['kubectl get pods --field-selector spec.image=nginx'], /field label not supported: spec\.image\n$/],
  ])('%s: the real kubectl and podlife print the same', async (_what, lines, message) => {
    server = await startPaused();
    const typed: Typed[] = [];
    let real = { stdout: '', stderr: '', code: 0 };
    for (const line of lines) {
      real = await shell(server, line);
      const ours = podlifeAt(undefined, 0, line, { typed });
      expect(real.stderr, line).toBe(ours.stderr);
      expect(real.code, line).toBe(ours.code);
      typed.push({ at: 0, run: line });
    }
    expect(real.stderr).toMatch(message);
  });

  it('kubectl exec over the WebSocket stream changes the live container: a file stays; kill 1 stops nginx, and the pod completes', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    await advance(server, '2m');
    expect(await kubectl(server, ['exec', 'nginx-test', '--', 'touch', '/tmp/x'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await kubectl(server, ['exec', 'nginx-test', '--', 'ls', '/tmp'])).toMatchObject({ code: 0, stdout: 'x\n' });
    // nginx's fast shutdown on SIGTERM exits 0; the pod was run with --restart=Never
    expect(await kubectl(server, ['exec', 'nginx-test', '--', 'kill', '1'])).toMatchObject({ code: 0 });
    await advance(server, '2m30s');
    const phase = await kubectl(server, ['get', 'pod', 'nginx-test', '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].state.terminated.exitCode}']);
    expect(phase.stdout).toBe('Succeeded 0');
    expect(await kubectl(server, ['exec', 'nginx-test', '--', 'ls', '/tmp'])).toMatchObject({
      code: 1, stderr: 'error: cannot exec into a container in a completed pod; current phase is Succeeded\n',
    });
  });

  it('a malformed body: 400 BadRequest with the decoder\'s message, printed by kubectl create --raw', async () => {
    server = await startPaused();
    const dir = mkdtempSync(path.join(tmpdir(), 'podlife-raw-'));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"apiVersion":"v1","kind":"Pod",metadata:{}}');
    const r = await kubectl(server, ['create', '--raw', '/api/v1/namespaces/default/pods', '-f', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error from server (BadRequest): the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: ' +
        'invalid character \'m\' looking for beginning of object key string ({"apiVersion":"v1","kind":"Pod ...)\n',
    );
    const res = await fetch(`${server.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"kind":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'BadRequest', code: 400,
      message: 'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"kind":)',
    });
    expect(server.cluster.engine.state().pods).toEqual([]);
  });

  it('an invalid pod: 422 Invalid with one cause per field, printed by kubectl', async () => {
    server = await startPaused();
    const dir = mkdtempSync(path.join(tmpdir(), 'podlife-raw-'));
    const invalid = path.join(dir, 'invalid.json');
    const body = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"empty"},"spec":{"containers":[{"name":"c"}],"restartPolicy":"Sometimes"}}';
    writeFileSync(invalid, body);
    const r = await kubectl(server, ['create', '--raw', '/api/v1/namespaces/default/pods', '-f', invalid]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^The Pod "empty" is invalid: \n\* spec\.containers\[0\]\.image: Required value\n\* spec\.restartPolicy: Unsupported value: "Sometimes"/);
    const res = await fetch(`${server.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(422);
    const status = (await res.json()) as { reason: string; details: { name: string; kind: string; causes: { field: string; reason: string }[] } };
    expect(status.reason).toBe('Invalid');
    expect(status.details.name).toBe('empty');
    expect(status.details.kind).toBe('Pod');
    expect(status.details.causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.containers[0].image', 'FieldValueRequired'],
      ['spec.restartPolicy', 'FieldValueNotSupported'],
    ]);
  });

  it('a verb the resource does not have: 405 MethodNotAllowed', async () => {
    server = await startPaused();
    const r = await kubectl(server, ['delete', 'node', 'worker01']);
    expect(r.stderr).toBe('Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n');
    expect(server.cluster.engine.state().nodes.map((n) => n.metadata.name)).toEqual(['worker01']);
  });
});

it.runIf(!kubectlAvailable)(SKIP_REASON, () => {
  expect(kubectlAvailable).toBe(false);
});

describe.skipIf(!kubectlAvailable)('kubectl debug: an ephemeral container through the pods/ephemeralcontainers subresource', () => {
  it('the real kubectl adds it; the kubelet starts it as podlife does for the same command', async () => {
    const scenario = loadScenario('nginx-test');
    server = await startPaused({ scenario });
    await advance(server, '10s');
    const debug = 'kubectl debug nginx-test --image=busybox -c dbg --profile=general -- sleep 3600';
    const real = await shell(server, debug);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toBe(podlifeAt(scenario, 10_000, debug).stdout);
    const typed: Typed[] = [{ at: 10_000, run: debug }];
    await advance(server, '20s');
    const view = `kubectl get pod nginx-test -o jsonpath='{.spec.ephemeralContainers[0].name} {.spec.ephemeralContainers[0].command} {.status.ephemeralContainerStatuses[0].state}'`;
    const seen = await shell(server, view);
    expect(seen.stdout).toBe(podlifeAt(scenario, 20_000, view, { typed }).stdout);
    expect(seen.stdout).toMatch(/^dbg \["sleep","3600"\] \{"running":\{"startedAt":"[^"]+"\}\}$/);
    // the pod's row is unchanged: an ephemeral container does not count in READY
    const row = await kubectl(server, ['get', 'pod', 'nginx-test']);
    expect(row.stdout).toBe(podlifeAt(scenario, 20_000, 'kubectl get pod nginx-test', { typed }).stdout);
    expect(row.stdout).toMatch(/nginx-test +1\/1 +Running /);
  });
});
