// kubectl apply -f on a pod that exists: the three-way strategic merge patch kubectl computes from the last-applied
// configuration, the live object and the manifest (strategicpatch.CreateThreeWayMergePatch), and what it prints.
// The expected patches are the request bodies the real kubectl 1.32 sent (`kubectl apply -v=9`) for the same
// manifests against `podlife serve`, the last-applied annotation shortened to "LA" here.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/sim/engine.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { createThreeWayMergePatch } from '../../../src/sim/api/patch.ts';
import type { ClusterAction } from '../../../src/sim/types.ts';

const LA = 'kubectl.kubernetes.io/last-applied-configuration';
const NGINX = 'm.daocloud.io/docker.io/library/nginx';
const BUSYBOX = 'm.daocloud.io/docker.io/busybox';
const manifest = (o: { labels: string; annotations?: string; extra?: string; nginx: string; side: string; sideName?: string; restart?: string; finalizers?: string; env?: string }) =>
  `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {${o.labels}}
${o.annotations ? `  annotations: {${o.annotations}}\n` : ''}${o.finalizers ? `  finalizers: [${o.finalizers}]\n` : ''}spec:
  restartPolicy: ${o.restart ?? 'Always'}
${o.extra ?? ''}  containers:
  - name: nginx
    image: ${o.nginx}
${o.env ? `    env: [${o.env}]\n` : ''}  - name: ${o.sideName ?? 'side'}
    image: ${o.side}
    command: ["sleep", "3600"]
`;
const tolerations = (...t: string[]) => `  tolerations:\n${t.map((x) => `  - {${x}}\n`).join('')}`;
const DEDICATED = 'key: dedicated, operator: Equal, value: web, effect: NoSchedule';

function console_() {
  const engine = createEngine({}, { seed: 1 });
  const files: Record<string, string> = {};
  const sent: ClusterAction[] = [];
  let t = 0;
  const apply = (text: string) => {
    t += 5000;
    engine.advanceTo(t);
    files['web.yaml'] = text;
    const r = execute('kubectl apply -f web.yaml', { get state() { return engine.state(); }, apply: (a) => (sent.push(a), engine.apply(a)), files });
    const last = sent.at(-1);
    const patch = last?.type === 'patch' ? JSON.parse(JSON.stringify(last.patch).replace(/"kubectl\.kubernetes\.io\/last-applied-configuration":"(?:[^"\\]|\\.)*"/, '"LA":"…"')) : undefined;
    sent.length = 0;
    return { ...r, patch };
  };
  const pod = () => engine.state().pods.find((p) => p.metadata.name === 'web')!;
  return { engine, apply, pod, run: (line: string) => execute(line, { get state() { return engine.state(); }, apply: (a) => engine.apply(a), files }) };
}

