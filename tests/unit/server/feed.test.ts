// The change feed finds every change by bisecting over stateAt; here it is checked against brute force:
// the same scenario stepped one millisecond at a time, recording each object whose identity changed.
// Also: resourceVersions only grow, deletions get versions of their own, and `since` is what a watcher
// from a list's resourceVersion must receive.

import { describe, expect, it } from 'vitest';
import { execute, isMutating } from '../../../src/sim/commands/execute.ts';
import { createEngine, scenarioToEngineConfig, type ClusterAction } from '../../../src/sim/index.ts';
import { LiveCluster } from '../../../src/server/cluster.ts';
import { objectKey, type FeedObject } from '../../../src/server/feed.ts';
import { eventFor } from '../../../src/server/watch.ts';
import { loadScenario } from './helpers.ts';

type Seen = [type: string, kind: string, key: string, t: number];

/** Step the scenario 1 ms at a time on a fresh engine and list every change of every object. */
function bruteForce(name: string, until: number): Seen[] {
  const scenario = loadScenario(name);
  const engine = createEngine(scenarioToEngineConfig(scenario), { seed: scenario.seed ?? 1 });
  const ctx = { get state() { return engine.state(); }, apply: (a: ClusterAction) => engine.apply(a) };
  const steps = [...scenario.timeline].map((s, i) => ({ s, i })).sort((a, b) => a.s.at - b.s.at || a.i - b.i).map((x) => x.s);
  const seen: Seen[] = [];
  let prev = new Map<string, FeedObject>();
  for (let t = 0; t <= until; t++) {
    engine.advanceTo(t);
    for (const s of steps.filter((x) => x.at === t)) {
      if (s.apply !== undefined) engine.apply({ type: 'create', namespace: 'default', obj: s.apply });
      else if (isMutating(s.run!)) execute(s.run!, ctx);
    }
    const st = engine.state();
    const now = new Map<string, FeedObject>();
    for (const [kind, list] of [['pods', st.pods], ['events', st.events], ['nodes', st.nodes]] as const) {
      for (const o of list as FeedObject[]) now.set(`${kind} ${objectKey(o)}`, o);
    }
    const batch: Seen[] = [];
    for (const [k, o] of now) {
      const before = prev.get(k);
      if (before === undefined) batch.push(['ADDED', ...(k.split(' ') as [string, string]), t]);
      else if (before !== o) batch.push(['MODIFIED', ...(k.split(' ') as [string, string]), t]);
    }
    for (const k of prev.keys()) if (!now.has(k)) batch.push(['DELETED', ...(k.split(' ') as [string, string]), t]);
    seen.push(...batch.sort());
    prev = now;
  }
  return seen;
}

