// Pure logic of the player: the status diff, moving through a trace, the console history.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffLine, diffLines, toLines } from '../../../components/player/diff.ts';
import { CommandHistory } from '../../../components/player/history.ts';
import { eventTimes, firstOfKey, momentAt, previousTime, stepBack, stepForward } from '../../../components/player/timeline.ts';
import type { TraceEvent } from '../../../src/sim/types.ts';

const kinds = (d: DiffLine[]) => d.map((l) => `${l.kind === 'same' ? ' ' : l.kind === 'added' ? '+' : '-'}${l.text}`);

describe('status diff', () => {
  it('marks a changed value as the old line removed and the new one added, in place', () => {
    const before = toLines('status:\n  phase: Pending\n  qosClass: BestEffort\n');
    const after = toLines('status:\n  phase: Running\n  qosClass: BestEffort\n');
    expect(kinds(diffLines(before, after))).toEqual([' status:', '-  phase: Pending', '+  phase: Running', '   qosClass: BestEffort']);
  });
  it('finds inserted blocks in the middle (a new lastState), removals of a hunk first as git shows them', () => {
    const before = ['containerStatuses:', '- name: c', '  restartCount: 0', '  state:', '    waiting: {}'];
    const after = ['containerStatuses:', '- name: c', '  lastState:', '    terminated:', '      exitCode: 1', '  restartCount: 1', '  state:', '    waiting: {}'];
    expect(kinds(diffLines(before, after))).toEqual([
      ' containerStatuses:', ' - name: c', '-  restartCount: 0', '+  lastState:', '+    terminated:', '+      exitCode: 1', '+  restartCount: 1', '   state:', '     waiting: {}',
    ]);
  });
  it('handles empty sides', () => {
    expect(kinds(diffLines([], ['a', 'b']))).toEqual(['+a', '+b']);
    expect(kinds(diffLines(['a'], []))).toEqual(['-a']);
    expect(diffLines([], [])).toEqual([]);
  });
  it('toLines drops only the newline that ends the document', () => {
    expect(toLines('a\nb\n')).toEqual(['a', 'b']);
    expect(toLines('a\n\n')).toEqual(['a', '']);
    expect(toLines('')).toEqual([]);
  });
  it('always reproduces both texts and keeps a longest common subsequence (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'phase: Running', '  x: 1');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        const d = diffLines(a, b);
        expect(d.filter((l) => l.kind !== 'added').map((l) => l.text)).toEqual(a);
        expect(d.filter((l) => l.kind !== 'removed').map((l) => l.text)).toEqual(b);
        expect(d.filter((l) => l.kind === 'same').length).toBe(lcsLength(a, b));
      }),
    );
  });
});

/** Reference LCS length by plain recursion with memo (independent of the implementation). */
function lcsLength(a: string[], b: string[]): number {
  const memo = new Map<string, number>();
  const go = (i: number, j: number): number => {
    if (i === a.length || j === b.length) return 0;
    const k = `${i},${j}`;
    let v = memo.get(k);
    if (v === undefined) {
      v = a[i] === b[j] ? 1 + go(i + 1, j + 1) : Math.max(go(i + 1, j), go(i, j + 1));
      memo.set(k, v);
    }
    return v;
  };
  return go(0, 0);
}

const ev = (seq: number, t: number, key?: string): TraceEvent => ({ seq, t, actor: 'kubelet', kind: 'K', key, object: 'pod/default/p', detail: `e${seq}` });
// times: 0 0 1000 1000 1000 5000 9000
const trace = [ev(0, 0), ev(1, 0, 'scheduleOne#3'), ev(2, 1000, 'SyncPod#4'), ev(3, 1000), ev(4, 1000, 'SyncPod#8'), ev(5, 5000, 'SyncPod#4'), ev(6, 9000)];

describe('moving through a trace', () => {
  it('momentAt lands on the last event at or before t', () => {
    expect(momentAt(trace, -1).index).toBe(-1);
    expect(momentAt(trace, 0).index).toBe(1);
    expect(momentAt(trace, 999).index).toBe(1);
    expect(momentAt(trace, 1000).index).toBe(4);
    expect(momentAt(trace, 100_000).index).toBe(6);
    expect(momentAt([], 5).index).toBe(-1);
  });
  it('steps forward event by event, also through events that share a time', () => {
    const seen: [number, number][] = [];
    for (let m = stepForward(trace, { t: 0, index: -1 }); m; m = stepForward(trace, m)) seen.push([m.t, m.index]);
    expect(seen).toEqual([[0, 0], [0, 1], [1000, 2], [1000, 3], [1000, 4], [5000, 5], [9000, 6]]);
  });
  it('steps back to the current event from between events, then event by event', () => {
    let m = stepBack(trace, { t: 7000, index: 5 });
    expect(m).toEqual({ t: 5000, index: 5 });
    m = stepBack(trace, m!);
    expect(m).toEqual({ t: 1000, index: 4 });
    expect(stepBack(trace, { t: 0, index: 0 })).toBeUndefined();
    expect(stepBack(trace, { t: 0, index: -1 })).toBeUndefined();
  });
  it('steps only through the events a filter keeps', () => {
    const keep = (e: TraceEvent) => e.key === 'SyncPod#4';
    expect(stepForward(trace, { t: 0, index: 0 }, keep)).toEqual({ t: 1000, index: 2 });
    expect(stepForward(trace, { t: 1000, index: 2 }, keep)).toEqual({ t: 5000, index: 5 });
    expect(stepForward(trace, { t: 5000, index: 5 }, keep)).toBeUndefined();
    expect(stepBack(trace, { t: 9000, index: 6 }, keep)).toEqual({ t: 5000, index: 5 });
  });
  it('lists distinct event times, finds a step, and the time before the current event', () => {
    expect(eventTimes(trace)).toEqual([0, 1000, 5000, 9000]);
    expect(firstOfKey(trace, 'SyncPod#4')).toEqual({ t: 1000, index: 2 });
    expect(firstOfKey(trace, 'killContainer#4')).toBeUndefined();
    expect(previousTime(trace, { t: 1000, index: 4 })).toBe(0);
    expect(previousTime(trace, { t: 0, index: 1 })).toBeUndefined();
    expect(previousTime(trace, { t: 6000, index: 5 })).toBe(1000);
  });
});

describe('console history', () => {
  it('walks back and forth and gives back the draft', () => {
    const h = new CommandHistory();
    h.push('crictl ps');
    h.push('kubectl get pods');
    h.push('kubectl get pods');
    h.push('   ');
    expect(h.items).toEqual(['crictl ps', 'kubectl get pods']);
    expect(h.up('kubectl des')).toBe('kubectl get pods');
    expect(h.up('kubectl get pods')).toBe('crictl ps');
    expect(h.up('crictl ps')).toBeUndefined();
    expect(h.down()).toBe('kubectl get pods');
    expect(h.down()).toBe('kubectl des');
    expect(h.down()).toBeUndefined();
  });
  it('keeps at most the limit', () => {
    const h = new CommandHistory(2);
    for (const c of ['a', 'b', 'c']) h.push(c);
    expect(h.items).toEqual(['b', 'c']);
  });
});
