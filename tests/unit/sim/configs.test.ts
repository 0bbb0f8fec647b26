// ConfigMaps and Secrets: the API server's store (api/configs.ts), and what the kubelet does once a pod's missing
// ConfigMap or Secret is created: the volume mounts on the reconciler's next retry and the waiting sync goes on; the
// container's environment gets the values.
import { describe, expect, it } from 'vitest';
import type { ConfigAction, ConfigObject, Engine } from '../../../src/sim/types.ts';
import { isConfigMapKey } from '../../../src/sim/api/validation.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { runCommandAt, runnable, runScenario } from '../../../src/sim/run.ts';
import { ScenarioError } from '../../../src/sim/scenario.ts';
import { create, engineWith, NODE, pod, podManifest } from './helpers.ts';

const NGINX = 'm.daocloud.io/docker.io/library/nginx:alpine';
const BUSYBOX = 'm.daocloud.io/docker.io/busybox';
const engine = (): Engine => engineWith({ nodes: [{ ...NODE, images: [NGINX, BUSYBOX] }] });

function createConfig(e: Engine, obj: Record<string, unknown>, namespace = 'default') {
  return e.apply({ type: 'config', verb: 'create', namespace, obj: { apiVersion: 'v1', ...obj } } as ConfigAction);
}
const stored = (r: ReturnType<typeof createConfig>): ConfigObject => {
  if (!r.ok) throw new Error(r.status.message);
  return r.object;
};
const refused = (r: ReturnType<typeof createConfig>): string => (r.ok ? 'created' : `${r.status.code} ${r.status.reason}: ${r.status.message}`);

describe('the API server stores ConfigMaps and Secrets', () => {
  it('stores a ConfigMap with the metadata the server sets, and lists it at every later moment only', () => {
    const e = engine();
    e.advanceTo(5_000);
    const cm = stored(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'app-config', labels: { app: 'web' } }, data: { APP_MODE: 'demo' } }));
    expect(cm.metadata).toMatchObject({ name: 'app-config', namespace: 'default', labels: { app: 'web' }, creationTimestamp: new Date(e.state().epoch + 5_000).toISOString().replace('.000Z', 'Z') });
    expect(cm.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cm.data).toEqual({ APP_MODE: 'demo' });
    expect(e.state().configMaps).toEqual([cm]);
    expect(e.stateAt(4_999).configMaps).toEqual([]);
    expect(e.trace.at(-1)).toMatchObject({ actor: 'apiserver', kind: 'ConfigMapCreated', object: 'configmap/default/app-config' });
  });

  it('writes a Secret\'s stringData into data, base64-encoded, over a key of the same name, and defaults its type to Opaque', () => {
    const e = engine();
    const s = stored(createConfig(e, { kind: 'Secret', metadata: { name: 'db' }, data: { user: 'YWRtaW4=', password: 'eA==' }, stringData: { password: 'hunter2 ✓' } }));
    expect(s.data).toEqual({ user: 'YWRtaW4=', password: Buffer.from('hunter2 ✓').toString('base64') });
    expect(s.type).toBe('Opaque');
    expect(s).not.toHaveProperty('stringData');
    expect(stored(createConfig(e, { kind: 'Secret', metadata: { name: 'tls' }, type: 'kubernetes.io/basic-auth' })).type).toBe('kubernetes.io/basic-auth');
  });

  it('refuses what a real API server refuses, with its messages', () => {
    const e = engine();
    stored(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'app-config' } }));
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'app-config' } }))).toBe('409 AlreadyExists: configmaps "app-config" already exists');
    // every namespace has kube-root-ca.crt
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt' } }, 'kube-system'))).toBe('409 AlreadyExists: configmaps "kube-root-ca.crt" already exists');
    expect(refused(createConfig(e, { kind: 'Secret', metadata: { name: 's' } }, 'prod'))).toBe('404 NotFound: namespaces "prod" not found');
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: {} }))).toBe('422 Invalid: ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'app config': 'x', ok: 'y' } }))).toBe(
      "422 Invalid: ConfigMap \"c\" is invalid: data[app config]: Invalid value: \"app config\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'x' }, binaryData: { k: 'eA==' } }))).toBe('422 Invalid: ConfigMap "c" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData');
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'c' }, datas: {} }))).toBe('400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "datas"');
    // Go's base64.StdEncoding: "YQ" lacks its padding, which it reports at the start of the last quantum
    expect(refused(createConfig(e, { kind: 'Secret', metadata: { name: 's' }, data: { a: 'YQ' } }))).toBe('400 BadRequest: Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0');
    expect(refused(createConfig(e, { kind: 'Secret', metadata: { name: 's' }, data: { a: 'YWJj*' } }))).toBe('400 BadRequest: Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4');
    expect(refused(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 1 } }))).toBe('400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  });

  it('deletes one, and answers NotFound for one that is not there', () => {
    const e = engine();
    stored(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'c' } }));
    e.advanceTo(1_000);
    const r = e.apply({ type: 'config', verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'c' });
    expect(r.ok && r.deleted).toBe(true);
    expect(e.state().configMaps).toEqual([]);
    expect(e.stateAt(500).configMaps).toHaveLength(1);
    const again = e.apply({ type: 'config', verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'c' });
    expect(again.ok ? 'deleted' : again.status.message).toBe('configmaps "c" not found');
  });

  // upstream: apimachinery pkg/util/validation/validation_test.go TestIsConfigMapKey
  it.each([
    ['a', true], ['ab', true], ['abc', true], ['a1', true], ['a-1', true], ['a--1--2--b', true], ['-a', true], ['a.b', true],
    ['a_b', true], ['.a', true], ['a..b', true], ['A', true], ['AB', true], ['_a', true], ['a_', true], ['-', true],
    ['', false], ['a b', false], ['a&b', false], ['.', false], ['..', false], ['..a', false], ['x'.repeat(254), false],
  ])('config key %j is valid: %s', (key, valid) => {
    expect(isConfigMapKey(key).length === 0).toBe(valid);
  });
});

