// The pod startup latency tracker's log line (pkg/kubelet/util/pod_startup_latency_tracker.go
// ObservedPodOnWatch, with v1.36's fields: image pull sessions, init container run time, isStatefulPod; e.g. a
// 2026 kind node: podStartSLOduration=26.79312747 podStartE2EDuration="26.973310511s"
// totalImagesPullingTime="180.183041ms" totalInitContainerRuntime="0s" isStatefulPod=true
// podCreationTimestamp="…" imagePullSessionsCount=1 imagePullSessionsStartsCount=0 observedRunningTime="…").
// The times it took from time.Now() print with Go's monotonic reading, as
// time.Time.String() writes it ("2024-11-29 16:33:28.533354264 +0000 UTC m=+23260.063106038": seconds
// since the process started, 9 decimals); podCreationTimestamp came from the API and has none.
import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { localGoTimes } from '../../../src/sim/render/journal.ts';
import { NODE, create, engineWith, podManifest } from './helpers.ts';

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
    for (const key of ['observedRunningTime', 'watchObservedRunningTime']) {
      const m = GO_TIME.exec(kv[key]);
      expect(m, `${key}=${kv[key]}`).not.toBeNull();
      expect(m![2], key).toBeDefined();
      const wall = Date.parse(`${m![1].replace(' ', 'T')}Z`);
      const monotonicMs = Number(m![2]) * 1000 + Number(m![3]) / 1e6;
      expect(monotonicMs, key).toBeCloseTo(wall - kubeletStart, 6);
    }
    const at = (key: string) => Number(GO_TIME.exec(kv[key])![2]) + Number(GO_TIME.exec(kv[key])![3]) / 1e9;
    expect(at('observedRunningTime')).toBeLessThan(at('watchObservedRunningTime'));
  });

  it('prints the creation timestamp (from the API) without one, in whole seconds', () => {
    const m = GO_TIME.exec(kv.podCreationTimestamp)!;
    expect(m[2]).toBeUndefined();
    expect(`${m[1].replace(' ', 'T')}Z`).toBe(state.pods[0].metadata.creationTimestamp);
  });
});

const fields = (e: ReturnType<typeof engineWith>, name: string) => {
  const line = e.state().kubeletLogs.find((l) => l.msg === 'Observed pod startup duration' && l.kv.some(([k, v]) => k === 'pod' && v.endsWith(`/${name}"`)))!;
  return Object.fromEntries(line.kv);
};
const seconds = (goDuration: string) => {
  const m = /^"(?:(\d+)m)?(?:([\d.]+)s)?(?:(\d+)ms)?"$/.exec(goDuration)!;
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) + Number(m[3] ?? 0) / 1000;
};

describe('Observed pod startup duration: the durations', () => {
  const PULL = 1500;
  it('podStartE2EDuration runs from creation to watchObservedRunningTime; podStartSLOduration leaves out the pull', () => {
    const e = engineWith({ images: { 'busybox:1.36': { pull: PULL, size: 2_000_000 } } }, 5);
    create(e, podManifest('web', { image: 'busybox:1.36', imagePullPolicy: 'Always', command: ['sleep', '3600'] }));
    e.advanceTo(30_000);
    const state = e.state();
    const kv = fields(e, 'web');
    const wall = (key: string) => Date.parse(`${GO_TIME.exec(kv[key])![1].replace(' ', 'T')}Z`);
    const e2e = wall('watchObservedRunningTime') - Date.parse(state.pods[0].metadata.creationTimestamp);
    expect(seconds(kv.podStartE2EDuration)).toBeCloseTo(e2e / 1000, 9);
    // one pull, on a free puller: the session is the image's pull time
    expect(kv.imagePullSessionsCount).toBe('1');
    expect(kv.imagePullSessionsStartsCount).toBe('0');
    expect(seconds(kv.totalImagesPullingTime)).toBeCloseTo(PULL / 1000, 9);
    expect(kv.totalInitContainerRuntime).toBe('"0s"');
    expect(Number(kv.podStartSLOduration)).toBeCloseTo((e2e - PULL) / 1000, 9);
    // only a projected token volume: not a stateful pod
    expect(kv.isStatefulPod).toBe('false');
  });

  it('a pull that waited for the node\'s serial puller counts its wait; each pull is a session', () => {
    const e = engineWith({ images: { 'busybox:1.36': { pull: PULL, size: 2_000_000 }, 'alpine:3.20': { pull: PULL, size: 3_000_000 } } }, 5);
    create(e, podManifest('first', { image: 'busybox:1.36', command: ['sleep', '3600'] }));
    create(e, podManifest('second', { image: 'alpine:3.20', command: ['sleep', '3600'] }, {
      initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['sleep', '2'], resources: {} }],
    }));
    e.advanceTo(60_000);
    const first = fields(e, 'first');
    const second = fields(e, 'second');
    expect(seconds(first.totalImagesPullingTime)).toBeCloseTo(PULL / 1000, 9);
    // the second pod's init image waited behind the first pod's pull, then its own image was pulled
    expect(second.imagePullSessionsCount).toBe('2');
    expect(seconds(second.totalImagesPullingTime)).toBeGreaterThan((2 * PULL) / 1000);
  });

  it('totalInitContainerRuntime adds up each init container\'s run, and the SLO duration leaves it out', () => {
    const e = engineWith({ nodes: [{ ...NODE, images: ['busybox:1.36'] }] }, 5);
    create(e, podManifest('app', { image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'] }, {
      initContainers: [
        { name: 'one', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', command: ['sleep', '2'], resources: {} },
        { name: 'two', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', command: ['sleep', '3'], resources: {} },
      ],
    }));
    e.advanceTo(60_000);
    const kv = fields(e, 'app');
    const init = seconds(kv.totalInitContainerRuntime);
    // each init container runs its sleep (from the moment StartContainer returned to its exit)
    expect(init).toBeGreaterThanOrEqual(5);
    expect(init).toBeLessThan(5.2);
    expect(kv.imagePullSessionsCount).toBe('0');
    expect(Number(kv.podStartSLOduration)).toBeCloseTo(seconds(kv.podStartE2EDuration) - init, 9);
  });
});

