// The lifecycle contracts the engine must meet, each from upstream: the crash-loop restart schedule of
// test/e2e_node/container_restart_test.go ("0s, 0s, 10s, 30s, 70s, 150s, 310s"), the back-off reset after 10
// minutes (kubelet.go HasExpiredFunc, 600 s), the Container Runtime blackbox table of test/e2e/common/node/runtime.go,
// and test/e2e_node/deleted_pods_test.go (a deleted running pod ends Failed with exit 137, or Succeeded when the
// container traps SIGTERM and exits 0).
import { describe, expect, it } from 'vitest';
import { containerStarts, create, engineWith, pod, podManifest, zeroLatencyEngine } from './helpers.ts';

const BUSYBOX = 'busybox';

describe('crash-loop restart timing (test/e2e_node/container_restart_test.go)', () => {
  it('with zero latencies, a container that exits at once starts at 0, 0, 10, 30, 70, 150, 310 s, then every 300 s', () => {
    const e = zeroLatencyEngine({ images: { [BUSYBOX]: { pull: 0 } } });
    create(e, podManifest('crash', { image: BUSYBOX, command: ['sh', '-c', 'exit 1'] }));
    e.advanceTo(1_300_000);
    expect(containerStarts(e, 'crash').map((t) => t / 1000)).toEqual([0, 0, 10, 30, 70, 150, 310, 610, 910, 1210]);
    const p = pod(e, 'crash')!;
    expect(p.status.phase).toBe('Running');
    expect(p.status.containerStatuses![0].restartCount).toBe(9);
  });

  it('the back-off starts over when the container finished more than 600 s after the last back-off update', () => {
    const run = (seconds: number): number[] => {
      const e = zeroLatencyEngine({ images: { [BUSYBOX]: { pull: 0 } } });
      create(e, podManifest('long', { image: BUSYBOX, command: ['sh', '-c', `sleep ${seconds}; exit 1`] }));
      e.advanceTo(2_000_000);
      return containerStarts(e, 'long').slice(0, 4).map((t) => t / 1000);
    };
    // ran 601 s each time: the entry has expired, so every restart is immediate and the back-off stays at 10 s
    expect(run(601)).toEqual([0, 601, 1202, 1803]);
    // ran 599 s: still within 600 s of the last update, so the back-off doubles: 10 s, then 20 s
    expect(run(599)).toEqual([0, 599, 1208, 1827]);
  });

  it('shows the exit (terminated, Error) until a sync that is still in back-off records CrashLoopBackOff', () => {
    const e = zeroLatencyEngine({ images: { [BUSYBOX]: { pull: 0 } } });
    const created = create(e, podManifest('web', { image: BUSYBOX, command: ['sh', '-c', 'exit 1'] }));
    // restarts at 0, 0, 10, 30; the exit at 30 starts a 40 s back-off. The sync after that exit writes the
    // terminated state (the reason cache is empty), then doBackOff records CrashLoopBackOff in the reason cache;
    // the pod worker is requeued at the back-off's end (70 s), so no sync writes the waiting state before it.
    e.advanceTo(45_000);
    let cs = pod(e, 'web')!.status.containerStatuses![0];
    expect(cs.state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs.restartCount).toBe(3);
    // after the exit at 150 s the back-off is 2m40s, longer than the 60 s resync the requeue is clamped to:
    // the sync at 210 s is still in back-off and writes waiting/CrashLoopBackOff with the back-off message
    e.advanceTo(215_000);
    cs = pod(e, 'web')!.status.containerStatuses![0];
    expect(cs.state.waiting).toEqual({
      reason: 'CrashLoopBackOff',
      message: `back-off 2m40s restarting failed container=web pod=web_default(${created.metadata.uid})`,
    });
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    const backOff = e.state().events.find((ev) => ev.reason === 'BackOff')!;
    expect(backOff.type).toBe('Warning');
    expect(backOff.message).toBe(`Back-off restarting failed container web in pod web_default(${created.metadata.uid})`);
    expect(backOff.involvedObject.fieldPath).toBe('spec.containers{web}');
  });
});

describe('the kubelet sees an exit only through the PLEG relist (pod_workers.go podWorkerLoop, cache.go GetNewerThan)', () => {
  it('restarts a crashed container at the relist that reported ContainerDied, not when the process exited', () => {
    const e = engineWith({ images: { [BUSYBOX]: { pull: 1000 } } });
    create(e, podManifest('crash', { image: BUSYBOX, command: ['sh', '-c', 'exit 1'] }));
    e.advanceTo(30_000);
    // `sh -c "exit 1"` exits the moment it starts
    const firstExit = e.trace.find((ev) => ev.kind === 'ProcessStarted')!.t;
    const died = e.trace.find((ev) => ev.kind === 'PLEGEvents' && ev.detail.includes('ContainerDied'))!;
    const restart = e.trace.find((ev) => ev.key === 'doBackOff#2')!;
    // the process exits the moment it starts; the relist reports it later, and the restart decision waits for it
    expect(died.t).toBeGreaterThan(firstExit);
    expect(restart.t).toBe(died.t);
    expect(restart.seq).toBeGreaterThan(died.seq);
    // nothing of the kubelet's happens for the pod between the exit and that relist
    expect(e.trace.filter((ev) => ev.actor === 'kubelet' && ev.t > firstExit && ev.t < died.t)).toEqual([]);
  });

  it('with zero latencies but a 1 s relist, the first restart waits for the first relist tick after the exit', () => {
    const e = zeroLatencyEngine({ images: { [BUSYBOX]: { pull: 0 } }, timings: { plegRelist: 1000 } });
    create(e, podManifest('crash', { image: BUSYBOX, command: ['sh', '-c', 'exit 1'] }));
    e.advanceTo(5_000);
    const starts = containerStarts(e, 'crash');
    const died = e.trace.filter((ev) => ev.kind === 'PLEGEvents' && ev.detail.includes('ContainerDied')).map((ev) => ev.t);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBeGreaterThan(0);
    expect(starts[1]).toBeLessThanOrEqual(1000);
    expect(starts[1]).toBe(died[0]);
  });
});

