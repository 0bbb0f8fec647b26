// What a command line runs against: the cluster at the current virtual time, and (for commands
// that change it) the engine's API entry point.

import type { Apply, ClusterState } from '../types.ts';
import { DEFAULT_UTC_OFFSET_MINUTES } from '../render/clock.ts';

export interface ExecContext {
  /** The cluster now (its `t` is the current virtual time). */
  state: ClusterState;
  /**
   * Submit a change to the API server (kubectl run/apply/delete/patch). Absent when the console is
   * read-only (a past moment of a recorded run): mutating commands then fail with a clear message.
   */
  apply?: Apply;
  /** The local time zone of the machine the commands run on; default UTC+8 (the article's). */
  utcOffsetMinutes?: number;
  /** The node whose shell runs `crictl` and `journalctl`; default the first node. */
  host?: string;
  /** Files `kubectl create|apply|delete|get|wait -f <path>` can read, by path (tests give them so). */
  files?: Record<string, string>;
  /** Read a file by path where there is a file system (`podlife simulate --at`: the terminal's); undefined: no such file. */
  readFile?: (path: string) => string | undefined;
  /** kubectl's current namespace; default "default". */
  namespace?: string;
  /**
   * The cluster after now, for a command that waits on it (`kubectl wait`). Absent where nothing can be known
   * ahead; made when first asked for, since it may run the scenario on.
   */
  future?: () => ClusterFuture;
}

/** The cluster after the current moment, as a command that watches it would see it. */
export interface ClusterFuture {
  /** Run the cluster on to `until` as far as it can go (a recorded run ends somewhere); returns how far it got. */
  reach(until: number): number;
  /** The moments in (from, to] at which the cluster changed, in order. */
  times(from: number, to: number): number[];
  /** The cluster at a moment already reached. */
  stateAt(t: number): ClusterState;
}

/** Fallback PID of the kubelet process when the runtime view does not record one (the article's). */
export const DEFAULT_KUBELET_PID = 2972481;

export function offsetOf(ctx: ExecContext): number {
  return ctx.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
}

/** Wall-clock ms of the current moment. */
export function nowOf(ctx: ExecContext): number {
  return ctx.state.epoch + ctx.state.t;
}
