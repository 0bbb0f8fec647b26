// The API server's answers, as a kubeadm v1.36 API server gives them: defaulting and admission of a `kubectl run`
// pod, validation errors (422 with causes), conflicts, graceful deletion with finalizers, and the three patch types.
import { describe, expect, it } from 'vitest';
import type { ApiStatus, Pod } from '../../../src/sim/types.ts';
import { createEngineCore } from '../../../src/sim/engine-core.ts';
import { create, engineWith, podManifest } from './helpers.ts';
import { execute } from '../../../src/sim/commands/execute.ts';

/** What `kubectl run nginx --image=nginx --restart=Never` sends. */
const kubectlRun = { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { run: 'nginx' }, name: 'nginx' }, spec: { containers: [{ image: 'nginx', name: 'nginx', resources: {} }], dnsPolicy: 'ClusterFirst', restartPolicy: 'Never' }, status: {} };

function reject(obj: unknown): ApiStatus {
  const e = engineWith();
  const r = e.apply({ type: 'create', namespace: 'default', obj });
  if (r.ok) throw new Error('expected the API server to reject the object');
  return r.status;
}

describe('create: defaulting and admission', () => {
  it('defaults a kubectl-run pod as the real API server does', () => {
    const e = engineWith();
    const p = create(e, kubectlRun);
    const volume = p.spec.volumes![0].name;
    expect(volume).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(p.metadata).toMatchObject({ name: 'nginx', namespace: 'default', generation: 1, labels: { run: 'nginx' } });
    expect(p.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(p.metadata.creationTimestamp).toBe('2026-08-04T03:00:00Z');
    expect(p.spec).toEqual({
      containers: [{
        image: 'nginx', imagePullPolicy: 'Always', name: 'nginx', resources: {},
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
        volumeMounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volume, readOnly: true }],
      }],
      dnsPolicy: 'ClusterFirst', enableServiceLinks: true, preemptionPolicy: 'PreemptLowerPriority', priority: 0,
      restartPolicy: 'Never', schedulerName: 'default-scheduler', securityContext: {}, serviceAccount: 'default',
      serviceAccountName: 'default', terminationGracePeriodSeconds: 30,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
      ],
      volumes: [{
        name: volume,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
          ],
        },
      }],
    });
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('imagePullPolicy: Always for :latest or untagged, else IfNotPresent', () => {
    const e = engineWith();
    const policy = (name: string, image: string) => create(e, podManifest(name, { image })).spec.containers[0].imagePullPolicy;
    expect(policy('a', 'nginx')).toBe('Always');
    expect(policy('b', 'nginx:latest')).toBe('Always');
    expect(policy('c', 'nginx:1.29')).toBe('IfNotPresent');
    expect(policy('d', `nginx@sha256:${'a'.repeat(64)}`)).toBe('IfNotPresent');
    expect(policy('e', 'm.daocloud.io/docker.io/busybox')).toBe('Always');
  });

  it('probe defaults, requests from limits, and the QoS class', () => {
    const e = engineWith();
    const p = create(e, podManifest('q', {
      image: 'nginx:1.29',
      resources: { limits: { cpu: '500m', memory: '128Mi' } },
      livenessProbe: { httpGet: { port: 80 } },
    }));
    expect(p.spec.containers[0].resources.requests).toEqual({ cpu: '500m', memory: '128Mi' });
    expect(p.spec.containers[0].livenessProbe).toEqual({
      httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
    });
    expect(p.status.qosClass).toBe('Guaranteed');
    expect(create(e, podManifest('b', { image: 'nginx:1.29', resources: { requests: { cpu: '100m' } } })).status.qosClass).toBe('Burstable');
  });

  it('a gRPC probe\'s service, a hostPath\'s type and a resourceFieldRef\'s divisor, as a real pod reads back', () => {
    const p = create(engineWith(), podManifest('g', {
      image: 'nginx:1.29',
      readinessProbe: { grpc: { port: 9090 } },
      env: [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
    }, { volumes: [{ name: 'hp', hostPath: { path: '/tmp' } }] }));
    const c = p.spec.containers[0] as unknown as { readinessProbe: { grpc: unknown }; env: { valueFrom: { resourceFieldRef: unknown } }[] };
    expect(c.readinessProbe.grpc).toEqual({ port: 9090, service: '' });
    expect(c.env[0].valueFrom.resourceFieldRef).toEqual({ resource: 'limits.cpu', divisor: '0' });
    expect(p.spec.volumes![0]).toEqual({ name: 'hp', hostPath: { path: '/tmp', type: '' } });
  });
});