describe('Container Runtime blackbox test: should run with the expected status (test/e2e/common/node/runtime.go)', () => {
  // The container exits 1 on its first run, 0 on its second, then loops forever (upstream counts runs in a
  // file on a volume; the model says the same with its per-attempt process annotation).
  const table: [string, 'Always' | 'OnFailure' | 'Never', string, string, number, boolean][] = [
    ['terminate-cmd-rpa', 'Always', 'Running', 'running', 2, true],
    ['terminate-cmd-rpof', 'OnFailure', 'Succeeded', 'terminated', 1, false],
    ['terminate-cmd-rpn', 'Never', 'Failed', 'terminated', 0, false],
  ];
  for (const [name, restartPolicy, phase, state, restartCount, ready] of table) {
    it(`${name}: ${phase}, ${state}, restartCount ${restartCount}, ready ${ready}`, () => {
      const e = engineWith({ images: { [BUSYBOX]: { pull: 500 } } });
      create(
        e,
        podManifest('terminate-cmd', { image: BUSYBOX, command: ['sh', '-c', 'placeholder'] }, { restartPolicy }, {
          annotations: { 'sim.podlife.dev/process.terminate-cmd': JSON.stringify(['exit 1', 'exit 0', 'while true; do sleep 1; done']) },
        }),
      );
      e.advanceTo(120_000);
      const p = pod(e, 'terminate-cmd')!;
      const cs = p.status.containerStatuses![0];
      expect(p.status.phase).toBe(phase);
      expect(Object.keys(cs.state)).toEqual([state]);
      expect(cs.restartCount).toBe(restartCount);
      expect(cs.ready).toBe(ready);
    });
  }
});

describe('Deleted pods handling (test/e2e_node/deleted_pods_test.go)', () => {
  const finalizer = { finalizers: ['example.com/test-finalizer'] };
  for (const restartPolicy of ['Always', 'OnFailure', 'Never'] as const) {
    it(`a running "sleep 1800" deleted with grace 1s ends Failed with exit 137 (${restartPolicy})`, () => {
      const e = engineWith({ images: { [BUSYBOX]: { pull: 500 } } });
      create(e, podManifest('sleeper', { image: BUSYBOX, command: ['sleep', '1800'] }, { restartPolicy }, finalizer));
      e.advanceTo(10_000);
      expect(pod(e, 'sleeper')!.status.phase).toBe('Running');
      expect(e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'sleeper', gracePeriodSeconds: 1 }).ok).toBe(true);
      e.advanceTo(20_000);
      const p = pod(e, 'sleeper')!;
      expect(p.metadata.deletionTimestamp).toBeDefined();
      expect(p.status.phase).toBe('Failed');
      expect(p.status.containerStatuses![0].state.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    });
    it(`a container that traps SIGTERM and exits 0 ends Succeeded (${restartPolicy})`, () => {
      const e = engineWith({ images: { [BUSYBOX]: { pull: 500 } } });
      create(e, podManifest('trapper', { image: BUSYBOX, command: ['sh', '-c', 'trap "exit 0" SIGTERM; while true; do sleep 1; done'] }, { restartPolicy }, finalizer));
      e.advanceTo(10_000);
      e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'trapper', gracePeriodSeconds: 1 });
      e.advanceTo(20_000);
      const p = pod(e, 'trapper')!;
      expect(p.status.phase).toBe('Succeeded');
      expect(p.status.containerStatuses![0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    });
  }
  it('a pod deleted while Pending on an image that does not exist ends Failed', () => {
    const e = engineWith({ images: { 'registry.invalid/missing:v1': { error: 'not found', pull: 300 } } });
    create(e, podManifest('missing', { image: 'registry.invalid/missing:v1' }, {}, finalizer));
    e.advanceTo(5_000);
    expect(pod(e, 'missing')!.status.phase).toBe('Pending');
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'missing', gracePeriodSeconds: 1 });
    e.advanceTo(15_000);
    expect(pod(e, 'missing')!.status.phase).toBe('Failed');
  });
});

describe('the article’s crash loop (kubectl get pod crash-test at 8m23s)', () => {
  it('shows restart 6, the last one 2m46s before 8m23s, in CrashLoopBackOff, phase Running', () => {
    // the calibration (src/sim/README.md): seed 12, busybox pulled from the mirror in 1.8 s; the pod worker's
    // requeue jitter (wait.Jitter, factor 0.5) is drawn from the pod's own seeded stream
    const e = engineWith({ images: { 'm.daocloud.io/docker.io/busybox': { pull: 1800, size: 2_200_000 } } }, 12);
    create(e, podManifest('crash-test', { image: 'm.daocloud.io/docker.io/busybox', command: ['sh', '-c', 'exit 1'] }, { restartPolicy: 'Always' }, { labels: { run: 'crash-test' } }));
    const at = 8 * 60_000 + 23_000;
    e.advanceTo(at);
    const p = pod(e, 'crash-test')!;
    const cs = p.status.containerStatuses![0];
    expect(p.status.phase).toBe('Running');
    expect(cs.restartCount).toBe(6);
    expect(cs.state.waiting?.reason).toBe('CrashLoopBackOff');
    const finished = Date.parse(cs.lastState.terminated!.finishedAt!) - e.state().epoch;
    // kubectl's "(2m46s ago)": HumanDuration truncates to whole seconds
    expect(Math.floor((at - finished) / 1000)).toBe(166);
  });
});
