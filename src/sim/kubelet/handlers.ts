// Running lifecycle hooks and probes against the modelled container: exec commands run through the process model
// in the container's filesystem, httpGet and tcpSocket succeed when the container's PID 1 is a server listening on
// that port. A pod can script results instead, with annotations (documented in src/sim/README.md):
//   sim.podlife.dev/hook.<container>.<postStart|preStop>: "fail" | "pass" | "fail 3s" | "pass 10s"
//   sim.podlife.dev/probe.<container>.<liveness|readiness|startup>: "pass*3,fail" (one entry per probe run; the last repeats)
// upstream: pkg/kubelet/lifecycle/handlers.go (*handlerRunner).Run; pkg/kubelet/prober/prober.go (*prober).runProbe

import type { Container, LifecycleHandler, Pod, PodStatus } from '../types.ts';
import type { Proc } from '../core/loop.ts';
import { sleepFor } from '../core/loop.ts';
import { parseDuration } from '../core/duration.ts';
import { Process, normaliseSignal, type Signal } from '../runtime/process.ts';
import { execProgramFor } from '../runtime/exec-program.ts';
import type { NodeEnv } from './env.ts';
import { ANNOTATION_PREFIX, formatPod, kobj, kstr, podObject, q, recordContainerEvent, recordPodEvent } from './env.ts';
import type { ProbeResult } from './podactions.ts';

export interface HandlerResult {
  ok: boolean;
  /** What the probe or hook printed, or the error text. */
  output: string;
}

export { ANNOTATION_PREFIX };

function annotation(pod: Pod, key: string): string | undefined {
  return pod.metadata.annotations?.[`${ANNOTATION_PREFIX}${key}`];
}

/** Parse "pass*3,fail" into a per-run outcome list. Throws on bad syntax (validated at apply time). */
export function parseProbeSchedule(text: string): boolean[] {
  const out: boolean[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(pass|fail)(?:\*(\d+))?$/.exec(part);
    if (!m) throw new Error(`bad probe schedule entry "${part}": write pass, fail, pass*N or fail*N`);
    for (let i = 0; i < Number(m[2] ?? 1); i++) out.push(m[1] === 'pass');
  }
  if (!out.length) throw new Error('empty probe schedule');
  return out;
}

/** Parse "fail 3s" / "pass" hook scripts. */
export function parseHookScript(text: string): { ok: boolean; ms: number } {
  const m = /^(pass|fail)(?:\s+(\S+))?$/.exec(text.trim());
  if (!m) throw new Error(`bad hook script "${text}": write pass or fail, optionally followed by a duration ("fail 3s")`);
  return { ok: m[1] === 'pass', ms: m[2] ? parseDuration(m[2]) : 0 };
}

/** Check the simulation annotations of a pod; returns problems as messages. */
export function validateSimAnnotations(pod: { metadata?: { annotations?: Record<string, string> } }): string[] {
  const errs: string[] = [];
  for (const [k, v] of Object.entries(pod.metadata?.annotations ?? {})) {
    if (!k.startsWith(ANNOTATION_PREFIX)) continue;
    const rest = k.slice(ANNOTATION_PREFIX.length);
    try {
      if (/^probe\.[^.]+\.(liveness|readiness|startup)$/.test(rest)) parseProbeSchedule(v);
      else if (/^hook\.[^.]+\.(postStart|preStop)$/.test(rest)) parseHookScript(v);
      else if (/^process\.[^.]+$/.test(rest)) JSON.parse(v);
      else errs.push(`unknown simulation annotation "${k}" (known: probe.<container>.<liveness|readiness|startup>, hook.<container>.<postStart|preStop>, process.<container>)`);
    } catch (e) {
      errs.push(`annotation "${k}": ${(e as Error).message}`);
    }
  }
  return errs;
}