describe('create: validation (422 Invalid) and conflicts', () => {
  it('a namespace the cluster does not have: NotFound from NamespaceLifecycle, after validation', () => {
    const e = engineWith();
    const r = e.apply({ type: 'create', namespace: 'nosuch', obj: kubectlRun });
    expect(r).toEqual({ ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'namespaces "nosuch" not found', reason: 'NotFound', details: { name: 'nosuch', kind: 'namespaces' }, code: 404 } });
    expect(e.state().pods).toEqual([]);
    const invalid = e.apply({ type: 'create', namespace: 'nosuch', obj: podManifest('web', { image: undefined }) });
    expect(!invalid.ok && invalid.status.reason).toBe('Invalid');
    expect(e.apply({ type: 'create', namespace: 'kube-system', obj: kubectlRun }).ok).toBe(true);
  });
  it('a container without an image', () => {
    const s = reject(podManifest('web', { image: undefined }));
    expect(s).toEqual({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Invalid', code: 422,
      message: 'Pod "web" is invalid: spec.containers[0].image: Required value',
      details: { name: 'web', kind: 'Pod', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }] },
    });
  });
  it('an unsupported restart policy lists the supported values', () => {
    expect(reject(podManifest('web', { image: 'nginx' }, { restartPolicy: 'Sometimes' })).message).toBe(
      'Pod "web" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    );
  });
  it('several errors are listed in brackets', () => {
    const s = reject(podManifest('web', { image: 'nginx' }, { terminationGracePeriodSeconds: -5, dnsPolicy: 'Nope' }));
    expect(s.message).toBe(
      'Pod "web" is invalid: [spec.dnsPolicy: Unsupported value: "Nope": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None", spec.terminationGracePeriodSeconds: Invalid value: -5: must be greater than or equal to 0]',
    );
    expect(s.details!.causes!.map((c) => c.reason)).toEqual(['FieldValueNotSupported', 'FieldValueInvalid']);
  });
  it('names must be DNS-1123', () => {
    expect(reject(podManifest('Web_1', { image: 'nginx' })).message).toContain(
      'metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters',
    );
    const s = reject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ok' }, spec: { containers: [{ name: 'Web', image: 'nginx' }] } });
    expect(s.message).toContain('spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of');
  });
  it('duplicate container names', () => {
    const s = reject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }] } });
    expect(s.message).toBe('Pod "p" is invalid: spec.containers[1].name: Duplicate value: "a"');
  });
  it('a negative quantity is invalid; a malformed one cannot be decoded (400)', () => {
    expect(reject(podManifest('p', { image: 'x', resources: { requests: { cpu: '-1' } } })).message).toBe(
      'Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    );
    const s = reject(podManifest('p', { image: 'x', resources: { requests: { cpu: 'lots' } } }));
    expect(s).toMatchObject({ reason: 'BadRequest', code: 400 });
    expect(s.message).toBe(
      "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });
  it('requests above limits', () => {
    expect(reject(podManifest('p', { image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })).message).toBe(
      'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    );
  });
  it('unknown fields and wrong types are rejected by strict decoding', () => {
    expect(reject(podManifest('p', { image: 'x', imagee: 'y' })).message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagee"',
    );
    expect(reject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: 'nginx' } }).message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container',
    );
  });
  it('409 AlreadyExists and 404 NotFound in the Status shape', () => {
    const e = engineWith();
    create(e, kubectlRun);
    const again = e.apply({ type: 'create', namespace: 'default', obj: kubectlRun });
    expect(again).toEqual({ ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'pods "nginx" already exists', reason: 'AlreadyExists', details: { name: 'nginx', kind: 'pods' }, code: 409 } });
    const missing = e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'ghost' });
    expect(missing).toEqual({ ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'pods "ghost" not found', reason: 'NotFound', details: { name: 'ghost', kind: 'pods' }, code: 404 } });
  });
});

