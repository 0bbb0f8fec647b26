// kubeGenericRuntimeManager: SyncPod and what it calls, step by step, as modelled goroutines on virtual time.
// Each step emits a trace event carrying its step key (src/sim/steps.ts).
// upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go, kuberuntime_container.go, kuberuntime_sandbox.go;
//           pkg/kubelet/images/image_manager.go

import type { SimContext } from '../core/context.ts';
import type { Container, LifecycleHandler, Pod } from '../types.ts';
import { sleepFor, type Proc } from '../core/loop.ts';
import { formatGoDuration } from '../render/duration.ts';
import { parseImageRef, ImageRefError, type ImageRef } from '../api/imageref.ts';
import { containerArgv, imageDefaults, type ImageDefaults } from '../runtime/catalog.ts';
import type * as envModule from './envvars.ts';
import type { ContainerConfig, SandboxConfig } from '../runtime/cri.ts';
import { Backoff } from './backoff.ts';
import { computePodActions, isRestartableInitContainer, type ContainerKillReason, type PodActions, type ProbeResults } from './podactions.ts';
import type * as resizeModule from './resize.ts';
import { findContainerStatusByName, hashContainer, type RuntimePodStatus } from './podstatus.ts';
import type { NodeEnv } from './env.ts';
import { derived, kept } from '../core/kept.ts';
import { ANNOTATION_PREFIX, containerSpec, formatPod, handlersOf, kobj, podObject, q, recordContainerEvent, recordPodEvent } from './env.ts';

/** kubecontainer.SyncResult */
export interface SyncResult {
  action: 'StartContainer' | 'KillContainer' | 'CreatePodSandbox' | 'KillPodSandbox';
  target: string;
  error?: string;
  message?: string;
  /** For back-off errors (kubecontainer.BackoffError): when the back-off ends. */
  backoffUntil?: number;
}

// upstream: kuberuntime_manager.go minimumGracePeriodInSeconds
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** The grace period killContainer starts from. */
// upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go setTerminationGracePeriod
export function setTerminationGracePeriod(pod: Pod, c: Container, reason: ContainerKillReason): number {
  if (pod.metadata.deletionGracePeriodSeconds !== undefined) return pod.metadata.deletionGracePeriodSeconds;
  if (pod.spec.terminationGracePeriodSeconds !== undefined) {
    if (reason === 'StartupProbe' && c.startupProbe?.terminationGracePeriodSeconds !== undefined) return c.startupProbe.terminationGracePeriodSeconds;
    if (reason === 'LivenessProbe' && c.livenessProbe?.terminationGracePeriodSeconds !== undefined) return c.livenessProbe.terminationGracePeriodSeconds;
    return pod.spec.terminationGracePeriodSeconds;
  }
  return MINIMUM_GRACE_PERIOD_SECONDS;
}

