// The volume manager's ConfigMap, Secret and projected volumes (kubelet/volumes.ts): which set-ups fail on the
// model's cluster (it has kube-root-ca.crt, key ca.crt, and nothing else), the reconciler's retries with
// nestedpendingoperations' back-off, SyncPod's wait for the volumes, and what a user sees of it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSource, volumeSetUpError } from '../../../src/sim/kubelet/volumes.ts';
import type { SimContext } from '../../../src/sim/core/context.ts';
import { klogLine } from '../../../src/sim/render/journal.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { runCommandAt, runnable } from '../../../src/sim/run.ts';
import type { Engine } from '../../../src/sim/types.ts';
import { create, engineWith, pod, podManifest } from './helpers.ts';

describe('volumeSetUpError: what SetUp returns on a cluster with only kube-root-ca.crt', () => {
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ['a ConfigMap that does not exist', { configMap: { name: 'app-config' } }, 'configmap "app-config" not found'],
    ['an optional ConfigMap that does not exist', { configMap: { name: 'app-config', optional: true } }, undefined],
    ['kube-root-ca.crt', { configMap: { name: 'kube-root-ca.crt' } }, undefined],
    ['kube-root-ca.crt, its one key', { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, undefined],
    ['kube-root-ca.crt, a key it lacks', { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'a' }, { key: 'tls.crt', path: 'b' }] } }, 'configmap references non-existent config key: tls.crt'],
    ['kube-root-ca.crt, an optional one with a key it lacks', { configMap: { name: 'kube-root-ca.crt', optional: true, items: [{ key: 'x', path: 'x' }] } }, undefined],
    ['a Secret', { secret: { secretName: 'db-password' } }, 'secret "db-password" not found'],
    ['an optional Secret', { secret: { secretName: 'db-password', optional: true } }, undefined],
    ['an emptyDir', { emptyDir: {} }, undefined],
    ['the service account token volume', {
      projected: { sources: [{ serviceAccountToken: { path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: {} }] },
    }, undefined],
    ['a projected volume with one missing source', { projected: { sources: [{ secret: { name: 's1' } }, { configMap: { name: 'kube-root-ca.crt' } }] } }, 'secret "s1" not found'],
    // collectData goes on past a failed source and returns the aggregate
    ['a projected volume with two missing sources', { projected: { sources: [{ configMap: { name: 'c1' } }, { secret: { name: 's1' } }] } }, '[configmap "c1" not found, secret "s1" not found]'],
  ];
  it.each(cases)('%s', (_, source, want) => {
    // the cluster of an engine without api/configs.ts: kube-root-ca.crt alone
    expect(volumeSetUpError({ name: 'v', ...source }, (resource, name) => configSource({} as SimContext, resource, 'default', name))).toBe(want);
  });
});

function missingConfigMapPod(e: Engine, volumes: Record<string, unknown>[], mounts = volumes.map((v) => v.name)): void {
  create(e, podManifest('web', {
    image: 'm.daocloud.io/docker.io/library/nginx:alpine',
    volumeMounts: mounts.map((name, i) => ({ name, mountPath: `/etc/v${i}` })),
  }, { volumes }));
}

const mountFailures = (e: Engine) => e.trace.filter((ev) => ev.kind === 'MountFailed');

describe('a pod whose ConfigMap volume cannot be set up', () => {
  const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 }, images: ['m.daocloud.io/docker.io/library/nginx:alpine'] }] });
  missingConfigMapPod(e, [{ name: 'config', configMap: { name: 'app-config' } }]);
  e.advanceTo(10 * 60_000);

  it('is retried with nestedpendingoperations\' back-off: 500 ms, doubling, at most 2m2s, on the reconciler\'s 100 ms loop', () => {
    const times = mountFailures(e).map((ev) => ev.t);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    // each retry runs on the first reconciler tick at or after the time the back-off permits it
    const backoff = [500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 122_000, 122_000, 122_000];
    expect(gaps.length).toBeGreaterThanOrEqual(backoff.length);
    for (const [i, want] of backoff.entries()) {
      expect(gaps[i]).toBeGreaterThanOrEqual(want);
      expect(gaps[i]).toBeLessThan(want + 100);
    }
    // the populator takes the pod in, then the reconciler tries: within two 100 ms loops of the kubelet's ADD
    const added = e.trace.find((ev) => ev.kind === 'PodAdded')!.t;
    expect(times[0] - added).toBeGreaterThan(0);
    expect(times[0] - added).toBeLessThanOrEqual(200);
  });

  it('stays ContainerCreating: no sandbox, PodReadyToStartContainers False, one FailedMount event counting every failure', () => {
    const p = pod(e, 'web')!;
    expect(p.status.phase).toBe('Pending');
    expect(p.status.containerStatuses?.[0].state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(p.status.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe('False');
    expect(e.state().runtimes[0].sandboxes).toEqual([]);
    expect(e.state().runtimes[0].containers).toEqual([]);
    const failed = e.state().events.filter((ev) => ev.reason === 'FailedMount');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: 'Warning', message: 'MountVolume.SetUp failed for volume "config" : configmap "app-config" not found', source: { component: 'kubelet', host: 'worker01' } });
    expect(failed[0].count).toBe(mountFailures(e).length);
  });

  it('fails each sync after WaitForAttachAndMount\'s 2m3s, naming the unmounted volume, and requeues it with the worker\'s back-off', () => {
    const errors = e.state().kubeletLogs.filter((l) => l.msg === 'Error syncing pod, skipping');
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect(errors[0].kv[0]).toEqual(['err', '"unmounted volumes=[config], unattached volumes=[], failed to process volumes=[]: context deadline exceeded"']);
    const firstSync = e.trace.find((ev) => ev.kind === 'StatusUpdated')!.t;
    expect(errors[0].t - firstSync).toBe(123_000);
    // the next sync comes after the pod worker's back-off (10 s, jittered up to half as much again), then waits 2m3s
    const gap = errors[1].t - errors[0].t - 123_000;
    expect(gap).toBeGreaterThanOrEqual(10_000);
    expect(gap).toBeLessThan(16_000);
  });

  it('logs each failure as the plugin and nestedpendingoperations do (klog.Errorf), the retry\'s time in the node\'s zone', () => {
    const lines = e.state().kubeletLogs.filter((l) => l.plain);
    expect(lines[0]).toMatchObject({ severity: 'E', source: 'configmap.go:193', msg: 'Couldn\'t get configMap default/app-config: configmap "app-config" not found', kv: [] });
    const uid = pod(e, 'web')!.metadata.uid;
    const op = lines[1];
    expect(op.source).toBe('nestedpendingoperations.go:348');
    expect(op.msg).toContain(`Operation for "{volumeName:kubernetes.io/configmap/${uid}-config podName:${uid} nodeName:}" failed. No retries permitted until `);
    expect(op.msg).toContain(`(durationBeforeRetry 500ms). Error: MountVolume.SetUp failed for volume "config" (UniqueName: "kubernetes.io/configmap/${uid}-config") pod "web" (UID: "${uid}") : configmap "app-config" not found`);
    const text = klogLine(op, op.t * 1000, { epoch: Date.UTC(2026, 7, 4, 3), utcOffsetMinutes: 480, kubeletPid: 4242 });
    // unquoted, with the time it names in local time and its monotonic reading kept
    expect(text).toMatch(/nestedpendingoperations\.go:348\] Operation for "\{volumeName:/);
    expect(text).toMatch(/No retries permitted until 2026-08-04 11:00:00\.\d+ \+0800 CST m=\+\d+\.\d{9} \(durationBeforeRetry 500ms\)/);
  });
});