// journalctl shows the line as the kubelet wrote it: in the node's local zone. A kubelet on a UTC+8 node
// (Asia/Shanghai) prints, e.g. (kubernetes/kubernetes#130432): podCreationTimestamp="2025-03-03 22:04:49 +0800 CST"
// firstStartedPulling="2025-03-03 22:04:49.65136175 +0800 CST m=+1356.149878731"
describe('Observed pod startup duration in journalctl: the node\'s local zone', () => {
  const e = engineWith({ images: { 'busybox:1.36': { pull: 1500, size: 2_000_000 } } }, 3);
  create(e, podManifest('web', { image: 'busybox:1.36', imagePullPolicy: 'Always', command: ['sleep', '3600'] }));
  e.advanceTo(30_000);
  const state = e.state();
  const kv = Object.fromEntries(state.kubeletLogs.find((l) => l.msg === 'Observed pod startup duration')!.kv);
  const shown = (utcOffsetMinutes: number) => {
    const line = execute('journalctl -u kubelet', { state, utcOffsetMinutes }).stdout.split('\n').find((l) => l.includes('Observed pod startup duration'))!;
    return (key: string) => new RegExp(` ${key}=("[^"]*"|\\S+)`).exec(line)![1];
  };
  const local = (utc: string, offset: number, name: string) => {
    const m = GO_TIME.exec(utc)!;
    const [whole, frac = ''] = m[1].split(/(?=\.)/);
    const t = new Date(Date.parse(`${whole.replace(' ', 'T')}Z`) + offset * 60_000).toISOString();
    const sign = offset < 0 ? '-' : '+';
    const hhmm = `${String(Math.trunc(Math.abs(offset) / 60)).padStart(2, '0')}${String(Math.abs(offset) % 60).padStart(2, '0')}`;
    return `"${t.slice(0, 10)} ${t.slice(11, 19)}${frac} ${sign}${hhmm} ${name}${m[2] !== undefined ? ` m=+${m[2]}.${m[3]}` : ''}"`;
  };

  it('prints every time in the local zone with its abbreviation, keeping the monotonic reading', () => {
    const at = shown(480);
    for (const key of ['podCreationTimestamp', 'observedRunningTime', 'watchObservedRunningTime']) {
      expect(at(key), key).toBe(local(kv[key], 480, 'CST'));
    }
    expect(at('podStartE2EDuration')).toBe(kv.podStartE2EDuration);
  });

  it('leaves UTC nodes as they are, and names a zone without letters by its offset', () => {
    expect(shown(0)('observedRunningTime')).toBe(kv.observedRunningTime);
    expect(shown(330)('observedRunningTime')).toBe(local(kv.observedRunningTime, 330, '+0530'));
  });
});

describe('Observed pod startup duration without a pull', () => {
  it('counts no pulling time and no session when the image is present', () => {
    const e = engineWith({ nodes: [{ ...NODE, images: ['busybox:1.36'] }] }, 3);
    create(e, podManifest('web', { image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'] }));
    e.advanceTo(30_000);
    const out = execute('journalctl -u kubelet', { state: e.state(), utcOffsetMinutes: 480 }).stdout;
    const line = out.split('\n').find((l) => l.includes('Observed pod startup duration'))!;
    expect(line).toContain(' totalImagesPullingTime="0s" totalInitContainerRuntime="0s" isStatefulPod=false ');
    expect(line).toContain(' imagePullSessionsCount=0 imagePullSessionsStartsCount=0 ');
    expect(line).toMatch(/ observedRunningTime="[^"]+ \+0800 CST m=\+\d+\.\d{9}" /);
    const kv = fields(e, 'web');
    expect(kv.podStartSLOduration).toBe(String(seconds(kv.podStartE2EDuration)));
  });
});

describe('localGoTimes', () => {
  it('moves a time into the node\'s zone but leaves the zero time (time.Time{}) in UTC, as Go prints it', () => {
    expect(localGoTimes('"0001-01-01 00:00:00 +0000 UTC"', 480)).toBe('"0001-01-01 00:00:00 +0000 UTC"');
    expect(localGoTimes('"2026-08-04 03:00:00.5 +0000 UTC m=+1.500000000"', 480)).toBe('"2026-08-04 11:00:00.5 +0800 CST m=+1.500000000"');
  });
});