/** Go's %v of an error list from PodSyncResult.Error(). */
export function syncResultsError(results: SyncResult[]): string | undefined {
  let errs: string[] | undefined;
  for (const r of results) if (r.error) (errs ??= []).push(`failed to ${q(r.action)} for ${q(r.target)} with ${r.error}: ${q(r.message ?? '')}`);
  if (!errs) return undefined;
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

// a message derived from an image, shared by every pod (see derived)
const PRESENT_MESSAGES = new Map<string, string>();
const presentMessage = (image: string): string => `Container image ${q(image)} already present on machine and can be accessed by the pod`;

type ImageResult = { imageRef?: string; msg: string; err?: string; backoffUntil?: number };

const STARTED: { err?: string; msg: string; backoffUntil?: number } = { msg: '' };

/**
 * perPodState of the pod startup latency tracker: image pull sessions (a start waits for the next finish, oldest
 * first) and the init containers' run time. `done` once the pod was seen Running: nothing more is recorded.
 */
export interface StartupState {
  starts: number[];
  /** Finished pulls, as start, end pairs. */
  sessions: number[];
  /** The init container being timed: its name and when it started (none: ''). */
  init: string;
  initStart: number;
  initTotal: number;
  done: boolean;
}

export class RuntimeManager {
  readonly #env: NodeEnv;
  /** The crash-loop back-off (10 s → 300 s, reset after 600 s). upstream: pkg/kubelet/kubelet.go newCrashLoopBackOff */
  readonly crashLoopBackOff: Backoff;
  /** Image pull back-off (10 s → 300 s). upstream: pkg/kubelet/kubelet.go imageBackOffPeriod, MaxImageBackOff */
  readonly imageBackOff: Backoff;
  readonly #prevPullErrMsg = new Map<string, string>();
  /** The pod startup latency tracker's record of each pod until it is first seen Running (pod_startup_latency_tracker.go perPodState). */
  readonly startup = new Map<string, StartupState>();

  /** The tracker's state of a pod, made on first use; none once its startup was logged. */
  #startup(uid: string): StartupState | undefined {
    let st = this.startup.get(uid);
    if (!st) this.startup.set(uid, (st = { starts: [], sessions: [], init: '', initStart: 0, initTotal: 0, done: false }));
    return st.done ? undefined : st;
  }
  /** When the pod config first saw each pod (config.go recordFirstSeenTime: the kubernetes.io/config.seen annotation). */
  readonly seen = new Map<string, number>();
  readonly probeResults: ProbeResults = { liveness: new Map(), startup: new Map() };
  /** The pods resized in place, by UID: a pod never resized has none, its containers run with its spec's resources. */
  readonly resized = new Map<string, resizeModule.PodResize>();
  /** The resize support (kubelet/resize.ts), when the engine has it. */
  resize: typeof resizeModule | undefined;
  /** The containers' environment and the $(VAR) expansion (kubelet/envvars.ts), when the engine has it. */
  envSupport: Pick<typeof envModule, 'expandCommand' | 'missingConfigSource'> | undefined;
  /** runtimeHelper.OnPodSandboxReady: the kubelet's callback once a new sandbox is up, before any image pull. */
  onPodSandboxReady: (pod: Pod) => void = () => {};
  /** runtimeHelper.RequestPodReinspect: the kubelet's PLEG inspects the pod again at its next relist. */
  requestPodReinspect: (uid: string) => void = () => {};

  constructor(env: NodeEnv) {
    this.#env = env;
    const now = (): number => env.ctx.now;
    this.crashLoopBackOff = new Backoff(10_000, 300_000, now, (eventTime, lastUpdate) => eventTime - lastUpdate > 600_000);
    this.imageBackOff = new Backoff(10_000, 300_000, now);
  }

  #emit(pod: Pod, kind: string, detail: string, key?: Parameters<NodeEnv['ctx']['emit']>[4]): void {
    this.#env.ctx.emit('kubelet', kind, podObject(pod), detail, key);
  }

  /**
   * SyncPod: bring the pod's sandbox and containers to what the spec wants. With nothing to do (most syncs of a
   * running pod) it answers at once (a plain call); else the goroutine it returns does steps 2 to 9.
   */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go SyncPod (v1.36.2 L1450)
  SyncPod(pod: Pod, podStatus: RuntimePodStatus): SyncResult[] | Proc<SyncResult[]> {
    // SyncPod#1: computePodActions
    const st = this.resized.size ? this.resized.get(pod.metadata.uid) : undefined;
    const changes = computePodActions(pod, podStatus, this.probeResults, st && ((idx, s, ch) => this.resize!.computePodResizeAction(pod, idx, s, st.actuated, ch)));
    if (this.#env.verbosity >= 2) this.#logContainersToKill(pod, changes);
    const noop =
      !changes.KillPod && !changes.CreateSandbox && changes.ContainersToKill.size === 0 && changes.ContainersToStart.length === 0 &&
      changes.InitContainersToStart.length === 0 && changes.EphemeralContainersToStart.length === 0 && !changes.ContainersToUpdate;
    return noop ? [] : this.#syncPodActions(pod, podStatus, changes);
  }

  /**
   * computePodActions' V(2) line for each running container it kills (not for one in an unknown state, nor for an
   * init container): the container's ID as Go's JSON encoding of kubecontainer.ContainerID (a value, so not its
   * pointer-receiver String/MarshalJSON), as klog prints a struct.
   */
  // upstream: kuberuntime_manager.go computePodActions (v1.36.2 L1372: 14 lines above the end of the function, L1386)
  #logContainersToKill(pod: Pod, changes: PodActions): void {
    for (const [id, info] of changes.ContainersToKill) {
      if (info.reason === 'Unknown' || !pod.spec.containers.includes(info.container)) continue;
      this.#env.klog('I', 'kuberuntime_manager.go:1372', 'Message for Container of pod', [
        ['containerName', q(info.name)], ['containerStatusID', JSON.stringify({ Type: 'containerd', ID: id })], ['pod', kobj(pod)], ['containerMessage', q(info.message)],
      ], 2);
    }
  }

  // SyncPod, steps 2 to 9: the actions computePodActions found.
  *#syncPodActions(pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): Proc<SyncResult[]> {
    const env = this.#env;
    const results: SyncResult[] = [];
    // the in-place updates, as the trace names them ("cpu: app")
    const updates = changes.ContainersToUpdate && this.resize!.describeUpdates(changes.ContainersToUpdate);
    this.#emit(pod, 'PodActionsComputed', describeActions(pod, changes, updates), 'SyncPod#1');
    this.#traceComputePodActions(pod, podStatus, changes, updates);

    // SyncPod#2 / #3
    if (changes.KillPod) {
      if (changes.CreateSandbox) {
        if (changes.SandboxID !== '') recordPodEvent(env, pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
      }
      this.#emit(pod, 'KillPod', changes.CreateSandbox ? 'kill the pod before re-creating its sandbox' : 'kill the pod: nothing left to run', 'SyncPod#2');
      const kill = this.killPodWithSyncResult(pod, podStatus, undefined);
      const killResults = Array.isArray(kill) ? kill : yield* kill;
      results.push(...killResults);
      if (killResults.some((r) => r.error)) return results;
      if (changes.CreateSandbox) this.#purgeInitContainers(pod, podStatus);
    } else {
      for (const [id, info] of changes.ContainersToKill) {
        this.#emit(pod, 'KillContainer', `kill container ${info.name}: ${info.message}`, 'SyncPod#3');
        const r: SyncResult = { action: 'KillContainer', target: info.name };
        results.push(r);
        yield* this.killContainer(pod, id, info.name, info.message, info.reason, undefined);
      }
    }
    this.#pruneInitContainersBeforeStart(pod, podStatus);

    // SyncPod#4
    let sandboxID = changes.SandboxID;
    // podIPs: the pod's, or the new sandbox's (the containers' environment has it before the pod's status does)
    let podIP = podStatus.IPs[0];
    if (changes.CreateSandbox) {
      this.#emit(pod, 'CreateSandbox', `create sandbox attempt ${changes.Attempt}`, 'SyncPod#4');
      const sb = yield* this.createPodSandbox(pod, changes.Attempt);
      results.push({ action: 'CreatePodSandbox', target: formatPod(pod) });
      sandboxID = sb.id;
      podIP = sb.ip;
      // SyncPod#5: the sandbox-ready callback, before any image is pulled
      this.#emit(pod, 'SandboxReadyCallback', kept`OnPodSandboxReady: sandbox ${sb.id.slice(0, 13)} with IP ${sb.ip}`, 'SyncPod#5');
      this.onPodSandboxReady(pod);
    } else if (changes.KillPod) {
      return results;
    }

    // SyncPod#6: ephemeral containers
    for (let i = 0; i < changes.EphemeralContainersToStart.length; i++) {
      const idx = changes.EphemeralContainersToStart[i];
      const c = pod.spec.ephemeralContainers![idx];
      this.#emit(pod, 'StartEphemeralContainer', `start ephemeral container ${c.name}`, 'SyncPod#6');
      const r = this.#startResult(pod, c, podStatus, results);
      if (r.error === undefined) this.#started('ephemeral container', pod, c, r, yield* this.startContainer(sandboxID, pod, c, podStatus, podIP));
    }
    // the startup latency tracker: the init container it timed has finished (RecordInitContainerFinished with the
    // container's FinishedAt); counted once, before the next one starts
    const track = pod.spec.initContainers ? this.#startup(pod.metadata.uid) : undefined;
    if (track?.init) {
      const done = findContainerStatusByName(podStatus, track.init);
      if (done?.State === 'exited' && done.FinishedAt !== undefined) {
        if (done.FinishedAt > track.initStart) track.initTotal += done.FinishedAt - track.initStart;
        track.init = '';
      }
    }
    // SyncPod#7: init containers, in order; a regular init container that fails to start stops the sync
    for (let i = 0; i < changes.InitContainersToStart.length; i++) {
      const idx = changes.InitContainersToStart[i];
      const c = pod.spec.initContainers![idx];
      this.#emit(pod, 'StartInitContainer', `start init container ${c.name}`, 'SyncPod#7');
      const r = this.#startResult(pod, c, podStatus, results);
      if (r.error === undefined) this.#started('init container', pod, c, r, yield* this.startContainer(sandboxID, pod, c, podStatus, podIP));
      // upstream: SyncPod's start: a regular init container that started → RecordInitContainerStarted(uid, time.Now())
      if (r.error === undefined && track && !isRestartableInitContainer(c)) [track.init, track.initStart] = [c.name, env.ctx.now];
      if (r.error !== undefined && !isRestartableInitContainer(c)) return results;
    }
    // SyncPod#8: resize running containers in place
    if (changes.ContainersToUpdate) {
      this.resize!.doPodResizeAction(changes.ContainersToUpdate, this.resized.get(pod.metadata.uid)!.actuated, (id, r, detail) => {
        this.#emit(pod, 'UpdateContainerResources', detail, 'SyncPod#8');
        return env.runtime.updateContainerResources(id, r);
      });
      // upstream: doPodResizeAction `defer m.runtimeHelper.RequestPodReinspect(pod.UID)`: a resize changes no
      // container's state, so without it no relist would sync the pod and report the resize done
      this.requestPodReinspect(pod.metadata.uid);
    }
    // SyncPod#9: regular containers
    for (let i = 0; i < changes.ContainersToStart.length; i++) {
      const idx = changes.ContainersToStart[i];
      const c = pod.spec.containers[idx];
      this.#emit(pod, 'StartContainer', `start container ${c.name}`, 'SyncPod#9');
      const r = this.#startResult(pod, c, podStatus, results);
      if (r.error === undefined) this.#started('container', pod, c, r, yield* this.startContainer(sandboxID, pod, c, podStatus, podIP));
    }
    return results;
  }

  // SyncPod's start(): the StartContainer result of a container, failed at once while it is in its crash-loop
  // back-off (then startContainer is not called).
  #startResult(pod: Pod, c: Container, s: RuntimePodStatus, results: SyncResult[]): SyncResult {
    const r: SyncResult = { action: 'StartContainer', target: c.name };
    results.push(r);
    const bo = this.doBackOff(pod, c, s);
    if (bo.inBackOff) {
      r.error = 'CrashLoopBackOff';
      r.message = bo.msg;
      r.backoffUntil = bo.until;
    }
    return r;
  }

  // SyncPod's start(), after startContainer: its error goes into the result, and one other than ImagePullBackOff
  // is logged.
  #started(typeName: string, pod: Pod, c: Container, r: SyncResult, res: { err?: string; msg: string; backoffUntil?: number }): void {
    if (!res.err) return;
    r.error = res.err;
    r.message = res.msg;
    if (res.err !== 'ImagePullBackOff') {
      this.#env.klog('E', 'kuberuntime_manager.go:1632', 'Unhandled Error', [
        ['err', q(`${typeName} ${c.name} start failed in pod ${formatPod(pod)}: ${res.err}: ${res.msg}`)],
        ['logger', q('UnhandledError')],
      ]);
    }
    if (res.backoffUntil !== undefined) r.backoffUntil = res.backoffUntil;
  }

  #traceComputePodActions(pod: Pod, s: RuntimePodStatus, a: PodActions, updates: string | undefined): void {
    const sandbox = s.SandboxStatuses[0];
    this.#emit(
      pod, 'SandboxChecked',
      a.CreateSandbox || (a.KillPod && s.SandboxStatuses.length === 0)
        ? sandbox ? `sandbox ${sandbox.Id.slice(0, 13)} is ${sandbox.State}: a new sandbox is needed (attempt ${a.Attempt})` : 'no sandbox yet: create one (attempt 0)'
        : sandbox ? `sandbox ${sandbox.Id.slice(0, 13)} is ready: keep it` : 'no sandbox',
      'computePodActions#1',
    );
    if (a.CreateSandbox || (a.KillPod && a.SandboxID !== '' && s.SandboxStatuses[0]?.State !== 'SANDBOX_READY')) {
      this.#emit(pod, 'ContainersPlanned', a.InitContainersToStart.length ? `start init container ${pod.spec.initContainers![a.InitContainersToStart[0]].name} first` : `start ${a.ContainersToStart.map((i) => pod.spec.containers[i].name).join(', ') || 'nothing'}`, 'computePodActions#2');
    } else {
      const parts: string[] = [];
      if (a.ContainersToKill.size) parts.push(`kill ${[...a.ContainersToKill.values()].map((k) => k.name).join(', ')}`);
      if (a.InitContainersToStart.length) parts.push(`start init ${a.InitContainersToStart.map((i) => pod.spec.initContainers![i].name).join(', ')}`);
      if (a.ContainersToStart.length) parts.push(`start ${a.ContainersToStart.map((i) => pod.spec.containers[i].name).join(', ')}`);
      if (updates) parts.push(`resize in place: ${updates}`);
      if (a.KillPod) parts.push('kill the pod');
      this.#emit(pod, 'ContainersPlanned', parts.join('; ') || 'keep every container', 'computePodActions#3');
    }
  }

  /** doBackOff: is the container still in its crash-loop back-off? */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff
  doBackOff(pod: Pod, c: Container, s: RuntimePodStatus): { inBackOff: boolean; msg: string; until?: number } {
    const cStatus = s.ContainerStatuses.find((x) => x.Name === c.name && x.State === 'exited');
    if (!cStatus) return { inBackOff: false, msg: '' };
    const ts = cStatus.FinishedAt ?? 0;
    // GetBackoffKey: the pod's name, namespace and UID, the container's name, and the fields whose change should
    // reset the back-off: its image and its resources (kubernetes#131681, v1.34), so an in-place resize, like a new
    // image, starts the container's back-off afresh
    // upstream: pkg/kubelet/kuberuntime/helpers.go GetBackoffKey
    const key = `${pod.metadata.name}_${pod.metadata.namespace}_${pod.metadata.uid}_${c.name}_${c.image}_${c.resources ? JSON.stringify(c.resources) : ''}`;
    if (this.crashLoopBackOff.isInBackOffSince(key, ts)) {
      recordContainerEvent(this.#env, pod, c, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`);
      const backoff = this.crashLoopBackOff.get(key);
      const msg = `back-off ${formatGoDuration(backoff)} restarting failed container=${c.name} pod=${formatPod(pod)}`;
      this.#emit(pod, 'BackOff', msg, 'doBackOff#1');
      return { inBackOff: true, msg, until: ts + backoff };
    }
    this.crashLoopBackOff.next(key, ts);
    this.#emit(pod, 'BackOffElapsed', `restart ${c.name}: next back-off ${formatGoDuration(this.crashLoopBackOff.get(key))}`, 'doBackOff#2');
    return { inBackOff: false, msg: '' };
  }

  /** createPodSandbox: config, log directory, runtime handler, then CRI RunPodSandbox. */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go createPodSandbox (v1.36.2 L38)
  *createPodSandbox(pod: Pod, attempt: number): Proc<{ id: string; ip: string }> {
    const env = this.#env;
    const config = this.#generatePodSandboxConfig(pod, attempt);
    this.#emit(pod, 'LogDirectory', kept`mkdir /var/log/pods/${pod.metadata.namespace!}_${pod.metadata.name}_${pod.metadata.uid}`, 'createPodSandbox#2');
    this.#emit(pod, 'RuntimeHandler', 'no RuntimeClass: the default handler', 'createPodSandbox#3');
    yield sleepFor(env.ctx.timings.sandboxCreate);
    const sb = env.runtime.runPodSandbox(config);
    this.#emit(pod, 'SandboxCreated', kept`RunPodSandbox ${sb.id.slice(0, 13)}: pause pid ${sb.pausePid}, IP ${sb.ip}`, 'createPodSandbox#4');
    env.ctx.emit('runtime', 'SandboxReady', `sandbox/${sb.id}`, kept`pause process ${sb.pausePid}; ipc, uts and net namespaces at /proc/${sb.pausePid}/ns`);
    return sb;
  }

  /** The config RunPodSandbox takes (createPodSandbox's step 1). */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go generatePodSandboxConfig
  #generatePodSandboxConfig(pod: Pod, attempt: number): SandboxConfig {
    this.#emit(pod, 'SandboxConfig', kept`generatePodSandboxConfig: hostname ${pod.metadata.name}, DNS ClusterFirst, attempt ${attempt}`, 'createPodSandbox#1');
    const labels: Record<string, string> = {
      ...(pod.metadata.labels ?? {}),
      'io.kubernetes.pod.name': pod.metadata.name,
      'io.kubernetes.pod.namespace': pod.metadata.namespace!,
      'io.kubernetes.pod.uid': pod.metadata.uid,
    };
    return {
      podUid: pod.metadata.uid, name: pod.metadata.name, namespace: pod.metadata.namespace!, attempt,
      hostNetwork: !!pod.spec.hostNetwork, labels,
      // newPodAnnotations: the pod's annotations (the kubelet's copy adds config.seen and config.source; see configSeen)
      annotations: { ...pod.metadata.annotations }, configSeen: this.seen.get(pod.metadata.uid),
    };
  }

  /**
   * EnsureImageExists with the pull policy, Pulling/Pulled events and the image pull back-off. Without a pull it
   * answers at once (a plain call); a pull is the goroutine it returns.
   */
  // upstream: pkg/kubelet/images/image_manager.go (*imageManager).EnsureImageExists
  EnsureImageExists(pod: Pod, c: Container): ImageResult | Proc<ImageResult> {
    const env = this.#env;
    const requested = c.image;
    let ref;
    try {
      ref = parseImageRef(requested);
    } catch (e) {
      const msg = `Failed to apply default image tag ${q(requested)}: couldn't parse image name ${q(requested)}: ${(e as ImageRefError).message}`;
      recordContainerEvent(env, pod, c, 'Warning', 'InspectFailed', msg);
      return { msg, err: 'InvalidImageName' };
    }
    const present = env.runtime.imageStatus(ref);
    if (c.imagePullPolicy !== 'Always' && present) {
      const msg = derived(PRESENT_MESSAGES, requested, presentMessage);
      recordContainerEvent(env, pod, c, 'Normal', 'Pulled', msg);
      return { imageRef: ref.normalized, msg };
    }
    if (c.imagePullPolicy === 'Never') {
      const msg = `Container image ${q(requested)} is not present with pull policy of Never`;
      recordContainerEvent(env, pod, c, 'Warning', 'ErrImageNeverPull', msg);
      return { msg, err: 'ErrImageNeverPull' };
    }
    const backOffKey = `${pod.metadata.uid}_${ref.repository}`;
    if (this.imageBackOff.isInBackOffSinceUpdate(backOffKey, env.ctx.now)) {
      let msg = `Back-off pulling image ${q(requested)}`;
      recordContainerEvent(env, pod, c, 'Normal', 'BackOff', msg);
      const prev = this.#prevPullErrMsg.get(backOffKey);
      if (prev) msg = `${msg}: ${prev}`;
      return { msg, err: 'ImagePullBackOff' };
    }
    this.#prevPullErrMsg.delete(backOffKey);
    recordContainerEvent(env, pod, c, 'Normal', 'Pulling', `Pulling image ${q(requested)}`);
    // upstream: image_manager.go EnsureImageExists → podPullingTimeRecorder.RecordImageStartedPulling
    this.#startup(pod.metadata.uid)?.starts.push(env.ctx.now);
    return this.#pullImage(pod, c, ref, backOffKey);
  }

  /** When the node's image puller is free: serializeImagePulls (the default) pulls one image at a time, in order. */
  #pullerFreeAt = 0;

  // EnsureImageExists's pullImage and what follows it: the Pulled or Failed event and the back-off. The pull waits
  // for the ones requested before it (the serial puller's one worker): the event gives the pull's own time and the
  // time including that wait.
  // upstream: pkg/kubelet/images/image_manager.go (*imageManager).pullImage; puller.go serialImagePuller
  *#pullImage(pod: Pod, c: Container, ref: ImageRef, backOffKey: string): Proc<ImageResult> {
    const env = this.#env;
    const requested = c.image;
    const start = env.ctx.now;
    const wait = Math.max(0, this.#pullerFreeAt - start);
    const pull = env.runtime.pullTime(ref, env.ctx.timings.defaultPull);
    this.#pullerFreeAt = start + wait + pull;
    if (wait > 0) yield sleepFor(wait);
    const res = yield* env.runtime.pullImage(ref, pull);
    if (res.error !== undefined) {
      recordContainerEvent(env, pod, c, 'Warning', 'Failed', `Failed to pull image ${q(requested)}: ${res.error}`);
      env.klog('E', 'log.go:32', 'PullImage from image service failed', [['err', q(res.error)], ['image', q(ref.normalized)]]);
      env.klog('E', 'kuberuntime_image.go:43', 'Failed to pull image', [['err', q(res.error)], ['image', q(ref.normalized)]]);
      this.imageBackOff.next(backOffKey, env.ctx.now);
      this.#prevPullErrMsg.set(backOffKey, `ErrImagePull: ${res.error}`);
      return { msg: res.error, err: 'ErrImagePull' };
    }
    // upstream: RecordImageFinishedPulling: the oldest open start and now make a session
    const track = this.#startup(pod.metadata.uid);
    if (track && track.starts.length) track.sessions.push(track.starts.shift()!, env.ctx.now);
    recordContainerEvent(env, pod, c, 'Normal', 'Pulled', `Successfully pulled image ${q(requested)} in ${formatGoDuration(pull)} (${formatGoDuration(env.ctx.now - start)} including waiting). Image size: ${res.size} bytes.`);
    this.imageBackOff.gc();
    return { imageRef: ref.normalized, msg: '' };
  }

  /** startContainer: pull, create, start, PostStart. Returns the error sentinel and message on failure. */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go startContainer (v1.36.2 L199)
  *startContainer(sandboxID: string, pod: Pod, c: Container, s: RuntimePodStatus, podIP?: string): Proc<{ err?: string; msg: string; backoffUntil?: number }> {
    const env = this.#env;
    // Step 1: pull the image.
    this.#emit(pod, 'EnsureImage', kept`EnsureImageExists ${c.image} (imagePullPolicy ${c.imagePullPolicy})`, 'startContainer#1');
    const ensured = this.EnsureImageExists(pod, c);
    const img = 'msg' in ensured ? ensured : yield* ensured;
    if (img.err) {
      recordContainerEvent(env, pod, c, 'Warning', 'Failed', `Error: ${img.err}`);
      return { err: img.err, msg: img.msg };
    }
    // Step 2: create the container.
    // (the environment's module checks them; a page's replay loads it for a run whose pods have an env or envFrom)
    const configError = this.envSupport?.missingConfigSource(env.ctx, pod, c);
    if (configError) {
      this.#emit(pod, 'CreateContainerConfigError', `generateContainerConfig ${c.name}: ${configError}`, 'startContainer#2');
      recordContainerEvent(env, pod, c, 'Warning', 'Failed', `Error: ${configError}`);
      return { err: 'CreateContainerConfigError', msg: configError };
    }
    const cfg = this.#generateContainerConfig(pod, c, s, podIP);
    const resized = this.resized.size ? this.resized.get(pod.metadata.uid) : undefined;
    if (resized) cfg.resources = this.resize!.createdResources(resized, c.name, c.resources);
    this.#emit(pod, 'CreateContainer', kept`CreateContainer ${c.name} (attempt ${cfg.attempt})`, 'startContainer#2');
    yield sleepFor(env.ctx.timings.containerCreate);
    const created = env.runtime.createContainer(sandboxID, cfg);
    if ('error' in created) {
      recordContainerEvent(env, pod, c, 'Warning', 'Failed', `Error: ${created.error}`);
      return { err: 'CreateContainerError', msg: created.error };
    }
    recordContainerEvent(env, pod, c, 'Normal', 'Created', 'Container created');
    const object = `container/${created.id}`;
    env.ctx.emit('runtime', 'ContainerCreated', object, kept`${c.name} created in sandbox ${sandboxID.slice(0, 13)}; joins /proc/<pause>/ns/{ipc,uts,net}`);
    // Step 3: start the container.
    this.#emit(pod, 'StartContainer', `StartContainer ${created.id.slice(0, 13)}`, 'startContainer#3');
    yield sleepFor(env.ctx.timings.containerStart);
    const started = env.runtime.startContainer(created.id);
    if (started.error) {
      recordContainerEvent(env, pod, c, 'Warning', 'Failed', `Error: ${started.error}`);
      return { err: 'RunContainerError', msg: started.error };
    }
    recordContainerEvent(env, pod, c, 'Normal', 'Started', 'Container started');
    env.ctx.emit('process', 'ProcessStarted', object, kept`${c.name}: ${(cfg.script ?? cfg.argv.join(' ')).slice(0, 120)}`);
    // Step 4: execute the post start hook.
    const postStart = c.lifecycle?.postStart;
    if (postStart) {
      this.#emit(pod, 'PostStartHook', `run the PostStart hook of ${c.name}`, 'startContainer#4');
      const hook = yield* handlersOf(env.ctx).runHook(env, pod, c, created.id, 'postStart', postStart);
      if (!hook.ok) {
        env.klog('E', 'kuberuntime_container.go:330', 'Failed to execute PostStartHook', [
          ['err', q(hook.msg)], ...containerKV(pod, c.name, created.id),
        ]);
        recordContainerEvent(env, pod, c, 'Warning', 'FailedPostStartHook', 'PostStartHook failed');
        yield* this.killContainer(pod, created.id, c.name, 'FailedPostStartHook', 'FailedPostStartHook', undefined);
        return { err: 'PostStartHookError', msg: hook.msg };
      }
    }
    return STARTED;
  }

  /** The CRI config of a container: its attempt, argv (or scripted process), labels and annotations. */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go generateContainerConfig
  #generateContainerConfig(pod: Pod, c: Container, s: RuntimePodStatus, podIP: string | undefined): ContainerConfig {
    const prev = findContainerStatusByName(s, c.name);
    const restartCount = prev ? prev.RestartCount + 1 : 0;
    const ref = parseImageRef(c.image);
    const defaults = imageDefaults(ref.repository);
    const scripts = pod.metadata.annotations?.[`${ANNOTATION_PREFIX}process.${c.name}`];
    let script: string | undefined;
    if (scripts !== undefined) {
      const list = JSON.parse(scripts) as string[];
      script = list[Math.min(restartCount, list.length - 1)];
    }
    return {
      podUid: pod.metadata.uid,
      podName: pod.metadata.name,
      podNamespace: pod.metadata.namespace!,
      name: c.name,
      attempt: restartCount,
      image: c.image,
      imageRef: ref.normalized,
      argv: containerArgvOf(this.envSupport, pod, c, defaults, { podIP, hostIP: this.#env.nodeIP }, this.#env.ctx),
      script,
      stdin: !!c.stdin,
      memory: c.resources?.limits?.memory as string | undefined,
      // an ephemeral container's target: its process namespace is joined (NamespaceMode_TARGET)
      target: c.targetContainerName && findContainerStatusByName(s, c.targetContainerName)?.ID,
      labels: {
        'io.kubernetes.container.name': c.name,
        'io.kubernetes.pod.name': pod.metadata.name,
        'io.kubernetes.pod.namespace': pod.metadata.namespace!,
        'io.kubernetes.pod.uid': pod.metadata.uid,
      },
      annotations: {
        'io.kubernetes.container.hash': hashContainer(c),
        'io.kubernetes.container.restartCount': String(restartCount),
        'io.kubernetes.container.terminationMessagePath': c.terminationMessagePath,
        'io.kubernetes.container.terminationMessagePolicy': c.terminationMessagePolicy,
        'io.kubernetes.pod.terminationGracePeriod': String(pod.spec.terminationGracePeriodSeconds),
      },
    };
  }

  /** killContainer: Killing event, grace period, PreStop, the 2 s minimum, then CRI StopContainer. */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer (v1.36.2 L860)
  *killContainer(pod: Pod, containerID: string, name: string, message: string, reason: ContainerKillReason, gracePeriodOverride: number | undefined): Proc {
    const env = this.#env;
    const c = containerSpec(pod, name);
    if (!c) return;
    let grace = setTerminationGracePeriod(pod, c, reason);
    const msg = message || `Stopping container ${c.name}`;
    recordContainerEvent(env, pod, c, 'Normal', 'Killing', msg);
    if (gracePeriodOverride !== undefined) grace = gracePeriodOverride;
    this.#emit(pod, 'Killing', kept`${msg} (grace period ${grace}s)`, 'killContainer#1');
    const preStop = c.lifecycle?.preStop;
    if (preStop && grace > 0) grace -= yield* this.#executePreStopHook(pod, c, containerID, preStop, grace);
    if (grace < MINIMUM_GRACE_PERIOD_SECONDS) {
      this.#emit(pod, 'MinimumGracePeriod', `grace period ${grace}s raised to the ${MINIMUM_GRACE_PERIOD_SECONDS}s minimum`, 'killContainer#3');
      grace = MINIMUM_GRACE_PERIOD_SECONDS;
    }
    if (env.verbosity >= 2) env.klog('I', 'kuberuntime_container.go:898', 'Killing container with a grace period', [
      ...containerKV(pod, c.name, containerID), ['gracePeriod', String(grace)],
    ], 2);
    this.#emit(pod, 'StopContainer', kept`CRI StopContainer ${containerID.slice(0, 13)} with timeout ${grace}s`, 'killContainer#4');
    const r = yield* env.runtime.stopContainer(containerID, grace);
    const cur = env.runtime.containers.get(containerID);
    env.ctx.emit(
      'runtime', r.killed ? 'SIGKILL' : 'ContainerStopped', `container/${containerID}`,
      r.killed ? kept`${c.name} did not exit within ${grace}s of ${r.signalled}: SIGKILL, exit code 137` : kept`${c.name} exited after ${r.signalled} with code ${cur?.exitCode ?? 0}`,
    );
  }

  /** Run the PreStop hook for at most the grace period; returns the whole seconds it took. */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go executePreStopHook
  *#executePreStopHook(pod: Pod, c: Container, containerID: string, preStop: LifecycleHandler, grace: number): Proc<number> {
    const env = this.#env;
    this.#emit(pod, 'PreStopHook', `run the PreStop hook of ${c.name} (at most ${grace}s)`, 'killContainer#2');
    const started = env.ctx.now;
    let done = false;
    let wake: (() => void) | undefined;
    env.ctx.loop.spawn(handlersOf(env.ctx).runHook(env, pod, c, containerID, 'preStop', preStop), (r) => {
      done = true;
      if (!r.ok) {
        env.klog('E', 'kuberuntime_container.go:668', 'PreStop hook failed', [['err', q(r.msg)], ...containerKV(pod, c.name, containerID)]);
        recordContainerEvent(env, pod, c, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
      }
      wake?.();
    });
    if (!done) yield { wait: (w) => (wake = w), timeout: grace * 1000 };
    if (!done) {
      env.klog('I', 'kuberuntime_container.go:683', 'PreStop hook not completed in grace period', [
        ...containerKV(pod, c.name, containerID), ['gracePeriod', String(grace)],
      ], 2);
    }
    return Math.floor((env.ctx.now - started) / 1000);
  }

  /**
   * killPodWithSyncResult: kill every running container, then stop the sandboxes. With nothing running and no
   * sandbox up (a pod's first sync) it answers at once (a plain call); else the goroutine it returns does the kills.
   */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go killPodWithSyncResult (v1.36.2 L1953)
  killPodWithSyncResult(pod: Pod, s: RuntimePodStatus, gracePeriodOverride: number | undefined): SyncResult[] | Proc<SyncResult[]> {
    const statuses = s.ContainerStatuses;
    const results: SyncResult[] = [];
    let names = '';
    for (let i = 0; i < statuses.length; i++) {
      if (statuses[i].State !== 'running') continue;
      results.push({ action: 'KillContainer', target: statuses[i].Name });
      names = names ? kept`${names}, ${statuses[i].Name}` : statuses[i].Name;
    }
    this.#emit(pod, 'KillContainers', names ? kept`kill ${names}` : 'no running container', 'killPodWithSyncResult#1');
    return results.length || s.SandboxStatuses.some((sb) => sb.State === 'SANDBOX_READY') ? this.#killPod(pod, s, gracePeriodOverride, results) : results;
  }

  // killPodWithSyncResult's goroutine: the kills in parallel, then the sandboxes stopped one after the other
  *#killPod(pod: Pod, s: RuntimePodStatus, gracePeriodOverride: number | undefined, results: SyncResult[]): Proc<SyncResult[]> {
    const env = this.#env;
    // (indexed loops: a generator runs unoptimised, where for-of allocates an iterator and a result per step)
    const statuses = s.ContainerStatuses;
    // containers are killed in parallel (one goroutine each); wait for all
    let pending = results.length;
    let wake: (() => void) | undefined;
    const killed = (): void => {
      pending--;
      if (pending === 0) wake?.();
    };
    for (let i = 0; i < statuses.length; i++) {
      const c = statuses[i];
      if (c.State === 'running') env.ctx.loop.spawn(this.killContainer(pod, c.ID, c.Name, '', '', gracePeriodOverride), killed);
    }
    if (pending > 0) yield { wait: (w) => (wake = w), timeout: Infinity };
    for (let i = 0; i < s.SandboxStatuses.length; i++) {
      const sb = s.SandboxStatuses[i];
      if (sb.State !== 'SANDBOX_READY') continue;
      this.#emit(pod, 'StopSandbox', `StopPodSandbox ${sb.Id.slice(0, 13)}`, 'killPodWithSyncResult#2');
      results.push({ action: 'KillPodSandbox', target: formatPod(pod) });
      yield* env.runtime.stopPodSandbox(sb.Id);
    }
    return results;
  }

  // upstream: kuberuntime_manager.go purgeInitContainers: remove every init container instance
  #purgeInitContainers(pod: Pod, s: RuntimePodStatus): void {
    if (!pod.spec.initContainers?.length) return;
    const names = new Set(pod.spec.initContainers.map((c) => c.name));
    for (const c of s.ContainerStatuses) {
      if (names.has(c.Name) && c.State === 'exited') this.#remove(c.ID);
    }
  }

  // upstream: kuberuntime_manager.go pruneInitContainersBeforeStart: keep only the newest exited instance per init container
  #pruneInitContainersBeforeStart(pod: Pod, s: RuntimePodStatus): void {
    if (!pod.spec.initContainers?.length) return;
    const names = new Set(pod.spec.initContainers.map((c) => c.name));
    const seen = new Set<string>();
    for (const c of s.ContainerStatuses) {
      if (!names.has(c.Name) || c.State !== 'exited') continue;
      if (seen.has(c.Name)) this.#remove(c.ID);
      seen.add(c.Name);
    }
  }

  #remove(id: string): void {
    if (!this.#env.runtime.containers.has(id)) return;
    this.#env.klog('I', 'scope.go:122', 'RemoveContainer', [['containerID', q(id)]]);
    this.#env.runtime.removeContainer(id);
  }
}

