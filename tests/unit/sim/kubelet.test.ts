// Kubelet behaviours beyond the tables: probes (the liveness example of the Kubernetes docs), hooks, init containers,
// image pull errors and their back-off, the sandbox and its namespaces, deletion clean-up in the kubelet log.
import { describe, expect, it } from 'vitest';
import { create, engineWith, pod, podManifest } from './helpers.ts';
import { printPod } from '../../../src/sim/render/table.ts';

const withImages = (images: string[]) => ({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images }] });

describe('probes', () => {
  it('liveness: the docs example fails after /tmp/healthy is removed, is killed and restarted', () => {
    const e = engineWith(withImages(['registry.k8s.io/busybox:1.27.2']));
    create(e, podManifest('liveness-exec', {
      image: 'registry.k8s.io/busybox:1.27.2',
      args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
    }));
    e.advanceTo(40_000);
    expect(pod(e, 'liveness-exec')!.status.containerStatuses![0].restartCount).toBe(0);
    const unhealthy = e.state().events.find((x) => x.reason === 'Unhealthy')!;
    // the exec prober's output is the command's, line break included (describe and get events trim it)
    expect(unhealthy).toMatchObject({ type: 'Warning', message: "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n" });
    e.advanceTo(50_000);
    const events = e.state().events;
    expect(events.find((x) => x.reason === 'Unhealthy')!.count).toBe(3); // failureThreshold 3
    expect(events.find((x) => x.reason === 'Killing')!.message).toBe('Container liveness-exec failed liveness probe, will be restarted');
    e.advanceTo(90_000);
    const cs = pod(e, 'liveness-exec')!.status.containerStatuses![0];
    expect(cs.restartCount).toBe(1);
    // sh as PID 1 ignores SIGTERM: the kill ends with SIGKILL after the 30 s grace period
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('readiness: not ready until the probe passes, then Ready=True; a failing readiness probe never restarts', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('web', { image: 'nginx:1.29', readinessProbe: { httpGet: { port: 80, path: '/' }, initialDelaySeconds: 5, periodSeconds: 5 } }));
    e.advanceTo(4000);
    let p = pod(e, 'web')!;
    expect(p.status.phase).toBe('Running');
    expect(p.status.containerStatuses![0].ready).toBe(false);
    expect(p.status.conditions!.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' });
    e.advanceTo(15_000);
    p = pod(e, 'web')!;
    expect(p.status.containerStatuses![0].ready).toBe(true);
    expect(p.status.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');

    const bad = engineWith(withImages(['nginx:1.29']));
    create(bad, podManifest('web', { image: 'nginx:1.29', readinessProbe: { httpGet: { port: 8080, path: '/healthz' }, periodSeconds: 5 } }));
    bad.advanceTo(60_000);
    const q = pod(bad, 'web')!;
    expect(q.status.containerStatuses![0]).toMatchObject({ ready: false, restartCount: 0 });
    expect(bad.state().events.find((x) => x.reason === 'Unhealthy')!.message).toBe(
      'Readiness probe failed: Get "http://10.244.5.2:8080/healthz": dial tcp 10.244.5.2:8080: connect: connection refused',
    );
  });

  it('a scripted probe schedule (sim.podlife.dev annotation) drives the startup probe', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('slow', { image: 'nginx:1.29', startupProbe: { httpGet: { port: 80 }, periodSeconds: 2, failureThreshold: 10 } }, {}, {
      annotations: { 'sim.podlife.dev/probe.slow.startup': 'fail*3,pass' },
    }));
    e.advanceTo(3000);
    expect(pod(e, 'slow')!.status.containerStatuses![0]).toMatchObject({ started: false, ready: false });
    e.advanceTo(15_000);
    expect(pod(e, 'slow')!.status.containerStatuses![0]).toMatchObject({ started: true, ready: true });
  });
});

