// The pod startup latency tracker's log line (pkg/kubelet/util/pod_startup_latency_tracker.go
// ObservedPodOnWatch): the times it took from time.Now() print with Go's monotonic reading, as
// time.Time.String() writes it ("2024-11-29 16:33:28.533354264 +0000 UTC m=+23260.063106038": seconds
// since the process started, 9 decimals); podCreationTimestamp came from the API and has none.
import { describe, expect, it } from 'vitest';
import { create, engineWith, podManifest } from './helpers.ts';

const GO_TIME = /^"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) \+0000 UTC(?: m=\+(\d+)\.(\d{9}))?"$/;

describe('Observed pod startup duration', () => {
  const e = engineWith({ images: { 'busybox:1.36': { pull: 1500, size: 2_000_000 } } }, 3);
  create(e, podManifest('web', { image: 'busybox:1.36', imagePullPolicy: 'Always', command: ['sleep', '3600'] }));
  e.advanceTo(30_000);
  const state = e.state();
  const line = state.kubeletLogs.find((l) => l.msg === 'Observed pod startup duration')!;
  const kv = Object.fromEntries(line.kv);
  // the kubelet's process start: its first node status post, the Ready condition's heartbeat
  const node = state.nodes[0];
  const kubeletStart = Date.parse(node.status.conditions.find((c) => c.type === 'Ready')!.lastHeartbeatTime);

  it('gives the times read from the clock a monotonic reading: seconds since the kubelet started', () => {
    for (const key of ['firstStartedPulling', 'lastFinishedPulling', 'observedRunningTime', 'watchObservedRunningTime']) {
      const m = GO_TIME.exec(kv[key]);
      expect(m, `${key}=${kv[key]}`).not.toBeNull();
      expect(m![2], key).toBeDefined();
      const wall = Date.parse(`${m![1].replace(' ', 'T')}Z`);
      const monotonicMs = Number(m![2]) * 1000 + Number(m![3]) / 1e6;
      expect(monotonicMs, key).toBeCloseTo(wall - kubeletStart, 6);
    }
    // the pull happened, so the pulling times are real ones, in order
    const at = (key: string) => Number(GO_TIME.exec(kv[key])![2]) + Number(GO_TIME.exec(kv[key])![3]) / 1e9;
    expect(at('firstStartedPulling')).toBeLessThan(at('lastFinishedPulling'));
    expect(at('lastFinishedPulling')).toBeLessThanOrEqual(at('observedRunningTime'));
    expect(at('observedRunningTime')).toBeLessThan(at('watchObservedRunningTime'));
  });

  it('prints the creation timestamp (from the API) without one, in whole seconds', () => {
    const m = GO_TIME.exec(kv.podCreationTimestamp)!;
    expect(m[2]).toBeUndefined();
    expect(`${m[1].replace(' ', 'T')}Z`).toBe(state.pods[0].metadata.creationTimestamp);
  });
});

describe('Observed pod startup duration: the durations', () => {
  it('podStartE2EDuration runs from creation to watchObservedRunningTime; podStartSLOduration leaves out the pull', () => {
    const e = engineWith({ images: { 'busybox:1.36': { pull: 1500, size: 2_000_000 } } }, 5);
    create(e, podManifest('web', { image: 'busybox:1.36', imagePullPolicy: 'Always', command: ['sleep', '3600'] }));
    e.advanceTo(30_000);
    const state = e.state();
    const kv = Object.fromEntries(state.kubeletLogs.find((l) => l.msg === 'Observed pod startup duration')!.kv);
    const wall = (key: string) => Date.parse(`${GO_TIME.exec(kv[key])![1].replace(' ', 'T')}Z`);
    const e2e = wall('watchObservedRunningTime') - Date.parse(state.pods[0].metadata.creationTimestamp);
    expect(kv.podStartE2EDuration).toBe(`"${e2e / 1000}s"`);
    expect(Number(kv.podStartSLOduration)).toBeCloseTo((e2e - (wall('lastFinishedPulling') - wall('firstStartedPulling'))) / 1000, 9);
  });
});