describe('a pod waiting for its ConfigMap, which is then created', () => {
  const e = engine();
  create(e, podManifest('web', { image: NGINX, volumeMounts: [{ name: 'config', mountPath: '/etc/app' }] }, { volumes: [{ name: 'config', configMap: { name: 'app-config' } }] }));
  e.advanceTo(310_000);
  stored(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'app-config' }, data: { APP_MODE: 'demo' } }));
  e.advanceTo(600_000);
  const failures = e.trace.filter((ev) => ev.kind === 'MountFailed');
  const mounted = e.trace.filter((ev) => ev.kind === 'VolumeMounted');

  it('mounts it at the reconciler\'s next retry, which the back-off permits (not at once), and fails no more', () => {
    expect(mounted).toHaveLength(1);
    expect(mounted[0].detail).toBe('MountVolume.SetUp succeeded for volume "config"');
    const last = failures.at(-1)!;
    expect(last.t).toBeLessThan(310_000);
    // the last failure's back-off is the cap, 2m2s: the retry after it is the first that can see the ConfigMap
    expect(last.detail).toMatch(/retry after 2m2s$/);
    expect(mounted[0].t - last.t).toBeGreaterThanOrEqual(122_000);
    expect(mounted[0].t - last.t).toBeLessThan(122_100);
  });

  it('lets the waiting sync go on at WaitForAttachAndMount\'s next 300 ms poll: the sandbox, then the container', () => {
    const sandbox = e.trace.find((ev) => ev.kind === 'SandboxCreated')!;
    const poll = e.trace.find((ev) => ev.t >= mounted[0].t && ev.kind === 'SandboxConfig')!;
    expect(poll.t - mounted[0].t).toBeGreaterThanOrEqual(0);
    expect(poll.t - mounted[0].t).toBeLessThan(300);
    expect(sandbox.t).toBeGreaterThan(poll.t);
    const p = pod(e, 'web')!;
    expect(p.status.phase).toBe('Running');
    expect(p.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    // the sync that was waiting did not fail: no "Error syncing pod" after the mount
    expect(e.state().kubeletLogs.filter((l) => l.msg === 'Error syncing pod, skipping' && l.t > mounted[0].t)).toEqual([]);
  });

  it('keeps the FailedMount event, as the API keeps it, with the count it reached', () => {
    const ev = e.state().events.find((x) => x.reason === 'FailedMount')!;
    expect(ev.count).toBe(failures.length);
    expect(e.state().events.map((x) => x.reason)).toEqual(expect.arrayContaining(['Scheduled', 'FailedMount', 'Pulled', 'Created', 'Started']));
  });
});