/** The klog key/values that name a container of a pod. */
function containerKV(pod: Pod, name: string, containerID: string): [string, string][] {
  return [['pod', kobj(pod)], ['podUID', q(pod.metadata.uid)], ['containerName', q(name)], ['containerID', q(`containerd://${containerID}`)]];
}

function describeActions(pod: Pod, a: PodActions, updates: string | undefined): string {
  const parts: string[] = [];
  if (a.KillPod) parts.push('KillPod');
  if (a.CreateSandbox) parts.push(`CreateSandbox (attempt ${a.Attempt})`);
  if (a.ContainersToKill.size) parts.push(`ContainersToKill [${[...a.ContainersToKill.values()].map((k) => k.name).join(' ')}]`);
  if (a.InitContainersToStart.length) parts.push(`InitContainersToStart [${a.InitContainersToStart.map((i) => pod.spec.initContainers![i].name).join(' ')}]`);
  if (a.ContainersToStart.length) parts.push(`ContainersToStart [${a.ContainersToStart.map((i) => pod.spec.containers[i].name).join(' ')}]`);
  if (a.EphemeralContainersToStart.length) parts.push(`EphemeralContainersToStart [${a.EphemeralContainersToStart.length}]`);
  if (updates) parts.push(`ContainersToUpdate [${updates}]`);
  return `podActions{${parts.join(', ')}}`;
}

/** The argv a container runs: its command and args after the kubelet's $(VAR) expansion, over the image's defaults. */
function containerArgvOf(env: Pick<typeof envModule, 'expandCommand'> | undefined, pod: Pod, c: Container, defaults: ImageDefaults, ips: envModule.PodIPs, ctx: SimContext): string[] {
  const { command, args } = env ? env.expandCommand(pod, c, ips, ctx) : c;
  return containerArgv(defaults, command, args);
}