function resolvePort(c: Container, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

/**
 * The signal a command sends to PID 1 from inside the container (`kill [-SIG] 1`, `nginx -s quit|stop`): 'none' for one
 * the kernel drops, undefined for another command. kubectl exec and exec hooks and probes read commands alike.
 */
export function signalOfCommand(argv: string[]): Signal | 'none' | undefined {
  const bin = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
  if (bin === 'nginx' && argv[1] === '-s') return ({ quit: 'SIGQUIT', stop: 'SIGTERM' } as Record<string, Signal>)[argv[2] ?? ''];
  // kill 1, kill -SIG 1, kill -s SIG 1
  if (bin !== 'kill' || argv[argv.length - 1] !== '1' || argv.length > 4 || (argv.length === 4 && argv[1] !== '-s')) return undefined;
  const flag = argv.length > 2 ? argv[argv.length - 2].replace(/^-(s\s*)?/, '') : 'TERM';
  // the init process of a PID namespace cannot be sent SIGKILL from inside it: the kernel drops it
  return /^(SIG)?KILL$|^9$/i.test(flag) ? 'none' : normaliseSignal(flag);
}

/** Run an exec command in the container, with the process model, within timeoutMs. */
function* execInContainer(env: NodeEnv, containerId: string, argv: string[], timeoutMs: number): Proc<{ code: number; output: string; timedOut: boolean }> {
  const rt = env.runtime;
  const bin = argv[0]?.slice(argv[0].lastIndexOf('/') + 1);
  yield sleepFor(env.ctx.timings.probe);
  // signals to PID 1 through the server's own CLI (when PID 1 is that server) or kill(1), read as kubectl exec reads them
  const sig = bin === 'nginx' && rt.process(containerId)?.service?.name !== 'nginx' ? undefined : signalOfCommand(argv);
  if (sig !== undefined) {
    if (sig !== 'none') rt.signal(containerId, sig);
    return { code: 0, output: '', timedOut: false };
  }
  const files = rt.files(containerId) ?? new Set<string>();
  const cri = rt.containers.get(containerId);
  const lines: string[] = [];
  let code: number | undefined;
  const program = execProgramFor(argv, rt.programs);
  if (!program) {
    return { code: 126, output: `OCI runtime exec failed: exec failed: unable to start container process: exec: "${argv[0]}": executable file not found in $PATH: unknown`, timedOut: false };
  }
  let wake: (() => void) | undefined;
  const proc = new Process(
    {
      loop: env.ctx.loop,
      log: (_s, text) => lines.push(text),
      fs: files,
      hostname: cri?.podName,
      // the environment only when a script expands a variable
      get env() {
        return cri && rt.podEnv?.(cri.podUid, cri.name, cri.id);
      },
      wallclock: (t) => new Date(env.ctx.epoch + t),
      exited: (c) => {
        code = c;
        wake?.();
      },
    },
    program,
    rt.programs,
  );
  proc.start();
  if (code === undefined) {
    yield { wait: (w) => (wake = w), timeout: timeoutMs > 0 ? timeoutMs : Infinity };
  }
  if (code === undefined) {
    proc.signal('SIGKILL');
    return { code: -1, output: combined(lines), timedOut: true };
  }
  return { code, output: combined(lines), timedOut: false };
}

/** CombinedOutput of an exec: every line the command wrote, each ending in its line break. */
const combined = (lines: string[]): string => (lines.length ? `${lines.join('\n')}\n` : '');

function* network(env: NodeEnv, pod: Pod, c: Container, containerId: string, port: number | string, path: string | undefined, scheme: string): Proc<HandlerResult> {
  yield sleepFor(env.ctx.timings.probe);
  const ip = pod.status.podIP ?? '';
  const p = resolvePort(c, port);
  const svc = env.runtime.process(containerId)?.service;
  const running = env.runtime.containers.get(containerId)?.state === 'CONTAINER_RUNNING';
  const host = `${ip}:${p ?? port}`;
  if (!running || !svc || p === undefined || !svc.ports.includes(p)) {
    return { ok: false, output: path === undefined ? `dial tcp ${host}: connect: connection refused` : `Get "${scheme.toLowerCase()}://${host}${path}": dial tcp ${host}: connect: connection refused` };
  }
  if (path !== undefined && svc.httpPaths !== undefined && !svc.httpPaths.includes(path.split('?')[0])) {
    return { ok: false, output: `HTTP probe failed with statuscode: 404` };
  }
  return { ok: true, output: '' };
}

/** Run a lifecycle hook; ms of virtual time pass while it runs. */
// upstream: pkg/kubelet/lifecycle/handlers.go (*handlerRunner).Run
export function* runHook(env: NodeEnv, pod: Pod, c: Container, containerId: string, kind: 'postStart' | 'preStop', h: LifecycleHandler): Proc<{ msg: string; ok: boolean }> {
  const scripted = annotation(pod, `hook.${c.name}.${kind}`);
  if (scripted !== undefined) {
    const s = parseHookScript(scripted);
    yield sleepFor(s.ms);
    if (s.ok) return { msg: '', ok: true };
    const desc = h.exec ? `Exec lifecycle hook (${goStrings(h.exec.command)})` : `HTTP lifecycle hook (${h.httpGet?.path ?? ''})`;
    return { msg: `${desc} for Container "${c.name}" in Pod "${formatPod(pod)}" failed - error: command exited with 1, message: ""`, ok: false };
  }
  if (h.exec) {
    const r = yield* execInContainer(env, containerId, h.exec.command, 0);
    if (r.code === 0) return { msg: '', ok: true };
    return {
      msg: `Exec lifecycle hook (${goStrings(h.exec.command)}) for Container "${c.name}" in Pod "${formatPod(pod)}" failed - error: command '${h.exec.command.join(' ')}' exited with ${r.code}: ${r.output}, message: ${JSON.stringify(r.output)}`,
      ok: false,
    };
  }
  if (h.httpGet) {
    const r = yield* network(env, pod, c, containerId, h.httpGet.port, h.httpGet.path ?? '/', h.httpGet.scheme ?? 'HTTP');
    if (r.ok) return { msg: '', ok: true };
    return { msg: `HTTP lifecycle hook (${h.httpGet.path ?? '/'}) for Container "${c.name}" in Pod "${formatPod(pod)}" failed - error: ${r.output}`, ok: false };
  }
  if (h.sleep) {
    yield sleepFor(h.sleep.seconds * 1000);
    return { msg: '', ok: true };
  }
  if (h.tcpSocket) return { msg: `TCPSocket lifecycle hook for Container "${c.name}" in Pod "${formatPod(pod)}" failed - error: tcpSocket is not supported as a lifecycle hook`, ok: false };
  return { msg: '', ok: true };
}

/** Run one probe. `run` is the probe's run number for the container instance (scripted schedules index by it). */
// upstream: pkg/kubelet/prober/prober.go (*prober).runProbe
export function* runProbe(env: NodeEnv, pod: Pod, c: Container, containerId: string, type: 'liveness' | 'readiness' | 'startup', run: number): Proc<HandlerResult> {
  const probe = type === 'liveness' ? c.livenessProbe : type === 'readiness' ? c.readinessProbe : c.startupProbe;
  if (!probe) return { ok: true, output: '' };
  const scripted = annotation(pod, `probe.${c.name}.${type}`);
  if (scripted !== undefined) {
    const sched = parseProbeSchedule(scripted);
    yield sleepFor(env.ctx.timings.probe);
    const ok = sched[Math.min(run, sched.length - 1)];
    return { ok, output: ok ? '' : scriptedFailure(probe, pod) };
  }
  const timeout = probe.timeoutSeconds * 1000;
  if (probe.exec) {
    const r = yield* execInContainer(env, containerId, probe.exec.command, timeout);
    if (r.timedOut) return { ok: false, output: `command timed out: "${probe.exec.command.join(' ')}" timed out after ${probe.timeoutSeconds}s` };
    return { ok: r.code === 0, output: r.output };
  }
  if (probe.httpGet) return yield* network(env, pod, c, containerId, probe.httpGet.port, probe.httpGet.path ?? '/', probe.httpGet.scheme ?? 'HTTP');
  if (probe.tcpSocket) return yield* network(env, pod, c, containerId, probe.tcpSocket.port, undefined, 'TCP');
  return { ok: true, output: '' };
}

function scriptedFailure(probe: NonNullable<Container['livenessProbe']>, pod: Pod): string {
  const ip = pod.status.podIP ?? '';
  if (probe.httpGet) return `HTTP probe failed with statuscode: 500`;
  if (probe.tcpSocket) return `dial tcp ${ip}:${probe.tcpSocket.port}: connect: connection refused`;
  return '';
}

/** Go's %v of a []string: [a b c]. */
function goStrings(list: string[]): string {
  return `[${list.join(' ')}]`;
}

// ---------------------------------------------------------------------------------------------------------
// The active deadline handler, a pod sync handler too: it is loaded with the hooks and probes, and a page's replay
// brings them for a pod that names activeDeadlineSeconds.
// upstream: pkg/kubelet/active_deadline.go reason, message
const DEADLINE = { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' };

/**
 * ShouldEvict: the eviction of a pod active on the node longer than spec.activeDeadlineSeconds, if it is, with its
 * DeadlineExceeded event: generateAPIPodStatus asks at every status it generates (SyncPod, SyncTerminatingPod twice,
 * SyncTerminatedPod), and each answer records one, which the recorder counts.
 */
// upstream: pkg/kubelet/active_deadline.go (*activeDeadlineHandler).ShouldEvict, pastActiveDeadline
export function activeDeadlineEviction(env: NodeEnv, pod: Pod, status: PodStatus): typeof DEADLINE | undefined {
  const deadline = pod.spec.activeDeadlineSeconds;
  if (deadline === undefined || !status.startTime) return undefined;
  if (env.ctx.now - (Date.parse(status.startTime) - env.ctx.epoch) < deadline * 1000) return undefined;
  recordPodEvent(env, pod, 'Normal', DEADLINE.reason, DEADLINE.message);
  return DEADLINE;
}

/**
 * ShouldSync: when the active deadline passes (at `tick(t)`, the sync loop's next tick), sync the pod, unless its
 * worker stopped syncing or the deadline changed. One wake-up per deadline (`w.deadlineArmed`).
 */
// upstream: pkg/kubelet/active_deadline.go (*activeDeadlineHandler).ShouldSync
export function watchActiveDeadline(
  env: NodeEnv, w: { pod: Pod; state: string; deadlineArmed?: number }, status: PodStatus, tick: (t: number) => number, sync: () => void,
): void {
  const deadline = w.pod.spec.activeDeadlineSeconds;
  if (deadline === undefined || !status.startTime || w.deadlineArmed === deadline) return;
  w.deadlineArmed = deadline;
  const ctx = env.ctx;
  ctx.loop.at(Math.max(tick(Date.parse(status.startTime) - ctx.epoch + deadline * 1000), ctx.now), () => {
    if (w.state !== 'syncing' || w.pod.spec.activeDeadlineSeconds !== deadline) return;
    sync();
  });
}

/** A probe worker: one container's probe of one type (prober_manager.go's worker). */
export interface ProbeWorker {
  pod: Pod;
  container: Container;
  type: 'liveness' | 'readiness' | 'startup';
  containerID: string;
  lastResult?: ProbeResult;
  resultRun: number;
  onHold: boolean;
  runs: number;
  stopped: boolean;
}

/** What a probe worker reads of its kubelet, and where its results go (the kubelet's results managers). */
export interface Prober {
  /** The status manager's cached status of the pod. */
  status(uid: string): PodStatus | undefined;
  /** The kubelet's current object of the pod (else the worker's own). */
  pod(uid: string, pod: Pod): Pod;
  /** The pod's status as the API has it (what an exec probe's environment sees). */
  apiStatus(pod: Pod): PodStatus;
  cache(type: ProbeWorker['type']): Map<string, ProbeResult>;
  set(w: ProbeWorker, result: ProbeResult): void;
  /** The worker stopped: the manager forgets it. */
  done(w: ProbeWorker): void;
}

// upstream: pkg/kubelet/prober/worker.go (*worker).run: the first probe at once, then every periodSeconds
export function* probeLoop(env: NodeEnv, p: Prober, w: ProbeWorker, period: number): Proc {
  for (;;) {
    const tickStart = env.ctx.now;
    if (w.stopped) return;
    const keepGoing = yield* doProbe(env, p, w);
    if (!keepGoing || w.stopped) {
      p.done(w);
      return;
    }
    // a time.Ticker: the next tick after the probe finished (ticks that passed while it ran are dropped)
    let next = tickStart + period;
    while (next <= env.ctx.now) next += period;
    yield { sleep: next - env.ctx.now };
  }
}

// upstream: pkg/kubelet/prober/worker.go (*worker).doProbe
function* doProbe(env: NodeEnv, p: Prober, w: ProbeWorker): Proc<boolean> {
  const uid = w.pod.metadata.uid;
  const status = p.status(uid);
  const pod = p.pod(uid, w.pod);
  const probe = (w.type === 'liveness' ? w.container.livenessProbe : w.type === 'readiness' ? w.container.readinessProbe : w.container.startupProbe)!;
  if (!status) return true;
  if (status.phase === 'Failed' || status.phase === 'Succeeded') return false;
  const cs = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])].find((s) => s.name === w.container.name);
  if (!cs || !cs.containerID) return true;
  const cache = p.cache(w.type);
  const id = cs.containerID.replace('containerd://', '');
  if (w.containerID !== id) {
    if (w.containerID) cache.delete(w.containerID);
    w.containerID = id;
    cache.set(id, w.type === 'readiness' ? 'Failure' : w.type === 'liveness' ? 'Success' : 'Unknown');
    w.onHold = false;
    w.runs = 0;
    w.lastResult = undefined;
    w.resultRun = 0;
  }
  if (w.onHold) return true;
  if (!cs.state.running) {
    p.set(w, 'Failure');
    return !cs.state.terminated || pod.spec.restartPolicy !== 'Never';
  }
  if (pod.metadata.deletionTimestamp && (w.type === 'liveness' || w.type === 'startup')) {
    p.set(w, 'Success');
    return false;
  }
  const startedAt = Date.parse(cs.state.running.startedAt) - env.ctx.epoch;
  if (Math.floor((env.ctx.now - startedAt) / 1000) < (probe.initialDelaySeconds ?? 0)) return true;
  if (cs.started) {
    if (w.type === 'startup') return true;
  } else if (w.type !== 'startup') return true;

  const run = w.runs++;
  const r = yield* runProbe(env, { ...pod, status: p.apiStatus(pod) }, w.container, id, w.type, run);
  if (w.stopped) return false;
  const result: ProbeResult = r.ok ? 'Success' : 'Failure';
  const label = w.type[0].toUpperCase() + w.type.slice(1);
  if (!r.ok) {
    env.klog('I', 'prober.go:107', 'Probe failed', [
      ['probeType', q(label)], ['pod', kobj(pod)], ['podUID', q(uid)], ['containerName', q(w.container.name)], ['probeResult', q('failure')], ['output', kstr(r.output)],
    ], 1);
    recordContainerEvent(env, pod, w.container, 'Warning', 'Unhealthy', `${label} probe failed: ${r.output}`);
    env.ctx.emit('kubelet', 'ProbeFailed', podObject(pod), `${label} probe of ${w.container.name} failed: ${r.output.trimEnd()}`);
  }
  if (w.lastResult === result) w.resultRun++;
  else {
    w.lastResult = result;
    w.resultRun = 1;
  }
  if ((result === 'Failure' && w.resultRun < probe.failureThreshold) || (result === 'Success' && w.resultRun < probe.successThreshold)) return true;
  p.set(w, result);
  if ((w.type === 'liveness' || w.type === 'startup') && result === 'Failure') {
    w.onHold = true;
    w.resultRun = 0;
  }
  return true;
}