describe('a container\'s environment from ConfigMaps and Secrets', () => {
  const env = [
    { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'APP_MODE' } } },
    { name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
    { name: 'GREETING', value: 'mode=$(MODE) x=$(CFG_X)' },
  ];
  const envFrom = [{ configMapRef: { name: 'app-config' }, prefix: 'CFG_' }, { secretRef: { name: 'db' } }];
  const script = 'echo "$MODE $PW $CFG_APP_MODE $CFG_X $password|$GREETING"; printenv CFG_1st; sleep 3600';

  it('waits with CreateContainerConfigError while one is missing, then starts with their values', () => {
    const e = engine();
    stored(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'app-config' }, data: { APP_MODE: 'demo', X: '1', '1st': 'kept' } }));
    create(e, podManifest('app', { image: BUSYBOX, command: ['sh', '-c', script], env, envFrom }));
    e.advanceTo(60_000);
    const p = pod(e, 'app')!;
    expect(p.status.containerStatuses?.[0].state).toEqual({ waiting: { reason: 'CreateContainerConfigError', message: 'secret "db" not found' } });
    stored(createConfig(e, { kind: 'Secret', metadata: { name: 'db' }, stringData: { password: 'hunter2' } }));
    e.advanceTo(120_000);
    expect(pod(e, 'app')!.status.containerStatuses?.[0].state).toHaveProperty('running');
    // envFrom first (with its prefix; every key, even one that is not a C identifier: RelaxedEnvironmentVariableValidation),
    // then env, which may refer to them
    expect(e.state().containerLogs.map((l) => l.text)).toEqual(['demo hunter2 demo 1 hunter2|mode=demo x=1', 'kept']);
  });

  it('names a key the ConfigMap or Secret lacks, as makeEnvironmentVariables does', () => {
    const e = engine();
    stored(createConfig(e, { kind: 'ConfigMap', metadata: { name: 'app-config' }, data: { other: 'x' } }));
    stored(createConfig(e, { kind: 'Secret', metadata: { name: 'db' }, data: {} }));
    create(e, podManifest('a', { image: BUSYBOX, command: ['sleep', '3600'], env: [env[0]] }));
    create(e, podManifest('b', { image: BUSYBOX, command: ['sleep', '3600'], env: [env[1]] }));
    e.advanceTo(30_000);
    expect(pod(e, 'a')!.status.containerStatuses?.[0].state.waiting?.message).toBe("couldn't find key APP_MODE in ConfigMap default/app-config");
    expect(pod(e, 'b')!.status.containerStatuses?.[0].state.waiting?.message).toBe("couldn't find key password in Secret default/db");
  });
});

