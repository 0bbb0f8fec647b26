// Following a container's log into the cluster's future (`kubectl logs -f`, `crictl logs -f`): each stream prints its
// container's new lines until the container stops running, as the kubelet's log reader ends a follow.
// upstream: kubelet pkg/kubelet/kuberuntime/logs/logs.go ReadLogs, waitLogs (shared by the kubelet's log endpoint and
//           crictl logs); kubectl logs.go parallelConsumeRequest

import type { ClusterState, ContainerLogLine, ContainerStatus, CriContainer, Pod } from '../types.ts';
import { formatGoDuration } from '../render/duration.ts';
import { logStamps } from '../render/localtime.ts';
import type { ClusterFuture, ExecContext } from './context.ts';

/** A log stream followed: the running container's ID, the lines already printed, how its lines are printed. */
export interface Followed {
  raw: string;
  prefix: string;
  seen: number;
  timestamps: boolean;
}

/**
 * What ends a command that runs on in time (`get -w`, `logs -f`, `journalctl -f`) where the real one would wait to be
 * interrupted: this long without anything new, or this long in all; the future is read this far at a time.
 */
export const FOLLOW_QUIET_MS = 10 * 60_000;
export const FOLLOW_HORIZON_MS = 60 * 60_000;
export const FOLLOW_STEP_MS = 60_000;

/**
 * Why a command that runs on in time stopped reading the future, and at what virtual time. done: the command had all
 * it follows (`step` said so); run: the run shown ends; quiet: nothing new for FOLLOW_QUIET_MS since `last`; limit:
 * its own timeout or FOLLOW_HORIZON_MS.
 */
export type FollowEnd = { why: 'done' | 'run' | 'limit'; at: number } | { why: 'quiet'; at: number; last: number };

/**
 * Read the cluster's future from `start` towards `limit`, FOLLOW_STEP_MS at a time: `step(from, to)` takes the
 * changes of each stretch the run reaches (false: the command has all it follows), `last(t)` says when something new
 * last came. Without `quiet`, only the run's end or the limit stops it.
 */
export function followFuture(
  future: ClusterFuture, start: number, limit: number, step: (from: number, to: number) => boolean, last: (t: number) => number, quiet = true,
): FollowEnd {
  for (let t = start; t < limit; ) {
    const until = Math.min(limit, t + FOLLOW_STEP_MS);
    const reached = future.reach(until);
    if (!step(t, Math.min(reached, until))) return { why: 'done', at: Math.min(reached, until) };
    if (reached < until) return { why: 'run', at: reached };
    t = until;
    if (!quiet) continue;
    const since = last(t);
    if (t - since >= FOLLOW_QUIET_MS) return { why: 'quiet', at: t, last: since };
  }
  return { why: 'limit', at: limit };
}

/** The note of such a command where there is no future to read (a console that has none). */
export const noFuture = (what: string, sofar: string): string =>
  `podlife: ${what} needs the cluster's future, which this console does not have; ${sofar}\n`;

/** A container's status in a pod, init and ephemeral containers included. */
export function containerStatusOf(pod: Pod, container: string): ContainerStatus | undefined {
  return [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? []), ...(pod.status.ephemeralContainerStatuses ?? [])].find((s) => s.name === container);
}

/** The ID of the container the kubelet serves the log of, when that container is running now. */
export function runningContainer(state: ClusterState, pod: Pod, container: string): string | undefined {
  const status = containerStatusOf(pod, container);
  const raw = status?.state.running ? status.containerID?.replace(/^\w+:\/\//, '') : undefined;
  return raw && runtimeContainer(state, raw)?.state === 'CONTAINER_RUNNING' ? raw : undefined;
}

function runtimeContainer(state: ClusterState, id: string): CriContainer | undefined {
  for (const r of state.runtimes) for (const c of r.containers) if (c.id === id) return c;
  return undefined;
}

/**
 * `kubectl logs -f` and `crictl logs -f`: each followed stream prints its container's new lines until the container stops running (the
 * kubelet ends a follow then: ReadLogs' waitLogs checks the container's state), the streams' lines interleaved in the
 * order they were written. A container that runs on ends the follow where the run shown ends, or after ten minutes
 * without a new line (an hour at most), with a note.
 */
// upstream: kubelet pkg/kubelet/kuberuntime/logs/logs.go ReadLogs, waitLogs; kubectl logs.go parallelConsumeRequest
export function followLogs(
  ctx: ExecContext, future: ClusterFuture, streams: Followed[], tool: 'kubectl' | 'crictl',
): { lines: { stream: 'stdout' | 'stderr'; text: string }[]; note: string } {
  const start = ctx.state.t;
  const limit = start + FOLLOW_HORIZON_MS;
  // each stream's lines as of the last state that still had its container
  const lines = streams.map(() => [] as ContainerLogLine[]);
  const open = new Set(streams.map((_, i) => i));
  let lastLine = start;
  const end = open.size === 0 ? undefined : followFuture(future, start, limit, (from, to) => {
    for (const at of future.times(from, to)) {
      const state = future.stateAt(at);
      for (const i of [...open]) {
        const c = runtimeContainer(state, streams[i].raw);
        if (c) {
          const mine = state.containerLogs.filter((l) => l.containerId === streams[i].raw);
          if (mine.length > lines[i].length) lastLine = at;
          lines[i] = mine;
        }
        if (c?.state !== 'CONTAINER_RUNNING') open.delete(i);
      }
    }
    return open.size > 0;
  }, () => lastLine);
  const note =
    end?.why === 'run' ? `podlife: the run shown ends at ${formatGoDuration(end.at)}: the log stream stops there (${tool} would go on following)\n`
    : end?.why === 'quiet' ? `podlife: no new log line from ${formatGoDuration(end.last)} to ${formatGoDuration(end.at)}: the stream stops there (${tool} would follow until the container stops or you interrupt it)\n`
    : end?.why === 'limit' ? `podlife: the log stream stops after an hour, at ${formatGoDuration(limit)} (${tool} would follow until the container stops or you interrupt it)\n`
    : '';
  // the new lines of every stream, in the order they were written (a stream's own order for lines of one moment)
  const fresh = streams.flatMap((s, i) => {
    const stamps = s.timestamps ? logStamps(lines[i], s.raw, ctx.state.epoch) : [];
    return lines[i].slice(s.seen).map((l, j) => ({ t: l.t, i, stream: l.stream, text: `${s.prefix}${s.timestamps ? `${stamps[s.seen + j]} ` : ''}${l.text}\n` }));
  });
  fresh.sort((a, b) => a.t - b.t || a.i - b.i);
  return { lines: fresh.map(({ stream, text }) => ({ stream, text })), note };
}