describe('lifecycle hooks', () => {
  it('a failing PostStart hook: FailedPostStartHook, the container is killed, then restarted with back-off', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('hooked', { image: 'nginx:1.29', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 1'] } } } }));
    e.advanceTo(3000);
    const events = e.state().events;
    expect(events.find((x) => x.reason === 'FailedPostStartHook')).toMatchObject({ type: 'Warning', message: 'PostStartHook failed' });
    expect(events.find((x) => x.reason === 'Killing')!.message).toBe('FailedPostStartHook');
    const cs = pod(e, 'hooked')!.status.containerStatuses![0];
    expect(cs.state.waiting?.reason).toBe('PostStartHookError');
    expect(cs.state.waiting?.message).toMatch(/^Exec lifecycle hook \(\[sh -c exit 1\]\) for Container "hooked" in Pod "hooked_default\(.+\)" failed - error: command 'sh -c exit 1' exited with 1: /);
    e.advanceTo(60_000);
    expect(pod(e, 'hooked')!.status.containerStatuses![0].restartCount).toBeGreaterThanOrEqual(2);
  });

  it('a PreStop hook longer than the grace period: the container gets the 2 s minimum, then SIGKILL (137)', () => {
    const e = engineWith(withImages(['busybox:1.36']));
    create(e, podManifest('slow-stop', { image: 'busybox:1.36', command: ['sleep', '3600'], lifecycle: { preStop: { exec: { command: ['sleep', '60'] } } } }, { terminationGracePeriodSeconds: 10 }, { finalizers: ['example.com/keep'] }));
    e.advanceTo(5000);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'slow-stop' });
    e.advanceTo(60_000);
    const t = pod(e, 'slow-stop')!.status.containerStatuses![0].state.terminated!;
    expect(t).toMatchObject({ exitCode: 137, reason: 'Error' });
    // deleted at 5 s: 10 s of preStop, then StopContainer with the 2 s minimum: SIGKILL at ~17 s
    expect(Date.parse(t.finishedAt!) - e.state().epoch).toBeGreaterThanOrEqual(17_000);
    expect(Date.parse(t.finishedAt!) - e.state().epoch).toBeLessThan(18_000);
    expect(e.trace.some((x) => x.key === 'killContainer#3')).toBe(true);
  });
});

describe('exec hooks signal PID 1 as kubectl exec does', () => {
  /** A shell that traps TERM (exit 0) and HUP (exit 3), deleted at 5 s with a preStop hook; its last exit code. */
  const stopWith = (hook: string[]) => {
    const e = engineWith(withImages(['busybox:1.36']));
    create(e, podManifest('trapper', {
      image: 'busybox:1.36', command: ['sh', '-c', "trap 'exit 0' TERM; trap 'exit 3' HUP; while true; do sleep 1; done"],
      lifecycle: { preStop: { exec: { command: hook } } },
    }, { terminationGracePeriodSeconds: 20 }, { finalizers: ['example.com/keep'] }));
    e.advanceTo(5000);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'trapper' });
    e.advanceTo(40_000);
    return pod(e, 'trapper')!.status.containerStatuses![0].state.terminated!.exitCode;
  };

  it('kill -HUP 1 sends SIGHUP; kill -9 1 from inside the namespace is dropped, and the kubelet\'s SIGTERM follows the hook', () => {
    expect(stopWith(['kill', '-HUP', '1'])).toBe(3);
    expect(stopWith(['kill', '-s', 'HUP', '1'])).toBe(3);
    expect(stopWith(['kill', '-9', '1'])).toBe(0);
    expect(stopWith(['kill', '1'])).toBe(0);
  });
});

describe('init containers', () => {
  it('run in order to completion before the app container: Init:0/2, Init:1/2, then Running', () => {
    const e = engineWith(withImages(['busybox:1.36', 'nginx:1.29']));
    create(e, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'with-init' },
      spec: {
        initContainers: [{ name: 'one', image: 'busybox:1.36', command: ['sleep', '5'] }, { name: 'two', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5; echo migrated'] }],
        containers: [{ name: 'web', image: 'nginx:1.29' }],
      },
    });
    e.advanceTo(3000);
    let p = pod(e, 'with-init')!;
    expect(p.status.initContainerStatuses!.map((s) => Object.keys(s.state)[0])).toEqual(['running', 'waiting']);
    expect(p.status.containerStatuses![0].state.waiting?.reason).toBe('PodInitializing');
    expect(p.status.conditions!.find((c) => c.type === 'Initialized')).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [one two]' });
    e.advanceTo(8000);
    p = pod(e, 'with-init')!;
    expect(p.status.initContainerStatuses!.map((s) => Object.keys(s.state)[0])).toEqual(['terminated', 'running']);
    e.advanceTo(20_000);
    p = pod(e, 'with-init')!;
    expect(p.status.phase).toBe('Running');
    expect(p.status.initContainerStatuses!.map((s) => s.state.terminated?.reason)).toEqual(['Completed', 'Completed']);
    expect(e.state().containerLogs.some((l) => l.text === 'migrated')).toBe(true);
    const order = e.trace.filter((x) => x.key === 'startContainer#3').map((x) => x.detail);
    expect(order.length).toBe(3);
    expect(e.trace.filter((x) => x.key === 'SyncPod#7').map((x) => x.detail)).toEqual(['start init container one', 'start init container two']);
  });
});

