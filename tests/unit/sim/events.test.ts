// Event correlation as client-go's EventCorrelator does it (tools/record/events_cache.go): dedup into count and
// lastTimestamp, aggregation after 10 distinct messages in 10 minutes, and the source+object spam filter.
import { describe, expect, it } from 'vitest';
import { EventRecorder, unixNanoHex, type EventInput } from '../../../src/sim/api/events.ts';
import { SimContext } from '../../../src/sim/core/context.ts';
import { EventLoop } from '../../../src/sim/core/loop.ts';
import { History } from '../../../src/sim/core/history.ts';
import { DEFAULT_TIMINGS } from '../../../src/sim/core/timings.ts';
import { DEFAULT_EPOCH } from '../../../src/sim/config.ts';
import type { KubeEvent } from '../../../src/sim/types.ts';

function recorder() {
  const ctx = new SimContext(new EventLoop(), 1, new History(), DEFAULT_EPOCH, DEFAULT_TIMINGS);
  const written: KubeEvent[] = [];
  let rv = 100;
  const rec = new EventRecorder(ctx, (ev) => written.push(ev), () => String(++rv));
  return { ctx, rec, written };
}

const input = (message: string, extra: Partial<EventInput> = {}): EventInput => ({
  involved: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
  type: 'Warning', reason: 'BackOff', message, component: 'kubelet', host: 'worker01', ...extra,
});

