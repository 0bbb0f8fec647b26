// The pod startup latency tracker's log line (pkg/kubelet/util/pod_startup_latency_tracker.go
// ObservedPodOnWatch): the times it took from time.Now() print with Go's monotonic reading, as
// time.Time.String() writes it ("2024-11-29 16:33:28.533354264 +0000 UTC m=+23260.063106038": seconds
// since the process started, 9 decimals); podCreationTimestamp came from the API and has none.
import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
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
    for (const key of ['podCreationTimestamp', 'firstStartedPulling', 'lastFinishedPulling', 'observedRunningTime', 'watchObservedRunningTime']) {
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
  it('prints the zero time (no pull) in UTC in any zone, as Go does', () => {
    const e = engineWith({ nodes: [{ ...NODE, images: ['busybox:1.36'] }] }, 3);
    create(e, podManifest('web', { image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'] }));
    e.advanceTo(30_000);
    const out = execute('journalctl -u kubelet', { state: e.state(), utcOffsetMinutes: 480 }).stdout;
    const line = out.split('\n').find((l) => l.includes('Observed pod startup duration'))!;
    expect(line).toContain(' firstStartedPulling="0001-01-01 00:00:00 +0000 UTC" lastFinishedPulling="0001-01-01 00:00:00 +0000 UTC" ');
    expect(line).toMatch(/ observedRunningTime="[^"]+ \+0800 CST m=\+\d+\.\d{9}" /);
  });
});