describe('the order of container statuses (kubelet_pods.go convertToAPIContainerStatuses)', () => {
  it('containers are listed by name, init containers in spec order; so the first by name decides STATUS', () => {
    const e = engineWith({ ...withImages(['busybox:1.36', 'nginx:1.29']), images: { 'registry.invalid/app:v1': { error: 'not found' } } });
    create(e, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'two' },
      spec: {
        initContainers: [{ name: 'zeta', image: 'busybox:1.36', command: ['true'] }, { name: 'alpha', image: 'busybox:1.36', command: ['true'] }],
        // web, first in the spec, crash-loops; app, first by name, cannot pull its image
        containers: [{ name: 'web', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }, { name: 'app', image: 'registry.invalid/app:v1' }],
      },
    });
    e.advanceTo(20_000);
    let p = pod(e, 'two')!;
    expect(p.status.initContainerStatuses!.map((s) => s.name)).toEqual(['zeta', 'alpha']);
    expect(p.status.containerStatuses!.map((s) => s.name)).toEqual(['app', 'web']);
    // a status shows a failed start's reason from the sync after it: wait for one where both containers wait
    const reasons = () => p.status.containerStatuses!.map((s) => s.state.waiting?.reason);
    while (!reasons().every((r) => r?.endsWith('BackOff')) && e.now < 120_000) {
      e.advanceTo(e.now + 1000);
      p = pod(e, 'two')!;
    }
    expect(reasons()).toEqual(['ImagePullBackOff', 'CrashLoopBackOff']);
    // printPod walks the list from the end, so its first entry's reason is the one STATUS shows
    expect(printPod(p, e.now)[2]).toBe('ImagePullBackOff');
  });
});

describe('CreateContainerConfigError (makeEnvironmentVariables, startContainer step 2)', () => {
  const withEnv = (container: Record<string, unknown>) => {
    const e = engineWith(withImages(['busybox:1.36']));
    create(e, podManifest('cfg', { image: 'busybox:1.36', command: ['sleep', '3600'], ...container }));
    e.advanceTo(20_000);
    return { e, p: pod(e, 'cfg')! };
  };
  it('a ConfigMap or Secret the environment names and the cluster lacks: the container waits, with the kubelet\'s NotFound', () => {
    const { e, p } = withEnv({ env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'mode' } } }] });
    expect(p.status.phase).toBe('Pending');
    expect(p.status.containerStatuses![0].state.waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'configmap "app-config" not found' });
    expect(e.state().events.filter((x) => x.reason === 'Failed').map((x) => [x.type, x.message])).toEqual([['Warning', 'Error: configmap "app-config" not found']]);
    expect(e.state().runtimes[0].containers).toHaveLength(0);
    // envFrom comes first; a Secret is named in the singular too
    const both = withEnv({ envFrom: [{ secretRef: { name: 'db' } }], env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'x' } } }] });
    expect(both.p.status.containerStatuses![0].state.waiting?.message).toBe('secret "db" not found');
  });
  it('optional sources are skipped, and kube-root-ca.crt exists in every namespace (with the one key ca.crt)', () => {
    expect(withEnv({ env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'mode', optional: true } } }] }).p.status.phase).toBe('Running');
    expect(withEnv({ envFrom: [{ configMapRef: { name: 'kube-root-ca.crt' } }] }).p.status.phase).toBe('Running');
    expect(withEnv({ env: [{ name: 'CA', valueFrom: { configMapKeyRef: { name: 'kube-root-ca.crt', key: 'ca.crt' } } }] }).p.status.phase).toBe('Running');
    expect(withEnv({ env: [{ name: 'CA', valueFrom: { configMapKeyRef: { name: 'kube-root-ca.crt', key: 'tls.crt' } } }] }).p.status.containerStatuses![0].state.waiting?.message)
      .toBe("couldn't find key tls.crt in ConfigMap default/kube-root-ca.crt");
  });
});

describe('termination messages (kuberuntime_container.go getTerminationMessage, readLastStringFromContainerLogs)', () => {
  const terminated = (name: string, container: Record<string, unknown>) => {
    const e = engineWith(withImages(['busybox:1.36']));
    create(e, podManifest(name, { image: 'busybox:1.36', ...container }, { restartPolicy: 'Never' }));
    e.advanceTo(20_000);
    return pod(e, name)!.status.containerStatuses![0].state.terminated!;
  };
  it('the file at terminationMessagePath, as written; under FallbackToLogsOnError, the log when the file says nothing and the exit is not 0', () => {
    expect(terminated('file', { command: ['sh', '-c', 'echo bye > /dev/termination-log; exit 3'] })).toMatchObject({ exitCode: 3, message: 'bye\n' });
    const fallback = { terminationMessagePolicy: 'FallbackToLogsOnError' };
    expect(terminated('logs', { ...fallback, command: ['sh', '-c', 'echo one; echo oops >&2; exit 3'] }).message).toBe('one\noops\n');
    expect(terminated('ok', { ...fallback, command: ['sh', '-c', 'echo fine'] }).message).toBeUndefined();
    expect(terminated('plain', { command: ['sh', '-c', 'echo oops; exit 3'] }).message).toBeUndefined();
    expect(terminated('path', { terminationMessagePath: '/tmp/why', command: ['sh', '-c', 'echo there > /tmp/why; exit 1'] }).message).toBe('there\n');
  });
  it('at most the last 80 lines of the log, and of those the last 2048 bytes', () => {
    const seq = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(' ');
    const fallback = { terminationMessagePolicy: 'FallbackToLogsOnError' };
    const lines = terminated('many', { ...fallback, command: ['sh', '-c', `for i in ${seq(100)}; do echo line$i; done; exit 1`] }).message!;
    expect(lines.split('\n').filter(Boolean)).toEqual(Array.from({ length: 80 }, (_, i) => `line${i + 21}`));
    const long = terminated('long', { ...fallback, command: ['sh', '-c', `for i in ${seq(60)}; do echo ${'x'.repeat(60)}$i; done; exit 1`] }).message!;
    expect(new TextEncoder().encode(long).length).toBe(2048);
    expect(long.endsWith('x60\n')).toBe(true);
  });
});