describe('graceful deletion', () => {
  const running = () => {
    const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images: ['nginx:1.29'] }] });
    create(e, podManifest('web', { image: 'nginx:1.29' }));
    e.advanceTo(5000);
    return e;
  };
  const get = (e: ReturnType<typeof engineWith>): Pod | undefined => e.state().pods.find((p) => p.metadata.name === 'web');

  it('sets deletionTimestamp = now + grace and removes the object once the kubelet has stopped the containers', () => {
    const e = running();
    const r = e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'web' });
    expect(r.ok && r.object.metadata).toMatchObject({ deletionTimestamp: '2026-08-04T03:00:35Z', deletionGracePeriodSeconds: 30 });
    e.advanceTo(5100);
    expect(get(e)).toBeDefined();
    e.advanceTo(7000);
    expect(get(e)).toBeUndefined(); // nginx stops at once on its stop signal; the status manager then deletes with grace 0
    const killing = e.state().events.find((ev) => ev.reason === 'Killing')!;
    expect(killing.message).toBe('Stopping container web');
  });
  it('an unscheduled pod is deleted at once', () => {
    const e = engineWith({ nodes: [{ name: 'tiny', ip: '10.0.0.9', podCIDR: '10.244.9.0/24', capacity: { cpu: '1' } }] });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '8' } } }));
    e.advanceTo(1000);
    const r = e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'big' });
    expect(r.ok && r.deleted).toBe(true);
    expect(e.state().pods).toEqual([]);
  });
  it('a pod with finalizers stays Terminating until a merge patch removes them', () => {
    const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images: ['nginx:1.29'] }] });
    create(e, podManifest('web', { image: 'nginx:1.29' }, {}, { finalizers: ['example.com/cleanup'] }));
    e.advanceTo(5000);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'web' });
    e.advanceTo(120_000);
    const p = get(e)!;
    expect(p.metadata.deletionGracePeriodSeconds).toBe(0); // the kubelet's final DELETE with grace 0
    expect(p.metadata.finalizers).toEqual(['example.com/cleanup']);
    // a strategic merge patch with [] keeps a "merge" list: the finalizer stays
    const smp = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', patch: { metadata: { finalizers: [] } } });
    expect(smp.ok && smp.unchanged).toBe(true);
    const merge = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', patch: { metadata: { finalizers: [] } } });
    expect(merge.ok && merge.deleted).toBe(true);
    expect(get(e)).toBeUndefined();
  });
  it('--force --grace-period=0 removes the object at once while the kubelet still stops the container', () => {
    const e = running();
    const r = e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'web', gracePeriodSeconds: 0, force: true });
    expect(r.ok && r.deleted).toBe(true);
    expect(get(e)).toBeUndefined();
    e.advanceTo(10_000);
    const c = e.state().runtimes[0].containers.find((x) => x.name === 'web');
    expect(c === undefined || c.state === 'CONTAINER_EXITED').toBe(true);
  });
});

describe('PUT (kubectl replace): the whole object, through the update path', () => {
  const running = () => {
    const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images: ['nginx:1.28', 'nginx:1.29'] }] });
    create(e, podManifest('web', { image: 'nginx:1.28' }, {}, { labels: { app: 'web' }, finalizers: ['example.com/keep'] }));
    e.advanceTo(5000);
    return e;
  };
  const put = (e: ReturnType<typeof engineWith>, obj: unknown) => e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'put', patch: obj });
  it('replaces labels and finalizers, keeps the status and the server\'s fields, moves the generation for a new image', () => {
    const e = running();
    const live = e.state().pods[0];
    const { status: _status, ...body } = structuredClone(live);
    body.metadata = { name: 'web', labels: { tier: 'front' } } as unknown as Pod['metadata'];
    body.spec.containers[0].image = 'nginx:1.29';
    const r = put(e, body);
    expect(r.ok).toBe(true);
    const p = e.state().pods[0];
    expect(p.metadata).toMatchObject({ uid: live.metadata.uid, creationTimestamp: live.metadata.creationTimestamp, generation: 2, labels: { tier: 'front' } });
    expect(p.metadata.finalizers).toBeUndefined();
    expect(p.status).toBe(live.status);
    expect(e.trace.at(-1)).toMatchObject({ kind: 'PodPatched', detail: 'pod "web" replaced' });
    e.advanceTo(7000);
    expect(e.state().pods[0].status.containerStatuses![0]).toMatchObject({ image: 'docker.io/library/nginx:1.29', restartCount: 1 });
  });
  it('the manifest it was created from is Forbidden (no node, no service account volume), not a priority error; another uid is Invalid', () => {
    const e = running();
    const r = put(e, podManifest('web', { image: 'nginx:1.28' }));
    expect(!r.ok && r.status.message).toMatch(/^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than /);
    const { status: _status, ...body } = structuredClone(e.state().pods[0]);
    body.metadata.uid = '00000000-0000-4000-8000-000000000000';
    const u = put(e, body);
    expect(!u.ok && u.status.message).toBe('Pod "web" is invalid: metadata.uid: Invalid value: "00000000-0000-4000-8000-000000000000": field is immutable');
  });
});

