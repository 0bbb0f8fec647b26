// Moving through a trace. A moment is a virtual time plus the event the reader is on: several events
// can share one time (a sync loop emits a handful at once), and stepping visits them one by one while
// the panels, which show the cluster at that time, stay put.
import type { TraceEvent } from '../../src/sim/types.ts';

export interface Moment {
  t: number;
  /** Index in the trace of the current event; -1 before the first one. */
  index: number;
}

/** The moment at time t: the last event at or before t. */
export function momentAt(trace: readonly TraceEvent[], t: number): Moment {
  let lo = 0;
  let hi = trace.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trace[mid].t <= t) lo = mid + 1;
    else hi = mid;
  }
  return { t, index: lo - 1 };
}

export type EventFilter = (e: TraceEvent) => boolean;

const all: EventFilter = () => true;

/** The next event (that passes `keep`) after the current one, or undefined at the end. */
export function stepForward(trace: readonly TraceEvent[], m: Moment, keep: EventFilter = all): Moment | undefined {
  for (let i = m.index + 1; i < trace.length; i++) {
    if (keep(trace[i])) return { t: Math.max(trace[i].t, m.t), index: i };
  }
  return undefined;
}

/**
 * Back one event: from between events, back to the time of the current one; from an event, to the one
 * before it (that passes `keep`). Undefined when there is nothing earlier.
 */
export function stepBack(trace: readonly TraceEvent[], m: Moment, keep: EventFilter = all): Moment | undefined {
  if (m.index >= 0 && m.t > trace[m.index].t && keep(trace[m.index])) return { t: trace[m.index].t, index: m.index };
  for (let i = m.index - 1; i >= 0; i--) {
    if (keep(trace[i])) return { t: trace[i].t, index: i };
  }
  return undefined;
}

/** The distinct times at which something happens (the scrubber's ticks), ascending. */
export function eventTimes(trace: readonly TraceEvent[]): number[] {
  const out: number[] = [];
  for (const e of trace) if (out[out.length - 1] !== e.t) out.push(e.t);
  return out;
}

/** The first event of a step, or undefined when this trace never runs it. */
export function firstOfKey(trace: readonly TraceEvent[], key: string): Moment | undefined {
  const index = trace.findIndex((e) => e.key === key);
  return index < 0 ? undefined : { t: trace[index].t, index };
}

/** The time of the latest event strictly before the current event's time (for "what changed"). */
export function previousTime(trace: readonly TraceEvent[], m: Moment): number | undefined {
  if (m.index < 0) return undefined;
  const now = trace[m.index].t;
  for (let i = m.index - 1; i >= 0; i--) if (trace[i].t < now) return trace[i].t;
  return undefined;
}