describe('image pulls', () => {
  it('one at a time on a node (serializeImagePulls): a pull waits for the ones before it, and Pulled says so', () => {
    const e = engineWith({ images: { 'registry.example/a:v1': { pull: 4000 }, 'registry.example/b:v1': { pull: 2500 } } });
    create(e, podManifest('a', { image: 'registry.example/a:v1' }));
    create(e, podManifest('b', { image: 'registry.example/b:v1' }));
    e.advanceTo(30_000);
    const pulled = (name: string) => e.state().events.find((x) => x.reason === 'Pulled' && x.involvedObject.name === name)!;
    const pulling = (name: string) => e.state().events.find((x) => x.reason === 'Pulling' && x.involvedObject.name === name)!;
    // both asked at once (Pulling at the same second); b's pull starts when a's ends
    expect(pulling('b').firstTimestamp).toBe(pulling('a').firstTimestamp);
    expect(pulled('a').message).toMatch(/ in 4s \(4s including waiting\)\. /);
    // b asked a few milliseconds after a (its sync came next): its wait is a's pull less those milliseconds
    const waited = Number(/ in 2\.5s \(([\d.]+)s including waiting\)\. /.exec(pulled('b').message)![1]);
    expect(waited).toBeGreaterThan(6.4);
    expect(waited).toBeLessThanOrEqual(6.5);
    const started = (name: string) => Date.parse(pod(e, name)!.status.containerStatuses![0].state.running!.startedAt);
    expect(started('b') - started('a')).toBeGreaterThanOrEqual(2000);
  });
  it('ErrImagePull, then ImagePullBackOff while the image back-off lasts, with the real messages', () => {
    const e = engineWith({ images: { 'registry.invalid/app:v1': { error: 'not found', pull: 500 } } });
    create(e, podManifest('app', { image: 'registry.invalid/app:v1' }));
    e.advanceTo(90_000);
    const reasons = new Set<string>();
    let backOff: unknown;
    for (let t = 0; t <= 90_000; t += 500) {
      const w = pod(e, 'app', t)!.status.containerStatuses?.[0]?.state.waiting;
      if (w?.reason) reasons.add(w.reason);
      if (w?.reason === 'ImagePullBackOff') backOff = w;
    }
    expect([...reasons]).toEqual(['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff']);
    const pullError = 'rpc error: code = NotFound desc = failed to pull and unpack image "registry.invalid/app:v1": failed to resolve reference "registry.invalid/app:v1": registry.invalid/app:v1: not found';
    expect(backOff).toEqual({ reason: 'ImagePullBackOff', message: `Back-off pulling image "registry.invalid/app:v1": ErrImagePull: ${pullError}` });
    const byReason = (r: string, m?: string) => e.state().events.filter((x) => x.reason === r && (!m || x.message === m));
    expect(byReason('Failed', `Failed to pull image "registry.invalid/app:v1": ${pullError}`)[0].type).toBe('Warning');
    expect(byReason('Failed', 'Error: ErrImagePull').length).toBe(1);
    expect(byReason('Failed', 'Error: ImagePullBackOff').length).toBe(1);
    expect(byReason('BackOff')[0]).toMatchObject({ type: 'Normal', message: 'Back-off pulling image "registry.invalid/app:v1"' });
  });

  it('image pull retries back off: the interval between failed pulls never shrinks and starts at 10 s or more', () => {
    const e = engineWith({ timings: { jitter: 0 }, images: { 'registry.invalid/app:v1': { error: 'unauthorized', pull: 200 } } });
    create(e, podManifest('app', { image: 'registry.invalid/app:v1' }));
    e.advanceTo(400_000);
    const syncs = e.trace.filter((x) => x.key === 'startContainer#1').length;
    const attempts = e.state().events.find((x) => x.reason === 'Pulling')!.count;
    expect(attempts).toBeLessThan(syncs); // some syncs found the image still in back-off and did not pull
    const fails = e.state().kubeletLogs.filter((l) => l.msg === 'Failed to pull image').map((l) => l.t / 1000);
    const gaps = fails.slice(1).map((t, i) => t - fails[i]);
    expect(gaps.length).toBeGreaterThanOrEqual(4);
    expect(gaps[0]).toBeGreaterThanOrEqual(10);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1]);
  });

  it('an image present on the node with IfNotPresent is not pulled: the v1.36 "accessed by the pod" message', () => {
    const e = engineWith(withImages(['m.daocloud.io/docker.io/library/nginx:alpine']));
    create(e, podManifest('nginx-test', { image: 'm.daocloud.io/docker.io/library/nginx:alpine' }, { restartPolicy: 'Never' }));
    e.advanceTo(3000);
    const ev = e.state().events.map((x) => [x.reason, x.involvedObject.fieldPath ?? '', x.message]);
    expect(ev).toEqual([
      ['Scheduled', '', 'Successfully assigned default/nginx-test to worker01'],
      ['Pulled', 'spec.containers{nginx-test}', 'Container image "m.daocloud.io/docker.io/library/nginx:alpine" already present on machine and can be accessed by the pod'],
      ['Created', 'spec.containers{nginx-test}', 'Container created'],
      ['Started', 'spec.containers{nginx-test}', 'Container started'],
    ]);
  });

  it('a pulled image reports its size and Go-formatted durations', () => {
    const e = engineWith({ images: { busybox: { pull: 2500, size: 2207025 } } });
    create(e, podManifest('b', { image: 'busybox', command: ['sleep', '100'] }));
    e.advanceTo(5000);
    expect(e.state().events.find((x) => x.reason === 'Pulled')!.message).toBe(
      'Successfully pulled image "busybox" in 2.5s (2.5s including waiting). Image size: 2207025 bytes.',
    );
  });
});

