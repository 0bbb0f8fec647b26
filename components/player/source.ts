// What the player shows: one simulation run, as a trace plus the cluster at any moment. Two kinds back
// it: a replay of the run recorded at build time (the engine alone, small enough to load on scroll),
// and the full runner with the scenario parser and the command layer, loaded when the reader uses the
// console or the manifest editor (see tools.ts). Both give the same trace and the same states.
import type { ClusterState, TraceEvent } from '../../src/sim/types.ts';

export interface SimSource {
  readonly trace: readonly TraceEvent[];
  /** The last virtual time the run covers. */
  readonly end: number;
  stateAt(t: number): ClusterState;
}

/** The pods a run knows about ("namespace/name"), in order of first appearance in its trace. */
export function podsOf(trace: readonly TraceEvent[]): string[] {
  const seen = new Set<string>();
  for (const e of trace) {
    const m = /^pod\/([^/]+\/[^/]+)$/.exec(e.object);
    if (m) seen.add(m[1]);
  }
  return [...seen];
}

/** Whether two sources ran the same simulation (same events, in order). */
export function sameRun(a: SimSource, b: SimSource): boolean {
  if (a.trace.length !== b.trace.length || a.end !== b.end) return false;
  for (let i = 0; i < a.trace.length; i++) {
    const x = a.trace[i];
    const y = b.trace[i];
    if (x.t !== y.t || x.kind !== y.kind || x.key !== y.key || x.object !== y.object || x.detail !== y.detail) return false;
  }
  return true;
}