describe('kubectl apply -f of a changed pod manifest (apply.go, patcher.go, strategicpatch CreateThreeWayMergePatch)', () => {
  it('created, unchanged, then configured with the patch kubectl sends: labels, annotations, images by name, activeDeadlineSeconds, tolerations', () => {
    const c = console_();
    const v1 = manifest({ labels: 'app: web, gone: soon', nginx: `${NGINX}:alpine`, side: `${BUSYBOX}:1.36` });
    expect(c.apply(v1)).toMatchObject({ stdout: 'pod/web created\n', stderr: '', exitCode: 0 });
    expect(c.apply(v1)).toMatchObject({ stdout: 'pod/web unchanged\n', stderr: '', exitCode: 0, patch: undefined });

    const v2 = manifest({ labels: 'app: web, tier: front', annotations: 'note: hello', extra: `  activeDeadlineSeconds: 3600\n${tolerations(DEDICATED)}`, nginx: `${NGINX}:1.27`, side: `${BUSYBOX}:1.37` });
    const r2 = c.apply(v2);
    expect(r2).toMatchObject({ stdout: 'pod/web configured\n', stderr: '', exitCode: 0 });
    expect(r2.patch).toEqual({
      metadata: { annotations: { LA: '…', note: 'hello' }, labels: { gone: null, tier: 'front' } },
      spec: {
        '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'side' }],
        activeDeadlineSeconds: 3600,
        containers: [{ image: `${NGINX}:1.27`, name: 'nginx' }, { image: `${BUSYBOX}:1.37`, name: 'side' }],
        tolerations: [{ effect: 'NoSchedule', key: 'dedicated', operator: 'Equal', value: 'web' }],
      },
    });
    const p = c.pod();
    expect(p.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(p.spec.containers.map((x) => x.image)).toEqual([`${NGINX}:1.27`, `${BUSYBOX}:1.37`]);
    expect(p.spec.activeDeadlineSeconds).toBe(3600);
    // the added toleration is an addition: DefaultTolerationSeconds admits the update and keeps its two
    expect(p.spec.tolerations!.map((t) => t.key)).toEqual(['dedicated', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    // the annotation holds the manifest as compact JSON with sorted keys, annotations {} when it had none
    expect(JSON.parse(p.metadata.annotations![LA])).toEqual({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { annotations: { note: 'hello' }, labels: { app: 'web', tier: 'front' }, name: 'web', namespace: 'default' },
      spec: {
        activeDeadlineSeconds: 3600, restartPolicy: 'Always',
        containers: [{ image: `${NGINX}:1.27`, name: 'nginx' }, { command: ['sleep', '3600'], image: `${BUSYBOX}:1.37`, name: 'side' }],
        tolerations: [{ effect: 'NoSchedule', key: 'dedicated', operator: 'Equal', value: 'web' }],
      },
    });

    // removing a label and an annotation from the manifest deletes them (from the last-applied side)
    const v3 = manifest({ labels: 'app: web', extra: `  activeDeadlineSeconds: 3600\n${tolerations(DEDICATED)}`, nginx: `${NGINX}:1.27`, side: `${BUSYBOX}:1.37` });
    const r3 = c.apply(v3);
    expect(r3.stdout).toBe('pod/web configured\n');
    expect(r3.patch).toEqual({
      metadata: { annotations: { LA: '…', note: null }, labels: { tier: null } },
      spec: { tolerations: [{ effect: 'NoSchedule', key: 'dedicated', operator: 'Equal', value: 'web' }] },
    });
    expect(c.pod().metadata.annotations!.note).toBeUndefined();
  });

  it('forbidden changes: the API server\'s 422, as kubectl prints it', () => {
    const c = console_();
    const base = { labels: 'app: web', extra: `  activeDeadlineSeconds: 3600\n${tolerations(DEDICATED)}`, nginx: `${NGINX}:1.27`, side: `${BUSYBOX}:1.37` };
    c.apply(manifest(base));
    const forbidden =
      'The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';
    expect(c.apply(manifest({ ...base, restart: 'Never' }))).toMatchObject({ stdout: '', stderr: forbidden, exitCode: 1 });
    // a renamed container: the new one is added, the old one deleted by its merge key ($patch: delete)
    const renamed = c.apply(manifest({ ...base, sideName: 'sidecar' }));
    expect(renamed).toMatchObject({ stdout: '', stderr: forbidden, exitCode: 1 });
    expect(renamed.patch).toEqual({
      metadata: { annotations: { LA: '…' } },
      spec: {
        '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }],
        containers: [{ command: ['sleep', '3600'], image: `${BUSYBOX}:1.37`, name: 'sidecar' }, { $patch: 'delete', name: 'side' }],
        tolerations: [{ effect: 'NoSchedule', key: 'dedicated', operator: 'Equal', value: 'web' }],
      },
    });
    // env added to a container (merge key name), a finalizer (a merge list of scalars), another toleration
    const more = c.apply(manifest({ ...base, extra: `  activeDeadlineSeconds: 1800\n${tolerations(DEDICATED, 'key: gpu, operator: Exists, effect: NoSchedule')}`, nginx: `${NGINX}:1.29`, env: '{name: A, value: "1"}', finalizers: 'example.com/keep' }));
    expect(more.exitCode).toBe(1);
    expect(more.patch).toEqual({
      metadata: { annotations: { LA: '…' }, finalizers: ['example.com/keep'] },
      spec: {
        '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'side' }],
        activeDeadlineSeconds: 1800,
        containers: [{ env: [{ name: 'A', value: '1' }], image: `${NGINX}:1.29`, name: 'nginx' }],
        tolerations: [{ effect: 'NoSchedule', key: 'dedicated', operator: 'Equal', value: 'web' }, { effect: 'NoSchedule', key: 'gpu', operator: 'Exists' }],
      },
    });
    // nothing was changed by the refused patches
    expect(c.pod().spec.containers.map((x) => x.name)).toEqual(['nginx', 'side']);
    expect(c.pod().spec.restartPolicy).toBe('Always');
  });

  it('a pod created by kubectl run: the missing-annotation warning, then the annotation is patched in', () => {
    const c = console_();
    expect(c.run(`kubectl run web --image=${NGINX}:alpine`).stdout).toBe('pod/web created\n');
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {run: web, extra: "yes"}\nspec:\n  containers:\n  - name: web\n    image: ${NGINX}:alpine\n`;
    const r = c.apply(text);
    expect(r).toMatchObject({
      stdout: 'pod/web configured\n',
      stderr:
        'Warning: resource pods/web is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
    });
    expect(r.patch).toEqual({ metadata: { annotations: { LA: '…' }, labels: { extra: 'yes' } } });
    expect(c.apply(text)).toMatchObject({ stdout: 'pod/web unchanged\n', stderr: '' });
  });
});

describe('createThreeWayMergePatch', () => {
  it('is {} when the manifest matches the live object (defaults on the server side are not deletions)', () => {
    const modified = { metadata: { name: 'a', labels: { x: '1' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const current = { metadata: { name: 'a', uid: 'u', labels: { x: '1' } }, spec: { containers: [{ name: 'c', image: 'i', imagePullPolicy: 'Always' }], dnsPolicy: 'ClusterFirst' } };
    expect(createThreeWayMergePatch(modified, modified, current)).toEqual({});
  });
  it('a reordered merge list gets $setElementOrder without content', () => {
    const original = { spec: { containers: [{ name: 'a' }, { name: 'b' }] } };
    const modified = { spec: { containers: [{ name: 'b' }, { name: 'a' }] } };
    expect(createThreeWayMergePatch(original, modified, original)).toEqual({ spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } });
  });
  it('a finalizer dropped from the manifest goes through $deleteFromPrimitiveList', () => {
    const original = { metadata: { finalizers: ['a', 'b'] } };
    const modified = { metadata: { finalizers: ['a'] } };
    expect(createThreeWayMergePatch(original, modified, original)).toEqual({
      metadata: { '$deleteFromPrimitiveList/finalizers': ['b'], '$setElementOrder/finalizers': ['a'] },
    });
  });
});

describe('kubectl create -f', () => {
  const pod = (name: string, labels: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  containers:\n  - name: app\n    image: ${NGINX}:alpine\n`;
  function setup() {
    const engine = createEngine({}, { seed: 1 });
    const sent: ClusterAction[] = [];
    const files: Record<string, string> = { 'pods.yaml': `${pod('web', 'app: web')}---\n${pod('db', 'app: db')}` };
    const run = (line: string) => execute(line, { get state() { return engine.state(); }, apply: (a) => (sent.push(a), engine.apply(a)), files });
    return { engine, sent, run };
  }

  it('sends each pod as written (namespace filled in), and goes on after a name already taken', () => {
    const { engine, sent, run } = setup();
    expect(run('kubectl create -f pods.yaml -l app=db').stdout).toBe('pod/db created\n');
    // with the field validation kubectl's default --validate=strict asks for
    expect(sent).toEqual([{ type: 'create', namespace: 'default', obj: expect.objectContaining({ metadata: { name: 'db', labels: { app: 'db' }, namespace: 'default' } }), fieldValidation: 'Strict' }]);
    const r = run('kubectl create -f pods.yaml');
    expect(r).toMatchObject({ stdout: 'pod/web created\n', stderr: 'Error from server (AlreadyExists): error when creating "pods.yaml": pods "db" already exists\n', exitCode: 1 });
    expect(engine.state().pods.map((p) => p.metadata.name).sort()).toEqual(['db', 'web']);
    // --save-config: the annotation kubectl apply reads, so a later apply patches instead of warning
    run('kubectl delete pod web --now');
    engine.advanceTo(engine.now + 60_000);
    run('kubectl create -f pods.yaml -l app=web --save-config');
    expect(JSON.parse(engine.state().pods.find((p) => p.metadata.name === 'web')!.metadata.annotations![LA])).toMatchObject({ metadata: { name: 'web', namespace: 'default' } });
    expect(run('kubectl apply -f pods.yaml -l app=web').stderr).toBe('');
  });

  it('refuses the subcommands by name before reading their flags, and --edit, which needs an editor', () => {
    const { sent, run } = setup();
    for (const line of ['kubectl create deployment web --image=nginx --replicas=2', 'kubectl -n x create serviceaccount s', 'kubectl create --dry-run=client ns team']) {
      const r = run(line);
      expect(r.exitCode, line).toBe(1);
      expect(r.stderr, line).toMatch(/^error: podlife: "kubectl create (deployment|serviceaccount|ns)" is not supported by this simulation: it models Pods/);
    }
    // of the secrets, generic is run (configs.ts); docker-registry and tls are refused by name
    expect(run('kubectl -n x create secret tls s --cert=c --key=k').stderr).toBe('error: podlife: "kubectl create secret tls" is not supported by this simulation (kubectl create secret generic is)\n');
    expect(run('kubectl create -f pods.yaml --edit').stderr).toMatch(/--edit opens an editor/);
    expect(sent).toEqual([]);
  });
});