describe('a spec update reaches the kubelet at once (config.go podsDifferSemantically, computePodActions containerChanged)', () => {
  it('a patched image: the container is killed as "definition changed" within the second, and started again with the new image', () => {
    const e = engineWith(withImages(['nginx:1.28', 'nginx:1.29']));
    create(e, podManifest('web', { image: 'nginx:1.28' }));
    e.advanceTo(10_000);
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', patch: { spec: { containers: [{ name: 'web', image: 'nginx:1.29' }] } } });
    expect(r.ok).toBe(true);
    e.advanceTo(13_000);
    const killing = e.state().events.find((x) => x.reason === 'Killing')!;
    expect(killing.message).toBe('Container web definition changed, will be restarted');
    // the kubelet syncs on the update, not at its next periodic resync (a minute later)
    expect(Date.parse(killing.firstTimestamp!) - Date.parse(pod(e, 'web')!.metadata.creationTimestamp!)).toBeLessThanOrEqual(11_000);
    const st = pod(e, 'web')!.status.containerStatuses![0];
    expect([st.image, st.restartCount, st.state?.running !== undefined]).toEqual(['docker.io/library/nginx:1.29', 1, true]);
    // and the pod as it was before the patch is still the pod of generation 1
    expect([pod(e, 'web', 9_000)!.metadata.generation, pod(e, 'web')!.metadata.generation]).toEqual([1, 2]);
  });
});

describe('sandbox and runtime', () => {
  it('pod IPs come from the node CIDR in order; containers join the pause process ipc/uts/net namespaces', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('a', { image: 'nginx:1.29' }));
    create(e, podManifest('b', { image: 'nginx:1.29' }));
    e.advanceTo(5000);
    expect([pod(e, 'a')!.status.podIP, pod(e, 'b')!.status.podIP]).toEqual(['10.244.5.2', '10.244.5.3']);
    const rt = e.state().runtimes[0];
    const c = rt.containers.find((x) => x.name === 'a')!;
    const sb = rt.sandboxes.find((x) => x.id === c.sandboxId)!;
    expect(c.id).toMatch(/^[0-9a-f]{64}$/);
    expect(sb.state).toBe('SANDBOX_READY');
    expect(c.namespaces).toEqual([
      { type: 'pid' },
      { type: 'ipc', path: `/proc/${sb.pausePid}/ns/ipc` },
      { type: 'uts', path: `/proc/${sb.pausePid}/ns/uts` },
      { type: 'network', path: `/proc/${sb.pausePid}/ns/net` },
      { type: 'mount' },
      { type: 'cgroup' },
    ]);
    expect(pod(e, 'a')!.status.containerStatuses![0].containerID).toBe(`containerd://${c.id}`);
  });

  it('deletion: Killing, then RemoveContainer and "Cleaned up orphaned pod volumes dir" kubelet log lines', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    const p = create(e, podManifest('nginx-delete', { image: 'nginx:1.29' }, { restartPolicy: 'Never' }));
    e.advanceTo(10_000);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'nginx-delete' });
    e.advanceTo(20_000);
    const logs = e.state().kubeletLogs.filter((l) => l.t >= 10_000);
    const remove = logs.filter((l) => l.msg === 'RemoveContainer');
    expect(remove.length).toBeGreaterThanOrEqual(1);
    expect(remove[0]).toMatchObject({ severity: 'I', source: 'scope.go:122' });
    expect(remove[0].kv[0][0]).toBe('containerID');
    const cleaned = logs.find((l) => l.msg === 'Cleaned up orphaned pod volumes dir')!;
    expect(cleaned).toMatchObject({ source: 'kubelet_volumes.go:161', kv: [['podUID', `"${p.metadata.uid}"`], ['path', `"/var/lib/kubelet/pods/${p.metadata.uid}/volumes"`]] });
    expect(pod(e, 'nginx-delete')).toBeUndefined();
  });
});