describe('kubectl replace --force: delete, then create once the pod is gone (replace.go forceReplace)', () => {
  const withFiles = (files: Record<string, string>) => {
    const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images: ['nginx:1.28', 'busybox:1.37'] }] });
    const ctx = { get state() { return e.state(); }, apply: (a: Parameters<typeof e.apply>[0]) => e.apply(a), files };
    return { e, run: (line: string) => execute(line, ctx) };
  };
  const next = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: busybox:1.37\n    command: [sleep, "3600"]\n';
  it('the new pod is created at the first poll after the old one is gone, a new uid, the same name', () => {
    const { e, run } = withFiles({ 'web.yaml': next });
    run('kubectl run web --image=nginx:1.28');
    e.advanceTo(20_000);
    const old = e.state().pods[0].metadata.uid;
    expect(run('kubectl replace --force -f web.yaml')).toEqual({ stdout: 'pod "web" deleted from default namespace\npod/web replaced\n', stderr: '', exitCode: 0 });
    e.advanceTo(40_000);
    const removed = e.trace.find((x) => x.kind === 'PodRemoved')!.t;
    const created = e.trace.filter((x) => x.kind === 'PodCreated').at(-1)!.t;
    // kubectl asks at once, then every second: the create comes at the first whole second after the removal
    expect([removed > 20_000, created, created - removed < 1000]).toEqual([true, 20_000 + Math.ceil((removed - 20_000) / 1000) * 1000, true]);
    const p = e.state().pods[0];
    expect([p.metadata.uid !== old, p.spec.containers[0].image, p.status.phase]).toEqual([true, 'busybox:1.37', 'Running']);
  });
  it('a pod with finalizers is refused by name before anything is deleted', () => {
    const { e, run } = withFiles({ 'web.yaml': next });
    create(e, podManifest('web', { image: 'nginx:1.28' }, {}, { finalizers: ['example.com/keep'] }));
    e.advanceTo(10_000);
    const r = run('kubectl replace --force -f web.yaml');
    expect([r.exitCode, r.stderr]).toEqual([1, 'error: podlife: pod "web" has finalizers (example.com/keep): kubectl replace --force would wait up to --timeout (5m0s) for them to be removed, which a transcript cannot show; remove them first, or kubectl delete and kubectl create -f\n']);
    expect(e.state().pods[0].metadata.deletionTimestamp).toBeUndefined();
  });
  it('a pod whose grace period may outlast --timeout is refused: the transcript cannot tell whether kubectl would time out', () => {
    const { e, run } = withFiles({ 'web.yaml': next });
    run('kubectl run web --image=nginx:1.28');
    e.advanceTo(10_000);
    expect(run('kubectl replace --force -f web.yaml --timeout=10s').stderr).toBe(
      'error: podlife: pod "web" may take its grace period (30s) to stop, longer than --timeout (10s): whether kubectl replace --force times out is more than a transcript can tell; give a longer --timeout\n',
    );
    expect(run('kubectl replace --force -f web.yaml --timeout=10s --grace-period=2').exitCode).toBe(0);
  });
});