describe('a scenario applies ConfigMaps and Secrets', () => {
  const scenario = (manifest: string) => `title: t\ntimeline:\n  - at: 0s\n    apply: |\n${manifest.split('\n').map((l) => `      ${l}`).join('\n')}\n`;
  it('takes a ConfigMap manifest', () => {
    expect(() => parseScenario(scenario('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  APP_MODE: demo'), 'x.yaml')).not.toThrow();
  });
  it('points at the key the API server refuses, with its message', () => {
    let err: unknown;
    try {
      parseScenario(scenario('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  good: x\n  bad key: y'), 'x.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).message).toContain('ConfigMap "app-config" is invalid: data[bad key]: Invalid value: "bad key": a valid config key');
    expect((err as ScenarioError).line).toBe(11);
  });
});

describe('a container reads its ConfigMap, Secret and downward API volumes\' files', () => {
  const yaml = `title: files
timeline:
  - at: 0s
    run: kubectl create configmap app-config --from-literal=APP_MODE=demo --from-literal=LEVEL=3
  - at: 0s
    run: kubectl create secret generic db --from-literal=password=hunter2 --from-literal=user=admin
  - at: 1s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: app, labels: {tier: web, app: shop}}
      spec:
        containers:
        - name: c
          image: ${NGINX}
          volumeMounts:
          - {name: config, mountPath: /etc/app}
          - {name: creds, mountPath: /etc/creds/}
          - {name: meta, mountPath: /etc/podinfo}
          - {name: config, mountPath: /etc/mode.conf, subPath: APP_MODE}
        - name: other
          image: ${NGINX}
        volumes:
        - {name: config, configMap: {name: app-config}}
        - name: creds
          secret: {secretName: db, items: [{key: password, path: db/password}]}
        - name: meta
          downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}, {path: name, fieldRef: {fieldPath: metadata.name}}]}
`;
  const s = runnable(parseScenario(yaml, 'files.yaml'));
  const at = (cmd: string) => runCommandAt(s, 60_000, cmd);
  // what cat printed, line by line: the model's output is lines (a file without a final newline, as these values
  // are, ends its line where the real cat would run on into the next file or the prompt)
  const lines = (cmd: string) => at(cmd).stdout.split('\n').filter(Boolean);

  it('every key of a ConfigMap at the mount path; a subPath mounts one key as a file', () => {
    expect(at('kubectl exec app -c c -- ls /etc/app').stdout).toBe('APP_MODE\nLEVEL\n');
    expect(lines('kubectl exec app -c c -- cat /etc/app/LEVEL /etc/mode.conf')).toEqual(['3', 'demo']);
  });
  it('a Secret\'s items at their paths, decoded; the keys not listed are not there', () => {
    expect(lines('kubectl exec app -c c -- cat /etc/creds/db/password')).toEqual(['hunter2']);
    expect(at('kubectl exec app -c c -- cat /etc/creds/user')).toMatchObject({ stderr: "cat: can't open '/etc/creds/user': No such file or directory\ncommand terminated with exit code 1\n", exitCode: 1 });
  });
  it('the downward API\'s labels as key="value" lines, sorted; the pod\'s name', () => {
    expect(lines('kubectl exec app -c c -- cat /etc/podinfo/labels')).toEqual(['app="shop"', 'tier="web"']);
    expect(lines('kubectl exec app -c c -- cat /etc/podinfo/name')).toEqual(['app']);
  });
  it('only in the container that mounts them, with the service account\'s ca.crt and namespace in every one', () => {
    expect(at('kubectl exec app -c other -- cat /etc/app/LEVEL').stderr).toMatch(/^podlife: the image's own files are not modelled/);
    expect(lines('kubectl exec app -c other -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace')).toEqual(['default']);
  });
});

/**
 * A scenario: the ConfigMap `app` (MODE=demo) at 0s, at 1s the pod `web` with one container `c` (`container`: the
 * rest of its lines), then `steps`.
 */
const withApp = (title: string, container: string, steps: string) => runnable(parseScenario(`title: ${title}
timeline:
  - at: 0s
    run: kubectl create configmap app --from-literal=MODE=demo
  - at: 1s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: web}
      spec:
        containers:
        - name: c
${container}${steps}`, `${title}.yaml`));

describe('a ConfigMap deleted while a pod uses it', () => {
  const s = withApp('deleted', `          image: ${NGINX}
          env: [{name: MODE, valueFrom: {configMapKeyRef: {name: app, key: MODE}}}]
          volumeMounts: [{name: v, mountPath: /etc/app}]
        volumes: [{name: v, configMap: {name: app}}]
`, `  - at: 60s
    run: kubectl delete configmap app
  - at: 61s
    run: kubectl run late --image=${NGINX} --overrides='{"spec":{"containers":[{"name":"late","image":"${NGINX}","envFrom":[{"configMapRef":{"name":"app"}}]}]}}'
`);
  const at = (cmd: string) => runCommandAt(s, 120_000, cmd);

  it('leaves the running container its environment and the files the kubelet wrote', () => {
    expect(at('kubectl exec web -- printenv MODE').stdout).toBe('demo\n');
    expect(at('kubectl exec web -- cat /etc/app/MODE').stdout).toBe('demo\n');
    expect(at('kubectl get pod web --no-headers').stdout).toMatch(/^web\s+1\/1\s+Running/);
  });
  it('keeps a new container from starting: the ConfigMap is not there any more', () => {
    expect(at('kubectl get pod late -o jsonpath={.status.containerStatuses[0].state.waiting}').stdout).toBe('{"message":"configmap \\"app\\" not found","reason":"CreateContainerConfigError"}');
  });
  it('each sync of the running pod remounts its volume, which fails (FailedMount, with the back-off) and leaves the files', () => {
    const e = runScenario(s).engine;
    e.advanceTo(6 * 60_000);
    const failures = e.trace.filter((ev) => ev.kind === 'MountFailed');
    // not at the delete: at the pod's next sync (within the sync period and its jitter), then on the back-off
    expect(failures[0].t).toBeGreaterThan(60_000);
    expect(failures[0].t).toBeLessThan(60_000 + 90_000 + 300);
    const gaps = failures.slice(1, 4).map((ev, i) => ev.t - failures[i].t);
    expect(gaps.map((g) => Math.floor(g / 100) * 100)).toEqual([500, 1000, 2000]);
    expect(runCommandAt(s, 6 * 60_000, 'kubectl describe pod web').stdout).toMatch(/Warning {2}FailedMount {2}\S+ \(x\d+ over \S+\)\s+kubelet\s+MountVolume\.SetUp failed for volume "v" : configmap "app" not found\n$/);
    expect(runCommandAt(s, 6 * 60_000, 'kubectl get pod web --no-headers').stdout).toMatch(/^web\s+1\/1\s+Running\s+0/);
    expect(runCommandAt(s, 6 * 60_000, 'kubectl exec web -- cat /etc/app/MODE').stdout).toBe('demo\n');
  });
});

describe('a ConfigMap changed while a pod uses it', () => {
  const s = withApp('changed', `          image: ${BUSYBOX}
          command: [sh, -c, "sleep 100; exit 1"]
          envFrom: [{configMapRef: {name: app}}]
          volumeMounts:
          - {name: v, mountPath: /etc/app}
          - {name: v, mountPath: /etc/mode, subPath: MODE}
        volumes: [{name: v, configMap: {name: app}}]
`, `  - at: 30s
    run: kubectl patch configmap app -p '{"data":{"MODE":"prod"}}'
`);
  const at = (t: number, cmd: string) => runCommandAt(s, t, cmd).stdout;
  const engineAt = (t: number): Engine => {
    const e = runScenario(s).engine;
    e.advanceTo(t);
    return e;
  };
  const updated = engineAt(200_000).trace.find((ev) => ev.kind === 'VolumeUpdated')!;

  it('reaches the volume\'s files at the pod\'s next sync, not at once', () => {
    expect(at(31_000, 'kubectl exec web -- cat /etc/app/MODE')).toBe('demo\n');
    expect(updated.t).toBeGreaterThan(30_000);
    expect(updated.t).toBeLessThan(30_000 + 90_000 + 300);
    expect(at(updated.t - 1, 'kubectl exec web -- cat /etc/app/MODE')).toBe('demo\n');
    expect(at(updated.t, 'kubectl exec web -- cat /etc/app/MODE')).toBe('prod\n');
  });
  it('not the running container\'s environment, nor a file it mounts by subPath: those are what it was made with', () => {
    expect(at(99_000, 'kubectl exec web -- printenv MODE')).toBe('demo\n');
    expect(at(99_000, 'kubectl exec web -- cat /etc/mode')).toBe('demo\n');
  });
  it('the container made again after it exits has the new values', () => {
    const restarted = runCommandAt(s, 200_000, 'kubectl get pod web -o jsonpath={.status.containerStatuses[0].restartCount}');
    expect(restarted.stdout).toBe('1');
    expect(at(200_000, 'kubectl exec web -- printenv MODE')).toBe('prod\n');
    expect(at(200_000, 'kubectl exec web -- cat /etc/mode')).toBe('prod\n');
  });
  it('the API server keeps each version: stateAt has the old one before the patch, the new one after', () => {
    const e = engineAt(40_000);
    expect(e.stateAt(29_999).configMaps![0].data).toEqual({ MODE: 'demo' });
    expect(e.stateAt(30_000).configMaps![0].data).toEqual({ MODE: 'prod' });
    expect(Number(e.stateAt(30_000).configMaps![0].metadata.resourceVersion)).toBeGreaterThan(Number(e.stateAt(29_999).configMaps![0].metadata.resourceVersion));
    expect(e.trace.find((ev) => ev.kind === 'ConfigMapUpdated')).toMatchObject({ t: 30_000, actor: 'apiserver', object: 'configmap/default/app' });
  });
});

describe('a running pod labeled: its downward API volume', () => {
  const s = runnable(parseScenario(`title: labeled
timeline:
  - at: 0s
    apply: |
      apiVersion: v1
      kind: Pod
      metadata: {name: web, labels: {tier: web}}
      spec:
        containers:
        - name: c
          image: ${NGINX}
          volumeMounts: [{name: info, mountPath: /etc/podinfo}]
        volumes: [{name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}]
  - at: 30s
    run: kubectl label pod web track=stable
`, 'labeled.yaml'));
  const e = runScenario(s).engine;
  e.advanceTo(40_000);
  const updated = e.trace.find((ev) => ev.kind === 'VolumeUpdated')!;

  it('gets the new labels once the kubelet has synced the pod\'s update (podsDifferSemantically) and remounted it', () => {
    // the update is synced at once (the watch's latency, the populator's and the reconciler's loops), not at the
    // pod's next resync, a minute after its last sync
    expect(updated.t).toBeGreaterThan(30_000);
    expect(updated.t).toBeLessThan(30_500);
    expect(runCommandAt(s, updated.t - 1, 'kubectl exec web -- cat /etc/podinfo/labels').stdout).toBe('tier="web"\n');
    expect(runCommandAt(s, updated.t, 'kubectl exec web -- cat /etc/podinfo/labels').stdout).toBe('tier="web"\ntrack="stable"\n');
  });
});