describe('EventCorrelator', () => {
  it('the same source, object, reason and message: one event whose count and lastTimestamp move', () => {
    const { ctx, rec, written } = recorder();
    const first = rec.record(input('Back-off restarting failed container web'))!;
    ctx.loop.runUntil(12_000);
    const second = rec.record(input('Back-off restarting failed container web'))!;
    expect(second.metadata.name).toBe(first.metadata.name);
    expect(second).toMatchObject({ count: 2, firstTimestamp: '2026-08-04T03:00:00Z', lastTimestamp: '2026-08-04T03:00:12Z' });
    expect(Number(second.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
    expect(written.length).toBe(2);
    expect(first.metadata.name).toMatch(/^web\.[0-9a-f]+$/);
    expect(first.source).toEqual({ component: 'kubelet', host: 'worker01' });
  });
  it('a different message is a different event', () => {
    const { rec } = recorder();
    const a = rec.record(input('one'))!;
    const b = rec.record(input('two'))!;
    expect(a.metadata.name).not.toBe(b.metadata.name);
  });
  it('after 10 distinct messages for one object and reason, events combine', () => {
    const { ctx, rec } = recorder();
    let last: KubeEvent | undefined;
    for (let i = 0; i < 12; i++) {
      ctx.loop.runUntil(i * 1000);
      last = rec.record(input(`Successfully pulled image "busybox" in ${i + 1}s`, { type: 'Normal', reason: 'Pulled' }));
    }
    expect(last!.message).toBe('(combined from similar events): Successfully pulled image "busybox" in 12s');
    expect(last!.count).toBe(3); // the 10th, 11th and 12th distinct messages
  });
  it('the spam filter lets 25 events per source and object through, then one every 5 minutes, counting all', () => {
    const { ctx, rec } = recorder();
    const results: (KubeEvent | undefined)[] = [];
    for (let i = 0; i < 30; i++) {
      ctx.loop.runUntil(i * 100);
      results.push(rec.record(input('same')));
    }
    expect(results.filter(Boolean).length).toBe(25);
    ctx.loop.runUntil(300_000 + 3000);
    const after = rec.record(input('same'))!;
    expect(after.count).toBe(31); // the dropped ones were still counted
  });
  it('getSpamKey is the source and the object: Normal and Warning events, of any container, share one bucket', () => {
    const { ctx, rec } = recorder();
    for (let i = 0; i < 25; i++) {
      ctx.loop.runUntil(i * 100);
      expect(rec.record(input(`pull ${i % 3}`, { type: 'Normal', reason: 'Pulling' }))).toBeDefined();
    }
    // another type, reason and container: the same bucket, now empty
    const other = { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'v1', fieldPath: 'spec.containers{sidecar}' };
    expect(rec.record(input('Back-off restarting failed container sidecar', { involved: other }))).toBeUndefined();
    // another object, or another source about the same object: buckets of their own
    expect(rec.record(input('Back-off restarting failed container web', { involved: { ...other, name: 'db', uid: 'u-2' } }))).toBeDefined();
    expect(rec.record(input('Back-off restarting failed container web', { host: 'worker02' }))).toBeDefined();
  });
  it('event names carry the hex of UnixNano exactly, beyond 2^53 nanoseconds', () => {
    const exact = (ms: number, extra: number): string => (BigInt(ms) * 1_000_000n + BigInt(extra)).toString(16);
    for (const [ms, extra] of [[0, 0], [1, 999_000], [2 ** 32 - 1, 999_000], [2 ** 32, 0], [1_785_812_400_000, 0], [1_785_812_400_999, 123_000], [2 ** 43 - 1, 999_000]]) {
      expect(unixNanoHex(ms, extra), `${ms} ms + ${extra} ns`).toBe(exact(ms, extra));
    }
  });
  it('the scheduler\'s eventTime is metav1.MicroTime: the millisecond, then three zeros', () => {
    const { ctx, rec } = recorder();
    ctx.loop.runUntil(61_007);
    const ev = rec.record({ ...input('Successfully assigned default/web to worker01'), component: 'default-scheduler', host: undefined, type: 'Normal', reason: 'Scheduled' })!;
    expect(ev.eventTime).toBe('2026-08-04T03:01:01.007000Z');
    expect(rec.record(input('kubelet events have none'))!.eventTime).toBeNull();
  });
});

// The scheduler's recorder: client-go tools/events (events.k8s.io/v1), as a core/v1 reader sees its events.
describe('events.k8s.io/v1 recorder (tools/events event_broadcaster.go)', () => {
  const failed = (rv: string, message = '0/1 nodes are available: 1 Insufficient cpu.'): EventInput => ({
    involved: { kind: 'Pod', namespace: 'default', name: 'big', uid: 'u-2', apiVersion: 'v1', resourceVersion: rv },
    type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', message, component: 'default-scheduler',
  });
  it('an event has eventTime, action and the reporting controller; no first/last timestamp, count or source', () => {
    const { rec } = recorder();
    const ev = rec.record(failed('10'))!;
    expect(ev).toMatchObject({
      eventTime: '2026-08-04T03:00:00.000000Z', firstTimestamp: null, lastTimestamp: null, source: {},
      action: 'Scheduling', reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-control-plane',
    });
    expect(ev).not.toHaveProperty('count');
    expect(ev).not.toHaveProperty('series');
  });
  it('the second isomorphic event is written at once as a series of 2; later ones only count in the cache', () => {
    const { ctx, rec, written } = recorder();
    const first = rec.record(failed('10'))!;
    ctx.loop.runUntil(10_000);
    const second = rec.record(failed('10'))!;
    expect(second.metadata.name).toBe(first.metadata.name);
    expect(second.series).toEqual({ count: 2, lastObservedTime: '2026-08-04T03:00:10.000000Z' });
    expect(second.eventTime).toBe(first.eventTime);
    ctx.loop.runUntil(20_000);
    expect(rec.record(failed('10'))).toBeUndefined();
    expect(written.length).toBe(2);
  });
  it('the key is the regarding object with its resourceVersion, not the message (getKey)', () => {
    const { rec, written } = recorder();
    const a = rec.record(failed('10'))!;
    const b = rec.record(failed('11'))!;
    expect(b.metadata.name).not.toBe(a.metadata.name);
    const c = rec.record(failed('11', 'another message'))!;
    expect(c.metadata.name).toBe(b.metadata.name);
    expect(c.message).toBe(b.message);
    expect(written.length).toBe(3);
  });
  it('finishSeries writes a series quiet for 6 minutes with its count, then forgets it; refresh writes every 30 minutes', () => {
    const { ctx, rec, written } = recorder();
    rec.record(failed('10'));
    ctx.loop.runUntil(60_000);
    rec.record(failed('10'));
    ctx.loop.runUntil(120_000);
    rec.record(failed('10'));
    expect(written.at(-1)!.series!.count).toBe(2);
    // the broadcaster's 6-minute tick after the last observation is more than 6 minutes old
    ctx.loop.runUntil(120_000 + 2 * 360_000);
    const last = written.at(-1)!;
    expect(last.series).toEqual({ count: 3, lastObservedTime: '2026-08-04T03:02:00.000000Z' });
    const n = written.length;
    // forgotten: the next one is a new event
    const again = rec.record(failed('10'))!;
    expect(again.metadata.name).not.toBe(last.metadata.name);
    expect(again).not.toHaveProperty('series');
    expect(written.length).toBe(n + 1);
  });
  it('a series that keeps going is written by refreshExistingEventSeries, every 30 minutes', () => {
    const ctx = new SimContext(new EventLoop(), 1, new History(), DEFAULT_EPOCH, DEFAULT_TIMINGS);
    const writes: { t: number; count: number }[] = [];
    let rv = 0;
    const rec = new EventRecorder(ctx, (ev) => ev.series && writes.push({ t: ctx.now, count: ev.series.count }), () => String(++rv));
    // one failure a minute for 90 minutes
    for (let t = 0; t <= 5_400_000; t += 60_000) {
      ctx.loop.runUntil(t);
      rec.record(failed('10'));
    }
    // the series of 2 at once, then the refreshes, 30 minutes apart, each with the count so far
    expect(writes[0]).toEqual({ t: 60_000, count: 2 });
    const refreshes = writes.slice(1);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < refreshes.length; i++) expect(refreshes[i].t - refreshes[i - 1].t).toBe(1_800_000);
    for (const r of refreshes) expect(r.count).toBe(Math.floor(r.t / 60_000) + 1);
  });
});