describe('patch', () => {
  const base = () => {
    const e = engineWith();
    create(e, podManifest('web', { image: 'nginx:1.28' }, {}, { labels: { app: 'web' } }));
    return e;
  };
  it('a strategic merge patch updates a container image by name', () => {
    const e = base();
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', patch: { spec: { containers: [{ name: 'web', image: 'nginx:1.29' }] } } });
    expect(r.ok && r.object.spec.containers[0].image).toBe('nginx:1.29');
    expect(r.ok && r.object.metadata.generation).toBe(2);
  });
  it('a patch that renames the pod is a Bad Request (checkName), and the pod is left as it was', () => {
    const e = base();
    const before = e.state().pods.map((p) => [p.metadata.name, p.metadata.resourceVersion]);
    for (const [patchType, patch] of [['merge', { metadata: { name: 'other' } }], ['json', [{ op: 'remove', path: '/metadata/name' }]]] as const) {
      const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType, patch });
      const shown = patchType === 'merge' ? 'other' : '';
      expect(!r.ok && [r.status.reason, r.status.code, r.status.message]).toEqual(['BadRequest', 400, `the name of the object (${shown}) does not match the name on the URL (web)`]);
    }
    expect(e.state().pods.map((p) => [p.metadata.name, p.metadata.resourceVersion])).toEqual(before);
  });
  it('a JSON patch removes a label; one that does not apply gets the API server\'s generic 422, without the library\'s message', () => {
    const e = base();
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'json', patch: [{ op: 'remove', path: '/metadata/labels/app' }] });
    expect(r.ok && r.object.metadata.labels).toEqual({});
    const bad = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'json', patch: [{ op: 'remove', path: '/metadata/finalizers/0' }] });
    expect(!bad.ok && bad.status).toEqual({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422,
    });
  });
  it('an engine built without api/patch.ts (the player replaying a run without such patches) still merge-patches; a JSON or strategic patch gets a 500 and changes nothing', () => {
    const e = createEngineCore({}, { seed: 1 });
    create(e, podManifest('web', { image: 'nginx:1.28' }));
    for (const [patchType, patch] of [['json', [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]], ['strategic', { metadata: { labels: { a: 'b' } } }]] as const) {
      const before = JSON.stringify(e.state());
      const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType, patch });
      expect(!r.ok && r.status).toMatchObject({ reason: 'InternalError', code: 500 });
      expect(!r.ok && r.status.message).toContain(`without support for ${patchType} patches`);
      expect(JSON.stringify(e.state())).toBe(before);
    }
    const merged = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', patch: { metadata: { labels: { a: 'b' } } } });
    expect(merged.ok && merged.object.metadata.labels).toEqual({ a: 'b' });
  });
  it('other spec fields are immutable', () => {
    const e = base();
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', patch: { spec: { restartPolicy: 'Never' } } });
    expect(!r.ok && r.status.message).toMatch(/^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
  });
});

describe('priority admission', () => {
  it('resolves priorityClassName and refuses a hand-written priority (403)', () => {
    const e = engineWith();
    expect(create(e, podManifest('crit', { image: 'nginx' }, { priorityClassName: 'system-cluster-critical' })).spec.priority).toBe(2000000000);
    expect(reject(podManifest('p', { image: 'nginx' }, { priority: 1000 }))).toMatchObject({
      reason: 'Forbidden', code: 403,
      message: 'pods "p" is forbidden: the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    });
    expect(reject(podManifest('p', { image: 'nginx' }, { priorityClassName: 'gold' })).message).toBe('pods "p" is forbidden: no PriorityClass with name gold was found');
  });
});

describe('RuntimeClass admission', () => {
  it('refuses a pod naming a RuntimeClass the cluster lacks (a kubeadm cluster has none), before validation (403)', () => {
    expect(reject(podManifest('sandboxed', { image: 'nginx' }, { runtimeClassName: 'gvisor' }))).toMatchObject({
      reason: 'Forbidden', code: 403, details: { name: 'sandboxed', kind: 'pods' },
      message: 'pods "sandboxed" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
    });
    // an empty name is looked up too (validation, which would refuse it, comes after the admission plugins)
    expect(reject(podManifest('p', { image: 'nginx' }, { runtimeClassName: '' })).message).toBe('pods "p" is forbidden: pod rejected: RuntimeClass "" not found');
    // the Priority plugin runs first
    expect(reject(podManifest('p', { image: 'nginx' }, { runtimeClassName: 'gvisor', priorityClassName: 'gold' })).message).toBe('pods "p" is forbidden: no PriorityClass with name gold was found');
    const e = engineWith();
    expect(create(e, podManifest('plain', { image: 'nginx' })).spec).not.toHaveProperty('runtimeClassName');
  });
});
