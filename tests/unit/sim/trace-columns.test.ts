// The engine keeps its trace as columns until it is first read (core/context.ts): the events a reader gets must be
// the same whether it read the trace from the start (events made with each emit) or only at the end (made from the
// columns at once), and an array a reader holds must keep growing as the engine runs.
import { describe, expect, it } from 'vitest';
import { create, engineWith, podManifest } from './helpers.ts';
import type { Engine } from '../../../src/sim/types.ts';

/** A run with several actors, keyed and unkeyed events, a crash loop and a deletion; `peek` reads the trace between steps. */
function run(peek: (e: Engine) => void): Engine {
  const e = engineWith({}, 3);
  peek(e);
  create(e, podManifest('crash', { image: 'busybox', command: ['sh', '-c', 'exit 1'] }));
  create(e, podManifest('web', { image: 'nginx' }));
  for (const t of [1_000, 30_000, 90_000]) {
    e.advanceTo(t);
    peek(e);
  }
  e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'web' });
  e.advanceTo(150_000);
  return e;
}

describe('the trace kept as columns', () => {
  it('reads the same, event for event, whether read from the start or only at the end', () => {
    const lengths: number[] = [];
    let held: readonly unknown[] | undefined;
    const early = run((e) => {
      held ??= e.trace;
      lengths.push(e.trace.length);
    });
    const late = run(() => {});
    const a = JSON.stringify(early.trace);
    const b = JSON.stringify(late.trace);
    expect(b).toBe(a);
    // every field and both shapes (with and without a step key), in the literal's key order
    expect(late.trace.some((ev) => ev.key === undefined)).toBe(true);
    expect(new Set(late.trace.map((ev) => ev.actor))).toEqual(new Set(['apiserver', 'scheduler', 'kubelet', 'runtime', 'process']));
    expect(Object.keys(late.trace.find((ev) => ev.key)!)).toEqual(['seq', 't', 'actor', 'kind', 'object', 'detail', 'key']);
    expect(late.trace.map((ev) => ev.seq)).toEqual(late.trace.map((_, i) => i));
    // the array read before anything happened is the one that grew
    expect(held).toBe(early.trace);
    expect(lengths[0]).toBe(0);
    expect(lengths.every((n, i) => i === 0 || n > lengths[i - 1])).toBe(true);
  });

  it('counts its events without making them, and keeps counting once they are made', () => {
    const e = engineWith({}, 1);
    create(e, podManifest('web', { image: 'nginx' }));
    e.advanceTo(5_000);
    const before = e.traceLength;
    expect(before).toBeGreaterThan(10);
    expect(e.trace.length).toBe(before);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'web' });
    e.advanceTo(60_000);
    expect(e.traceLength).toBeGreaterThan(before);
    expect(e.trace.length).toBe(e.traceLength);
    expect(e.trace.at(-1)!.t).toBeLessThanOrEqual(60_000);
  });
});
