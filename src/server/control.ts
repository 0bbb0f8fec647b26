// podlife's own endpoints, beside the Kubernetes API: read and move the virtual clock.
//   GET  /podlife/time                  → where virtual time is, how fast it runs, the next timeline step, how
//                                         many watches are open (a script can wait for its `kubectl get -w` to start)
//   POST /podlife/advance?to=8m23s      → jump forward to a virtual time (replaying the timeline on the way)
//   POST /podlife/advance?by=10s        → jump forward by a duration
//   POST /podlife/pause, /podlife/resume
//   POST /podlife/speed?to=60           → virtual seconds per real second from now on
// Errors are Status objects too, so `kubectl create --raw` / curl users see the same shape.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { goDuration, parseGoDuration } from '../sim/render/duration.ts';
import { rfc3339 } from '../sim/render/clock.ts';
import type { LiveCluster } from './cluster.ts';
import type { VirtualClock } from './clock.ts';
import { sendJson } from './media.ts';
import { badRequest, methodNotAllowed, pathNotFound } from './status.ts';

export interface TimeReport {
  /** Virtual time as a Go duration ("8m23s") and in ms. */
  now: string;
  nowMs: number;
  /** The cluster's wall clock at that moment (RFC 3339, UTC). */
  wallTime: string;
  speed: number;
  paused: boolean;
  /** The next timeline step still to be replayed. */
  next?: { at: string; atMs: number; what: string };
  /** Open watch connections (`kubectl get -w`, `kubectl events -w`, `kubectl delete`'s wait). */
  watches: number;
}

export function timeReport(cluster: LiveCluster, clock: VirtualClock, watches: number): TimeReport {
  const step = cluster.nextStep;
  return {
    now: goDuration(cluster.now),
    nowMs: cluster.now,
    wallTime: rfc3339(cluster.epoch + cluster.now),
    speed: clock.speed,
    paused: clock.paused,
    ...(step ? { next: { at: goDuration(step.at), atMs: step.at, what: step.run ?? 'apply: a manifest' } } : {}),
    watches,
  };
}

function duration(name: string, text: string): number {
  const d = parseGoDuration(text);
  if (!d.ok) throw badRequest(`${name}=${text}: ${d.error} (write a Go duration such as 10s, 1m30s or 8m23s)`);
  if (d.ms < 0) throw badRequest(`${name}=${text}: the duration must not be negative`);
  return d.ms;
}

/** Handle /podlife/...; `advance` moves the cluster and the clock together. */
export function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  cluster: LiveCluster,
  clock: VirtualClock,
  report: () => TimeReport,
): void {
  const method = req.method ?? 'GET';
  const action = path.slice('/podlife/'.length);
  if (action === 'time') {
    if (method !== 'GET') throw methodNotAllowed();
  } else if (action === 'advance') {
    if (method !== 'POST') throw methodNotAllowed();
    const to = query.get('to');
    const by = query.get('by');
    if ((to === null) === (by === null)) throw badRequest('advance needs exactly one of ?to=<virtual time> or ?by=<duration>');
    const target = to !== null ? duration('to', to) : cluster.now + duration('by', by!);
    if (target < cluster.now) {
      throw badRequest(`to=${to}: virtual time is already ${goDuration(cluster.now)} and cannot go back (restart the server to begin again)`);
    }
    cluster.advanceTo(target);
    clock.jumpTo(target);
  } else if (action === 'speed') {
    if (method !== 'POST') throw methodNotAllowed();
    const to = query.get('to') ?? '';
    if (!/^\d+(\.\d+)?$/.test(to) || !(Number(to) > 0)) throw badRequest(`speed?to=${to}: expected a positive number of virtual seconds per real second, such as 1, 10 or 60`);
    clock.setSpeed(Number(to));
  } else if (action === 'pause' || action === 'resume') {
    if (method !== 'POST') throw methodNotAllowed();
    if (action === 'pause') clock.pause();
    else clock.resume();
  } else {
    throw pathNotFound();
  }
  sendJson(res, 200, report());
}