describe('what holds a pod up, and what does not', () => {
  const node = { name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 }, images: ['m.daocloud.io/docker.io/library/nginx:alpine'] };

  it('an optional ConfigMap, kube-root-ca.crt and a volume no container mounts do not: the pod runs, with no FailedMount', () => {
    const e = engineWith({ nodes: [node] });
    missingConfigMapPod(e, [
      { name: 'extras', configMap: { name: 'app-extras', optional: true } },
      { name: 'ca', configMap: { name: 'kube-root-ca.crt' } },
      { name: 'unused', secret: { secretName: 'nowhere' } },
    ], ['extras', 'ca']);
    e.advanceTo(30_000);
    expect(pod(e, 'web')!.status.phase).toBe('Running');
    expect(mountFailures(e)).toEqual([]);
    expect(e.state().events.filter((ev) => ev.reason === 'FailedMount')).toEqual([]);
  });

  it('deleting the pod cancels the wait ("context canceled") and stops the retries; the pod goes at once', () => {
    const e = engineWith({ nodes: [node] });
    missingConfigMapPod(e, [{ name: 'b', secret: { secretName: 'db' } }, { name: 'a', configMap: { name: 'app-config' } }]);
    e.advanceTo(20_000);
    const r = e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'web' });
    expect(r.ok).toBe(true);
    e.advanceTo(25_000);
    expect(pod(e, 'web')).toBeUndefined();
    const err = e.state().kubeletLogs.filter((l) => l.msg === 'Error syncing pod, skipping');
    // getUnmountedVolumes sorts the names
    expect(err.map((l) => l.kv[0][1])).toEqual(['"unmounted volumes=[a b], unattached volumes=[], failed to process volumes=[]: context canceled"']);
    const last = mountFailures(e).at(-1)!.t;
    e.advanceTo(10 * 60_000);
    expect(mountFailures(e).at(-1)!.t).toBe(last);
    expect(last).toBeLessThan(21_000);
  });
});

describe('the missing-configmap scenario, as a user sees it', () => {
  const file = 'content/scenarios/missing-configmap.yaml';
  const scenario = runnable(parseScenario(readFileSync(file, 'utf8'), file));

  it('five minutes in: ContainerCreating, and describe counts ten FailedMount events (a real cluster: "52s (x10 over 5m2s)")', () => {
    expect(runCommandAt(scenario, 300_000, 'kubectl get pod web --no-headers').stdout).toMatch(/^web\s+0\/1\s+ContainerCreating\s+0\s+5m\n$/);
    const events = runCommandAt(scenario, 300_000, 'kubectl describe pod web | tail -1').stdout;
    expect(events).toMatch(/^ {2}Warning {2}FailedMount {2}5\ds \(x10 over 5m\) {2}kubelet {12}MountVolume\.SetUp failed for volume "config" : configmap "app-config" not found\n$/);
  });
  it('the ConfigMap created at 5m10s: the pod runs once the next retry (at 6m12s, not before) has mounted it', () => {
    expect(runCommandAt(scenario, 370_000, 'kubectl get pod web --no-headers').stdout).toMatch(/ContainerCreating/);
    expect(runCommandAt(scenario, 420_000, 'kubectl get pod web --no-headers').stdout).toMatch(/^web\s+1\/1\s+Running\s+0\s+7m\n$/);
    expect(runCommandAt(scenario, 420_000, 'kubectl get pod web -o jsonpath={.status.containerStatuses[0].state.running.startedAt}').stdout).toMatch(/T03:06:1[23]Z$/);
  });
});