describe('activeDeadlineSeconds (pkg/kubelet/active_deadline.go)', () => {
  it('a pod active longer than its deadline is Failed with DeadlineExceeded and its containers are stopped', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('deadline', { image: 'nginx:1.29' }, { activeDeadlineSeconds: 20 }));
    e.advanceTo(15_000);
    expect(pod(e, 'deadline')!.status.phase).toBe('Running');
    e.advanceTo(30_000);
    const p = pod(e, 'deadline')!;
    expect(p.status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
    expect(p.status.containerStatuses![0].state.terminated).toBeDefined();
    expect(e.state().events.find((x) => x.reason === 'DeadlineExceeded')).toMatchObject({ type: 'Normal', message: 'Pod was active on the node longer than the specified deadline' });
    expect(e.state().runtimes[0].sandboxes[0].state).toBe('SANDBOX_NOTREADY');
  });
  it('the eviction comes before the conditions (generateAPIPodStatus): the first Failed status is not Ready', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('deadline', { image: 'nginx:1.29' }, { activeDeadlineSeconds: 20 }));
    let t = 15_000;
    e.advanceTo(t);
    while (pod(e, 'deadline')!.status.phase !== 'Failed' && t < 60_000) e.advanceTo((t += 100));
    const ready = (type: string) => pod(e, 'deadline')!.status.conditions!.find((c) => c.type === type);
    expect(ready('Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
    expect(ready('ContainersReady')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });
  it('the API server sees Failed only once the containers are stopped (mergePodStatus holds a terminal phase back)', () => {
    const e = engineWith(withImages(['busybox:1.36']));
    // sh as PID 1 ignores SIGTERM: the kill takes the whole 30 s grace period
    create(e, podManifest('deadline', { image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] }, { activeDeadlineSeconds: 20 }));
    e.advanceTo(30_000);
    let p = pod(e, 'deadline')!;
    expect(p.status.containerStatuses![0].state.running).toBeDefined();
    expect(p.status.phase).toBe('Running');
    expect(p.status.reason).toBeUndefined();
    expect(p.status.conditions!.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
    e.advanceTo(60_000);
    p = pod(e, 'deadline')!;
    expect(p.status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded' });
    expect(p.status.containerStatuses![0].state.terminated).toMatchObject({ exitCode: 137 });
  });
  it('a deadline set on a running pod (an allowed update) that has already passed: the next sync evicts it, with the event', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('deadline', { image: 'nginx:1.29' }));
    e.advanceTo(30_000);
    expect(e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'deadline', patchType: 'merge', patch: { spec: { activeDeadlineSeconds: 5 } } }).ok).toBe(true);
    e.advanceTo(32_000);
    expect(pod(e, 'deadline')!.status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded' });
    // ShouldEvict records the event each time generateAPIPodStatus asks: SyncPod, SyncTerminatingPod (before and
    // after the kill) and SyncTerminatedPod
    const ev = e.state().events.find((x) => x.reason === 'DeadlineExceeded')!;
    expect([ev.type, ev.message, ev.count]).toEqual(['Normal', 'Pod was active on the node longer than the specified deadline', 4]);
  });
});

