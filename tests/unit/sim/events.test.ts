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
  it('the spam filter lets 25 events per object and type through, then one every 5 minutes, counting all', () => {
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
