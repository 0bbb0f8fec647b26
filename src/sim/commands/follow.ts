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
  let note = '';
  let t = start;
  while (open.size > 0 && t < limit) {
    const until = Math.min(limit, t + FOLLOW_STEP_MS);
    const reached = future.reach(until);
    for (const at of future.times(t, Math.min(reached, until))) {
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
    if (open.size === 0) break;
    if (reached < until) {
      note = `podlife: the run shown ends at ${formatGoDuration(reached)}: the log stream stops there (${tool} would go on following)\n`;
      break;
    }
    t = until;
    if (t - lastLine >= FOLLOW_QUIET_MS) {
      note = `podlife: no new log line from ${formatGoDuration(lastLine)} to ${formatGoDuration(t)}: the stream stops there (${tool} would follow until the container stops or you interrupt it)\n`;
      break;
    }
  }
  if (!note && open.size > 0) note = `podlife: the log stream stops after an hour, at ${formatGoDuration(limit)} (${tool} would follow until the container stops or you interrupt it)\n`;
  // the new lines of every stream, in the order they were written (a stream's own order for lines of one moment)
  const fresh = streams.flatMap((s, i) => {
    const stamps = s.timestamps ? logStamps(lines[i], s.raw, ctx.state.epoch) : [];
    return lines[i].slice(s.seen).map((l, j) => ({ t: l.t, i, stream: l.stream, text: `${s.prefix}${s.timestamps ? `${stamps[s.seen + j]} ` : ''}${l.text}\n` }));
  });
  fresh.sort((a, b) => a.t - b.t || a.i - b.i);
  return { lines: fresh.map(({ stream, text }) => ({ stream, text })), note };
}