describe('PodReadyToStartContainers (kubelet.go OnPodSandboxReady, SyncPod step 5, v1.36)', () => {
  it('turns True as soon as the sandbox is ready, while the image is still being pulled', () => {
    const e = engineWith({ images: { nginx: { pull: 6200 } } });
    create(e, podManifest('nginx', { image: 'nginx' }, { restartPolicy: 'Never' }));
    const cond = (t: number) => pod(e, 'nginx', t)!.status.conditions!.find((c) => c.type === 'PodReadyToStartContainers');
    e.advanceTo(3000);
    const sandboxReady = e.trace.find((ev) => ev.key === 'SyncPod#5')!.t;
    const pulling = e.state().events.find((x) => x.reason === 'Pulling')!;
    expect(pulling).toBeDefined();
    // before the sandbox: False; after the callback's status update, True, with the container still waiting
    expect(cond(sandboxReady - 1)).toMatchObject({ status: 'False' });
    const p = pod(e, 'nginx', 2000)!;
    expect(cond(2000)).toMatchObject({ status: 'True', lastTransitionTime: '2026-08-04T03:00:00Z', observedGeneration: 1 });
    expect(p.status.containerStatuses![0].state.waiting).toEqual({ reason: 'ContainerCreating' });
    expect(e.state().events.some((x) => x.reason === 'Pulled')).toBe(false);
    // the order of the conditions is kept
    expect(p.status.conditions!.map((c) => c.type)).toEqual(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
  });
});

describe('the sandbox image', () => {
  it('crictl images lists registry.k8s.io/pause:3.10 once a sandbox exists (containerd ensures it in RunPodSandbox)', async () => {
    const { execute } = await import('../../../src/sim/commands/execute.ts');
    const e = engineWith(withImages(['nginx:1.29']));
    const images = () => execute('crictl images', { state: e.state() }).stdout;
    expect(images()).not.toContain('pause');
    create(e, podManifest('web', { image: 'nginx:1.29' }));
    e.advanceTo(3000);
    const lines = images().split('\n');
    expect(lines[0]).toBe('IMAGE                     TAG                 IMAGE ID            SIZE');
    expect(lines[1]).toMatch(/^docker\.io\/library\/nginx   1\.29 /);
    expect(lines[2]).toBe('registry.k8s.io/pause     3.10                873ed75102791       320kB');
    expect(lines.length).toBe(4);
    expect(e.state().runtimes[0].images.find((i) => i.repoTags[0] === 'registry.k8s.io/pause:3.10')).toEqual({
      id: 'sha256:873ed75102791e5b0b8a7fcd41606c92fcec98d56d05ead4ac5131650004c136',
      repoTags: ['registry.k8s.io/pause:3.10'],
      repoDigests: ['registry.k8s.io/pause@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a'],
      size: 320_368,
    });
  });
});

describe('the container deletor and the kubelet log (pod_container_deletor.go, kuberuntime_container.go removeContainer)', () => {
  it('a deleted pod\'s container and sandbox die in one relist: two removals, the second fails with NotFound', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('nginx-delete', { image: 'nginx:1.29' }, { restartPolicy: 'Never' }));
    e.advanceTo(10_000);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'nginx-delete' });
    e.advanceTo(20_000);
    const id = e.stateAt(9_000).runtimes[0].containers[0].id;
    const deletor = ['scope.go:122', 'log.go:32', 'pod_container_deletor.go:53'];
    const lines = e.state().kubeletLogs.filter((l) => deletor.includes(l.source) && l.kv.some(([, v]) => v.includes(id)));
    const rpc = `rpc error: code = NotFound desc = an error occurred when try to find container \\"${id}\\": not found`;
    expect(lines.map((l) => [l.severity, l.source, l.msg])).toEqual([
      ['I', 'scope.go:122', 'RemoveContainer'],
      ['I', 'scope.go:122', 'RemoveContainer'],
      ['E', 'log.go:32', 'ContainerStatus from runtime service failed'],
      ['I', 'pod_container_deletor.go:53', 'DeleteContainer returned error'],
    ]);
    expect(lines[2].kv).toEqual([['err', `"${rpc}"`], ['containerID', `"${id}"`]]);
    expect(lines[3].kv).toEqual([['containerID', `{"Type":"containerd","ID":"${id}"}`], ['err', `"failed to get container status \\"${id}\\": ${rpc}"`]]);
    // the deletor serves one request after the other: the second starts when the first is done
    expect(lines[1].t - lines[0].t).toBe(8);
  });

  it('a finished pod that is not deleted: its sandbox\'s ContainerDied names no container ("Container not found")', () => {
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('job', { image: 'nginx:1.29', command: ['sh', '-c', 'exit 0'] }, { restartPolicy: 'Never' }));
    e.advanceTo(20_000);
    expect(pod(e, 'job')!.status.phase).toBe('Succeeded');
    const sandbox = e.state().runtimes[0].sandboxes[0];
    expect(sandbox.state).toBe('SANDBOX_NOTREADY');
    const notFound = e.state().kubeletLogs.filter((l) => l.msg === "Container not found in pod's containers");
    expect(notFound.map((l) => [l.source, l.kv])).toEqual([['pod_container_deletor.go:80', [['containerID', `"${sandbox.id}"`]]]]);
    // the exited container itself is kept (containersToKeep = 1, the pod is not deleted)
    expect(e.state().runtimes[0].containers.map((c) => c.state)).toEqual(['CONTAINER_EXITED']);
    expect(e.state().kubeletLogs.some((l) => l.msg === 'RemoveContainer')).toBe(false);
  });
});