describe('the change feed', () => {
  it.each([
    ['crash-loop', 35_000],
    ['delete', 60_000],
  ])('%s: one jump finds every change brute force finds, at the same millisecond', (name, until) => {
    const cluster = new LiveCluster({ scenario: loadScenario(name) });
    cluster.advanceTo(until);
    const found: Seen[] = [];
    const log = cluster.feed.since(-1);
    const byTime = new Map<number, Seen[]>();
    for (const c of log) {
      const s: Seen = [c.type, c.kind, objectKey(c.object), c.t];
      byTime.set(c.t, [...(byTime.get(c.t) ?? []), s]);
    }
    for (const t of [...byTime.keys()].sort((a, b) => a - b)) found.push(...byTime.get(t)!.sort());
    const expected = bruteForce(name, until);
    expect(found).toEqual(expected);
    expect(expected.some(([type]) => type === 'MODIFIED')).toBe(true);
    if (name === 'delete') expect(expected.some(([type]) => type === 'DELETED')).toBe(true);
  });

  it('resourceVersions grow; a deletion gets one of its own; since(rv) is what came after', () => {
    const cluster = new LiveCluster({ scenario: loadScenario('delete') });
    cluster.advanceTo(30_000);
    const listRv = Number(cluster.feed.resourceVersion);
    cluster.advanceTo(60_000);
    const log = cluster.feed.since(-1);
    const rvs = log.map((c) => c.rv);
    // Within one millisecond a deletion comes first, and may share a number with a write; across
    // milliseconds the numbers only grow, so a list's resourceVersion splits the log cleanly.
    for (let i = 1; i < log.length; i++) {
      if (log[i].t > log[i - 1].t) expect(Math.min(...rvs.slice(i))).toBeGreaterThan(Math.max(...rvs.slice(0, i)));
    }
    const deletion = log.find((c) => c.type === 'DELETED' && c.kind === 'pods')!;
    expect(deletion.object.metadata.resourceVersion).toBe(String(deletion.rv));
    expect(deletion.rv).toBeGreaterThan(Number(deletion.previous!.metadata.resourceVersion));
    const after = cluster.feed.since(listRv);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((c) => c.t > 30_000)).toBe(true);
    expect(after).toEqual(log.filter((c) => c.t > 30_000));
  });

  it('changes made by a request at the current moment are found and reported to listeners', () => {
    const cluster = new LiveCluster();
    const heard: string[] = [];
    cluster.feed.subscribe((changes) => heard.push(...changes.map((c) => `${c.type} ${c.kind} ${objectKey(c.object)}`)));
    const r = cluster.apply({ type: 'create', namespace: 'default', obj: { metadata: { name: 'a' }, spec: { containers: [{ name: 'a', image: 'nginx' }] } } });
    expect(r.ok).toBe(true);
    expect(heard).toEqual(['ADDED pods default/a']);
    cluster.advanceTo(5);
    expect(cluster.feed.objects('pods').map((p) => p.metadata.name)).toEqual(['a']);
  });
});

describe('what a change means to a watcher with a selector (cacher convertToWatchEvent)', () => {
  const pod = (phase: string) => ({ metadata: { name: 'p', namespace: 'default' }, status: { phase } }) as unknown as FeedObject;
  const running = (o: { metadata: { name: string } }) => (o as unknown as { status: { phase: string } }).status.phase === 'Running';
  it.each([
    ['ADDED', undefined, 'Running', 'ADDED'],
    ['ADDED', undefined, 'Pending', undefined],
    ['MODIFIED', 'Pending', 'Running', 'ADDED'],
    ['MODIFIED', 'Running', 'Running', 'MODIFIED'],
    ['MODIFIED', 'Running', 'Succeeded', 'DELETED'],
    ['MODIFIED', 'Pending', 'Pending', undefined],
    ['DELETED', 'Running', 'Running', 'DELETED'],
    ['DELETED', 'Pending', 'Pending', undefined],
  ] as const)('%s from %s to %s → %s', (type, before, now, expected) => {
    const change = { kind: 'pods' as const, type, object: pod(now), t: 0, rv: 1, ...(before ? { previous: pod(before) } : {}) };
    expect(eventFor(change, running)).toBe(expected);
  });
});

describe('a pod deleted and created again under the same name in the same millisecond', () => {
  it('is DELETED (the old uid) and ADDED (the new one), not MODIFIED', () => {
    const cluster = new LiveCluster();
    const pod = { metadata: { name: 'a' }, spec: { containers: [{ name: 'a', image: 'nginx' }] } };
    cluster.apply({ type: 'create', namespace: 'default', obj: pod });
    cluster.advanceTo(10_000);
    const before = cluster.feed.objects('pods')[0];
    const heard: string[] = [];
    cluster.feed.subscribe((changes) => heard.push(...changes.filter((c) => c.kind === 'pods').map((c) => `${c.type} ${c.object.metadata.uid}`)));
    // One request after another at the same virtual time, the feed looking only once, afterwards.
    cluster.engine.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'a', gracePeriodSeconds: 0, force: true });
    cluster.engine.apply({ type: 'create', namespace: 'default', obj: pod });
    cluster.feed.sync();
    const after = cluster.feed.objects('pods')[0];
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(heard).toEqual([`DELETED ${before.metadata.uid}`, `ADDED ${after.metadata.uid}`]);
  });
});