describe('the kubelet\'s --v (cluster.nodes[].kubeletVerbosity)', () => {
  it('at --v=2 journalctl shows the V(2) lines the model records, such as "Killing container with a grace period"', async () => {
    const { execute } = await import('../../../src/sim/commands/execute.ts');
    const run = (v?: number) => {
      const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images: ['nginx:1.29'], ...(v === undefined ? {} : { kubeletVerbosity: v }) }] });
      create(e, podManifest('nginx-delete', { image: 'nginx:1.29' }, { restartPolicy: 'Never' }));
      e.advanceTo(10_000);
      e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'nginx-delete' });
      e.advanceTo(20_000);
      return execute('journalctl -u kubelet | grep -E "RemoveContainer|orphaned|Killing"', { state: e.state() }).stdout.split('\n').filter(Boolean);
    };
    const all = (v: number) => {
      const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', images: ['nginx:1.29'], kubeletVerbosity: v }] });
      create(e, podManifest('web', { image: 'nginx:1.29' }));
      e.advanceTo(5_000);
      return execute('journalctl -u kubelet', { state: e.state() }).stdout;
    };
    // a V(3) line (the sandbox-ready status update) is logged at --v=3, not at --v=2
    expect(all(3)).toContain('"Successfully updated PodReadyToStartContainers condition after sandbox creation"');
    expect(all(2)).not.toContain('Successfully updated PodReadyToStartContainers');
    expect(all(2)).toContain('"SyncLoop ADD" source="api" pods=["default/web"]');
    expect(all(0)).not.toContain('SyncLoop ADD');
    const quiet = run();
    const verbose = run(2);
    expect(quiet.some((l) => l.includes('Killing'))).toBe(false);
    expect(verbose.filter((l) => l.includes('Killing'))).toHaveLength(1);
    expect(verbose.find((l) => l.includes('Killing'))).toMatch(/ kuberuntime_container\.go:898\] "Killing container with a grace period" pod="default\/nginx-delete" podUID="[0-9a-f-]+" containerName="nginx-delete" containerID="containerd:\/\/[0-9a-f]{64}" gracePeriod=30$/);
    expect(verbose.length).toBe(quiet.length + 1);
  });
});

describe('a sandbox that dies under a running pod (crictl stopp: CRI StopPodSandbox)', () => {
  it('SandboxChanged, the pod killed and re-created with attempt 1 and a new IP; the container restarted (137)', async () => {
    const { execute } = await import('../../../src/sim/commands/execute.ts');
    const e = engineWith(withImages(['nginx:1.29']));
    create(e, podManifest('web', { image: 'nginx:1.29' }));
    e.advanceTo(10_000);
    const first = e.state().runtimes[0].sandboxes[0];
    const ctx = () => ({ state: e.state(), apply: (a: Parameters<typeof e.apply>[0]) => e.apply(a) });
    expect(execute(`crictl stopp ${first.id.slice(0, 13)}`, ctx())).toEqual({ stdout: `Stopped sandbox ${first.id.slice(0, 13)}\n`, stderr: '', exitCode: 0 });
    e.advanceTo(20_000);
    const sandboxes = e.state().runtimes[0].sandboxes;
    expect(sandboxes.map((s) => [s.attempt, s.state])).toEqual([[0, 'SANDBOX_NOTREADY'], [1, 'SANDBOX_READY']]);
    const p = pod(e, 'web')!;
    expect(p.status.podIP).toBe(sandboxes[1].ip);
    expect(sandboxes[1].ip).not.toBe(first.ip);
    expect(p.status.containerStatuses![0]).toMatchObject({ restartCount: 1, ready: true });
    // containerd stops the sandbox's containers forcibly (timeout 0): SIGKILL, exit code 137
    expect(p.status.containerStatuses![0].lastState.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(e.state().events.find((x) => x.reason === 'SandboxChanged')).toMatchObject({ type: 'Normal', message: 'Pod sandbox changed, it will be killed and re-created.' });
    const killPod = e.trace.find((x) => x.key === 'SyncPod#2' && x.t > 10_000)!;
    expect(e.trace.find((x) => x.key === 'SyncPod#4' && x.t > 10_000)!.detail).toBe('create sandbox attempt 1');
    expect(killPod.t).toBeGreaterThan(10_000);
    // errors as crictl prints them; a read-only console cannot stop anything
    expect(execute('crictl stopp nope', ctx())).toEqual({
      stdout: '', stderr: 'FATA[0000] stopping the pod sandbox "nope": rpc error: code = NotFound desc = an error occurred when try to find sandbox "nope": not found\n', exitCode: 1,
    });
    expect(execute(`crictl stopp ${first.id}`, { state: e.state() }).stderr).toBe('podlife: this console shows a recorded moment and cannot change the cluster\n');
  });
});
