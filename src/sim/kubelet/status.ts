// The pod status the kubelet writes: getPhase, the kubelet-owned conditions in their real order, and the
// container statuses (convertToAPIContainerStatuses with the reason cache, the probe manager's ready/started).
// upstream: pkg/kubelet/kubelet_pods.go (getPhase, generateAPIPodStatus, convertToAPIContainerStatuses);
//           pkg/kubelet/status/generate.go; pkg/kubelet/prober/prober_manager.go UpdatePodStatus

import type {
  Container, ContainerState, ContainerStatus, Pod, PodCondition, PodIP, PodPhase, PodStatus, ResourceRequirements, VolumeMount, VolumeMountStatus,
} from '../types.ts';
import { formatBinarySI, formatMilliCPU, intValue, milliCPU } from '../api/quantity.ts';
import { isRestartableInitContainer, podSandboxChanged, shouldContainerBeRestarted, type ProbeResult } from './podactions.ts';
import { findContainerStatusByName, type RuntimeContainerStatus, type RuntimePodStatus } from './podstatus.ts';
import { deepEqual } from '../core/structural.ts';

/** The first status of the container named `name`. */
function statusOf(list: ContainerStatus[], name: string): ContainerStatus | undefined {
  for (const s of list) if (s.name === name) return s;
  return undefined;
}

/** getPhase(pod, info, podIsTerminal, podHasInitialized), without the ContainerRestartRules gate. */
// upstream: pkg/kubelet/kubelet_pods.go getPhase
export function getPhase(pod: Pod, info: ContainerStatus[], podIsTerminal: boolean, podHasInitialized: boolean): PodPhase {
  const spec = pod.spec;
  let pendingRestartableInit = 0;
  let pendingRegularInit = 0;
  let failedInitialization = 0;
  for (const c of spec.initContainers ?? []) {
    if (isRestartableInitContainer(c)) continue; // counted with the regular containers below
    const cs = statusOf(info, c.name);
    if (!cs) {
      pendingRegularInit++;
      continue;
    }
    const st = cs.state;
    if (st.running) pendingRegularInit++;
    else if (st.terminated) {
      if (st.terminated.exitCode !== 0) failedInitialization++;
    } else if (st.waiting) {
      if (cs.lastState.terminated) {
        if (cs.lastState.terminated.exitCode !== 0) failedInitialization++;
      } else pendingRegularInit++;
    } else pendingRegularInit++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.initContainers ?? []) {
    if (!isRestartableInitContainer(c)) continue;
    const cs = statusOf(info, c.name);
    if (!cs) {
      unknown++;
      continue;
    }
    const st = cs.state;
    if (st.running) {
      running++;
      if (cs.started !== true) pendingRestartableInit++;
    } else if (st.terminated) {
      // a stopped sidecar does not change the phase
    } else if (st.waiting) {
      if (!cs.lastState.terminated) {
        pendingRestartableInit++;
        waiting++;
      }
    } else unknown++;
  }
  for (const c of spec.containers) {
    const cs = statusOf(info, c.name);
    if (!cs) {
      unknown++;
      continue;
    }
    const st = cs.state;
    if (st.running) running++;
    else if (st.terminated) {
      stopped++;
      if (st.terminated.exitCode === 0) succeeded++;
    } else if (st.waiting) {
      if (cs.lastState.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInitialization > 0 && spec.restartPolicy === 'Never') return 'Failed';
  if (pendingRegularInit > 0 || (pendingRestartableInit > 0 && !podHasInitialized)) return 'Pending';
  if (waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (spec.restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (spec.restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

type Cond = Omit<PodCondition, 'lastProbeTime' | 'lastTransitionTime'>;

const goList = (names: string[]): string => `[${names.join(' ')}]`;

// the conditions every healthy pod has, shared by every status generated (the status manager copies what it keeps;
// frozen, so that code which writes into one fails loudly instead of changing every pod's)
const READY_TO_START: Cond = Object.freeze({ type: 'PodReadyToStartContainers', status: 'True' });
const NOT_READY_TO_START: Cond = Object.freeze({ type: 'PodReadyToStartContainers', status: 'False' });
const INITIALIZED: Cond = Object.freeze({ type: 'Initialized', status: 'True' });
const CONTAINERS_READY: Cond = Object.freeze({ type: 'ContainersReady', status: 'True' });
const READY: Cond = Object.freeze({ type: 'Ready', status: 'True' });
const SCHEDULED: Cond = Object.freeze({ type: 'PodScheduled', status: 'True' });

// upstream: pkg/kubelet/container/helpers.go HasAnyRegularContainerStarted
export function hasAnyRegularContainerStarted(pod: Pod, statuses: ContainerStatus[]): boolean {
  for (const s of statuses) {
    if (!s.state.running && !s.state.terminated) continue;
    for (const c of pod.spec.containers) if (c.name === s.name) return true;
  }
  return false;
}

// upstream: pkg/kubelet/status/generate.go GeneratePodReadyToStartContainersCondition
export function generatePodReadyToStartContainersCondition(pod: Pod, s: RuntimePodStatus): Cond {
  return podSandboxChanged(pod, s).changed ? NOT_READY_TO_START : READY_TO_START;
}

// upstream: generate.go GeneratePodInitializedCondition
export function generatePodInitializedCondition(pod: Pod, statuses: ContainerStatus[] | null, phase: PodPhase): Cond {
  const inits = pod.spec.initContainers ?? [];
  if (statuses === null && inits.length > 0) return { type: 'Initialized', status: 'False', reason: 'UnknownContainerStatuses' };
  const list = statuses ?? [];
  let unknown: string[] | undefined;
  let incomplete: string[] | undefined;
  for (const c of inits) {
    const cs = statusOf(list, c.name);
    if (!cs) {
      (unknown ??= []).push(c.name);
      continue;
    }
    if (isRestartableInitContainer(c)) {
      if (cs.started !== true) (incomplete ??= []).push(c.name);
    } else if (!cs.ready) (incomplete ??= []).push(c.name);
  }
  if (phase === 'Succeeded' && !unknown) return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  if ((!unknown && !incomplete) || hasAnyRegularContainerStarted(pod, list)) return INITIALIZED;
  const msgs: string[] = [];
  if (unknown) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete) msgs.push(`containers with incomplete status: ${goList(incomplete)}`);
  return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: msgs.join(', ') };
}

// upstream: generate.go GenerateContainersReadyCondition
export function generateContainersReadyCondition(pod: Pod, statuses: ContainerStatus[] | null, phase: PodPhase): Cond {
  if (statuses === null) return { type: 'ContainersReady', status: 'False', reason: 'UnknownContainerStatuses' };
  let unknown: string[] | undefined;
  let unready: string[] | undefined;
  for (const c of pod.spec.initContainers ?? []) {
    if (!isRestartableInitContainer(c)) continue;
    const cs = statusOf(statuses, c.name);
    if (!cs) (unknown ??= []).push(c.name);
    else if (!cs.ready) (unready ??= []).push(c.name);
  }
  for (const c of pod.spec.containers) {
    const cs = statusOf(statuses, c.name);
    if (!cs) (unknown ??= []).push(c.name);
    else if (!cs.ready) (unready ??= []).push(c.name);
  }
  if (phase === 'Succeeded' && !unknown) return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
  if (!unknown && !unready) return CONTAINERS_READY;
  const msgs: string[] = [];
  if (unknown) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready) msgs.push(`containers with unready status: ${goList(unready)}`);
  return { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: msgs.join(', ') };
}

// upstream: generate.go GeneratePodReadyCondition
export function generatePodReadyCondition(
  pod: Pod, statuses: ContainerStatus[] | null, phase: PodPhase, conditions: PodCondition[],
  containersReady: Cond = generateContainersReadyCondition(pod, statuses, phase),
): Cond {
  const cr = containersReady;
  if (cr.status !== 'True') {
    const out: Cond = { type: 'Ready', status: cr.status };
    if (cr.reason) out.reason = cr.reason;
    if (cr.message) out.message = cr.message;
    return out;
  }
  const gates = pod.spec.readinessGates;
  if (!gates) return READY;
  const msgs: string[] = [];
  for (const g of gates) {
    const c = conditions.find((x) => x.type === g.conditionType);
    if (!c) msgs.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
    else if (c.status !== 'True') msgs.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`);
  }
  if (msgs.length) return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: msgs.join(', ') };
  return READY;
}

/** reasonCache: container name → the last start failure (err is the waiting reason). */
export type ReasonCache = Map<string, { err: string; message: string }>;

/** What the kubelet knows besides the runtime and the pod: the probers' results, its node's IP, the clock. */
export interface StatusInputs {
  readiness: Map<string, ProbeResult>;
  startup: Map<string, ProbeResult>;
  hostIP: string;
  rfc3339: (t: number) => string;
}

/** The conditions the kubelet owns: it generates them, and they carry observedGeneration. */
export function isKubeletCondition(type: string): boolean {
  return (
    type === 'PodReadyToStartContainers' || type === 'Initialized' || type === 'Ready' || type === 'ContainersReady' || type === 'PodScheduled' ||
    isResizeCondition(type)
  );
}

/** PodResizePending, PodResizeInProgress: kubelet conditions the status manager sets with their own generation and times. */
export function isResizeCondition(type: string): boolean {
  return type.startsWith('PodResize');
}

/** The status of the container named `name`: the last one in the list (the Map upstream builds keeps the last). */
function lastByName(list: ContainerStatus[], name: string): ContainerStatus | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].name === name) return list[i];
  return undefined;
}

/** Per container name, the resources the runtime applied, where they differ from the allocation (a resize). */
export type AppliedResources = Map<string, ResourceRequirements>;

const NO_RESOURCES: ResourceRequirements = {};

// The states the kubelet writes again and again, shared by the statuses: a status is never changed once generated
// (every version of a pod keeps its own, so an unchanged part is kept once, not copied into each version).
const NO_STATE: ContainerState = {};
const WAITING: ContainerState = { waiting: {} };
const CREATING: ContainerState = { waiting: { reason: 'ContainerCreating' } };
const INITIALIZING: ContainerState = { waiting: { reason: 'PodInitializing' } };
const UNKNOWN_TERMINATION: ContainerState = {
  terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 },
};
const VANISHED: ContainerState = {
  terminated: {
    reason: 'ContainerStatusUnknown',
    message: 'The container could not be located when the pod was deleted.  The container used to be Running',
    exitCode: 137,
  },
};

// A read-only mount is recursively read-only when it asks for IfPossible or Enabled and the runtime handler supports
// it (containerd 2.x on a Linux kernel of 5.12 or later, as a v1.36 node has); any other propagation than None is an
// error the kubelet logs, leaving the mount Disabled.
// upstream: kubelet_pods.go resolveRecursiveReadOnly, runtimeClassSupportsRecursiveReadOnlyMounts
const resolveRecursiveReadOnly = (m: VolumeMount): boolean =>
  (m.recursiveReadOnly === 'IfPossible' || m.recursiveReadOnly === 'Enabled') && (m.mountPropagation ?? 'None') === 'None';

// a container spec is never changed once recorded: its mounts' statuses are made once and shared by every status
const mountStatuses = new WeakMap<Container, VolumeMountStatus[] | undefined>();

/**
 * The spec's mounts on a status the kubelet builds before the runtime reports the container (RecursiveReadOnlyMounts,
 * GA; "the CRI API is unaware of the volume names"): a read-only one with its recursive read-only mode. A status
 * converted from the runtime copies the old status's instead.
 */
// upstream: kubelet_pods.go convertToAPIContainerStatuses (status.VolumeMounts)
function setVolumeMounts(st: ContainerStatus, c: Container): void {
  if (!c.volumeMounts?.length) return;
  let out = mountStatuses.get(c);
  if (!out) {
    out = c.volumeMounts.map((m) =>
      m.readOnly
        ? { name: m.name, mountPath: m.mountPath, readOnly: true, recursiveReadOnly: resolveRecursiveReadOnly(m) ? 'Enabled' : 'Disabled' }
        : { name: m.name, mountPath: m.mountPath });
    mountStatuses.set(c, out);
  }
  st.volumeMounts = out;
}

/**
 * The status's resources (InPlacePodVerticalScaling, GA): the allocated resources, and for a running container the
 * cpu and memory the runtime reports instead (toKubeContainerResources of the cgroup values the kubelet gave it for
 * `applied`): the cpu request from the shares (sharesToMilliCPU(MilliCPUToShares(m)) is m, and 2m below that), the
 * cpu limit from the CFS quota (at least 1000 µs per 100 ms: 10m), the memory limit in bytes. The allocated cpu stays
 * where both are at or below what the cgroup tells apart (MinShares, MinMilliCPULimit); a limit the runtime does not
 * report keeps the old status's while the same container runs. Unchanged, it is `alloc` itself.
 */
// upstream: kubelet_pods.go convertToAPIContainerStatuses.convertContainerStatusResources;
//           kuberuntime_container_linux.go toKubeContainerResources; cm/helpers_linux.go MilliCPUToShares, MilliCPUToQuota
function statusResources(alloc: ResourceRequirements, applied: ResourceRequirements, running: boolean, cid: string, old: ContainerStatus | undefined): ResourceRequirements {
  if (!running) return alloc;
  let { limits, requests } = alloc;
  const kept = old?.state.running && old.containerID === cid ? old.resources?.limits : undefined;
  const set = (list: Record<string, string>, k: string, v: string | undefined): Record<string, string> =>
    v === undefined || list[k] === v ? list : { ...list, [k]: v };
  const cpu = (m: number, min: number, list: Record<string, string>): string | undefined =>
    m > min || milliCPU(list.cpu) > min ? formatMilliCPU(m) : undefined;
  const limit = milliCPU(applied.limits?.cpu);
  if (limits) {
    const memory = intValue(applied.limits?.memory);
    limits = set(limits, 'cpu', limit ? cpu(Math.max(10, limit), 10, limits) : kept?.cpu);
    limits = set(limits, 'memory', memory ? formatBinarySI(memory) : kept?.memory);
  }
  if (requests) requests = set(requests, 'cpu', cpu(Math.max(2, milliCPU(applied.requests?.cpu) || limit), 2, requests));
  return limits === alloc.limits && requests === alloc.requests ? alloc : { limits, requests };
}

// upstream: kubelet_pods.go convertToAPIContainerStatuses
function convertToAPIContainerStatuses(
  pod: Pod, rs: RuntimePodStatus, previous: ContainerStatus[] | undefined, containers: Container[],
  hasInitContainers: boolean, isInitContainer: boolean, reasons: ReasonCache, inputs: StatusInputs, applied: AppliedResources | undefined,
): ContainerStatus[] {
  const runtime = rs.ContainerStatuses;
  const defaultWaiting = hasInitContainers ? INITIALIZING : CREATING;
  // exactly as long as it ends up (a list grown by push keeps spare room, in every version of the status)
  const statuses: ContainerStatus[] = new Array(containers.length);
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    const o = previous && lastByName(previous, c.name);
    // container names are unique in a pod: the newest instance of each is its state, the one before its last state
    let newest: RuntimeContainerStatus | undefined;
    let older: RuntimeContainerStatus | undefined;
    for (const x of runtime) {
      if (x.Name !== c.name) continue;
      if (newest === undefined) newest = x;
      else {
        older = x;
        break;
      }
    }
    let st: ContainerStatus;
    if (newest !== undefined) {
      st = convertContainerStatus(newest, o, inputs);
      // the allocated container's requests, and its resources (InPlacePodVerticalScaling, GA)
      const alloc = c.resources ?? NO_RESOURCES;
      if (alloc.requests) st.allocatedResources = alloc.requests; // defaulting leaves no empty requests
      st.resources = statusResources(alloc, applied?.get(c.name) ?? alloc, newest.State === 'running', st.containerID!, o);
      if (o?.volumeMounts) st.volumeMounts = o.volumeMounts; // immutable
      if (older !== undefined) st.lastState = convertContainerStatus(older, o, inputs).state;
    } else if (o === undefined) {
      st = { name: c.name, state: defaultWaiting, lastState: NO_STATE, ready: false, restartCount: 0, image: c.image, imageID: '', started: false };
      setVolumeMounts(st, c);
    } else if (o.state.terminated) st = { ...o };
    else {
      st = { name: c.name, state: defaultWaiting, lastState: o.lastState, ready: false, restartCount: o.restartCount, image: c.image, imageID: '', started: false };
      setVolumeMounts(st, c);
      // a container that was running and vanished from the runtime: terminated with an unknown status
      if (o.state.running && !o.lastState.terminated) {
        st.lastState = VANISHED;
        if (!pod.metadata.deletionTimestamp) st.restartCount += 1;
      }
    }
    statuses[i] = st;
  }
  if (reasons.size > 0) applyReasonCache(pod, rs, statuses, containers, isInitContainer, reasons);
  // clients expect a deterministic order: init containers keep the spec's (SortStatusesOfInitContainers), the others
  // are sorted by name (SortedContainerStatuses), so the first by name, not the first in the spec, leads the list
  if (!isInitContainer && statuses.length > 1) statuses.sort(byName);
  return statuses;
}

const byName = (a: ContainerStatus, b: ContainerStatus): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A container the reason cache has a failure for, and that will be restarted, waits with that reason. */
function applyReasonCache(pod: Pod, rs: RuntimePodStatus, statuses: ContainerStatus[], containers: Container[], isInitContainer: boolean, reasons: ReasonCache): void {
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    const reason = reasons.get(c.name);
    if (!reason) continue;
    if (isInitContainer) {
      const s = findContainerStatusByName(rs, c.name);
      if (s && s.State === 'exited' && s.ExitCode === 0) continue;
    }
    if (!shouldContainerBeRestarted(c, pod, rs)) continue;
    const st = statuses[i];
    if (st.state.terminated) st.lastState = st.state;
    st.state = { waiting: { reason: reason.err, message: reason.message } };
  }
}

// upstream: kubelet_pods.go convertToAPIContainerStatuses.convertContainerStatus
function convertContainerStatus(cs: RuntimeContainerStatus, old: ContainerStatus | undefined, inputs: StatusInputs): ContainerStatus {
  // the old status's ID when it names the same container (one string for every version of the status)
  const oldID = old?.containerID;
  const cid = oldID !== undefined && oldID.length === cs.ID.length + 13 && oldID.endsWith(cs.ID) ? oldID : `containerd://${cs.ID}`;
  let state: ContainerState;
  let restartCount = cs.RestartCount;
  switch (cs.State) {
    case 'running':
      state = { running: { startedAt: inputs.rfc3339(cs.StartedAt!) } };
      break;
    case 'created':
      state = WAITING;
      break;
    case 'exited': {
      // the fields in their JSON order, absent ones left out
      const t = {} as NonNullable<ContainerState['terminated']>;
      if (cs.ExitCode !== undefined) t.exitCode = cs.ExitCode;
      if (cs.Reason !== undefined) t.reason = cs.Reason;
      if (cs.StartedAt !== undefined) t.startedAt = inputs.rfc3339(cs.StartedAt);
      if (cs.FinishedAt !== undefined) t.finishedAt = inputs.rfc3339(cs.FinishedAt);
      t.containerID = cid;
      if (cs.Message) t.message = cs.Message;
      state = { terminated: t };
      break;
    }
    default:
      if (old?.state.running) {
        state = UNKNOWN_TERMINATION;
        restartCount = old.restartCount + 1;
      } else state = WAITING;
  }
  return { name: cs.Name, state, lastState: NO_STATE, ready: false, restartCount, image: cs.Image, imageID: cs.ImageRef, containerID: cid, started: false };
}

/**
 * The new statuses, with each one equal to its old status replaced by the old object (and the old list itself when
 * nothing changed). Both come from this file, which builds every status and state with its keys in one order, so
 * equal values mean equal JSON.
 */
function shareUnchanged(statuses: ContainerStatus[], old: ContainerStatus[] | undefined): ContainerStatus[] {
  if (old === undefined) return statuses;
  let same = statuses.length === old.length;
  for (let i = 0; i < statuses.length; i++) {
    const o = lastByName(old, statuses[i].name);
    if (o !== undefined && deepEqual(statuses[i], o)) statuses[i] = o;
    if (statuses[i] !== old[i]) same = false;
  }
  return same ? old : statuses;
}

/** The spec of a regular or init container (the probers' containers), by name. */
function probedContainer(pod: Pod, name: string): Container | undefined {
  for (const c of pod.spec.containers) if (c.name === name) return c;
  for (const c of pod.spec.initContainers ?? []) if (c.name === name) return c;
  return undefined;
}

/** A prober's result for the container, kept by its runtime ID (none at all for the many pods without probes). */
function probeResult(results: Map<string, ProbeResult>, cs: ContainerStatus): ProbeResult | undefined {
  if (results.size === 0) return undefined;
  return results.get(cs.containerID?.replace('containerd://', '') ?? '');
}

// upstream: pkg/kubelet/prober/prober_manager.go isContainerStarted
function isStarted(pod: Pod, cs: ContainerStatus, inputs: StatusInputs): boolean {
  if (!cs.state.running) return false;
  const r = probeResult(inputs.startup, cs);
  if (r !== undefined) return r === 'Success';
  return !probedContainer(pod, cs.name)?.startupProbe;
}

function isReady(pod: Pod, cs: ContainerStatus, inputs: StatusInputs): boolean {
  if (!cs.state.running) return false;
  if (probeResult(inputs.readiness, cs) === 'Success') return true;
  return !probedContainer(pod, cs.name)?.readinessProbe;
}

// upstream: pkg/kubelet/prober/prober_manager.go UpdatePodStatus
// (the statuses above are all made with a `started` key, so setting it here keeps their keys' order)
function applyProbeState(pod: Pod, s: PodStatus, inputs: StatusInputs): void {
  for (const cs of s.containerStatuses ?? []) {
    cs.started = isStarted(pod, cs, inputs);
    cs.ready = cs.started ? isReady(pod, cs, inputs) : false;
  }
  const inits = s.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const cs = inits[i];
    cs.started = isStarted(pod, cs, inputs);
    const spec = pod.spec.initContainers![i];
    if (!isRestartableInitContainer(spec)) {
      cs.ready = !!cs.state.terminated && cs.state.terminated.exitCode === 0;
      continue;
    }
    cs.ready = cs.started ? isReady(pod, cs, inputs) : false;
  }
}

/** [{ ip }], or the old list when it is that. */
const oneIP = (ip: string, old: PodIP[] | undefined): PodIP[] => (old?.length === 1 && old[0].ip === ip ? old : [{ ip }]);

/** generateAPIPodStatus: the status the kubelet writes, before the status manager's merge. */
// upstream: pkg/kubelet/kubelet_pods.go generateAPIPodStatus
export function generateAPIPodStatus(
  pod: Pod, rs: RuntimePodStatus, oldStatus: PodStatus, podIsTerminal: boolean, reasons: ReasonCache, inputs: StatusInputs,
  applied?: AppliedResources, evict?: { reason: string; message: string },
): PodStatus {
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const s: PodStatus = { phase: 'Pending' };
  const containerStatuses = convertToAPIContainerStatuses(pod, rs, oldStatus.containerStatuses, pod.spec.containers, hasInit, false, reasons, inputs, applied);
  const initStatuses = hasInit
    ? convertToAPIContainerStatuses(pod, rs, oldStatus.initContainerStatuses, pod.spec.initContainers!, hasInit, true, reasons, inputs, applied)
    : undefined;
  let podHasInitialized = false;
  for (let i = 0; i < rs.ContainerStatuses.length; i++) {
    const c = rs.ContainerStatuses[i];
    if (c.State !== 'running' && c.State !== 'exited' && c.State !== 'created') continue;
    for (let j = 0; j < pod.spec.containers.length; j++) if (pod.spec.containers[j].name === c.Name) podHasInitialized = true;
    if (podHasInitialized) break;
  }
  let phase = getPhase(pod, initStatuses ? [...containerStatuses, ...initStatuses] : containerStatuses, podIsTerminal, podHasInitialized);
  const api = pod.status;
  const apiTerminal = api.phase === 'Failed' || api.phase === 'Succeeded';
  if (phase !== 'Failed' && phase !== 'Succeeded') {
    if (oldStatus.phase === 'Failed' || oldStatus.phase === 'Succeeded') phase = oldStatus.phase;
    else if (apiTerminal) phase = api.phase;
  }
  s.phase = phase;
  if (phase === oldStatus.phase) {
    const reason = oldStatus.reason || api.reason;
    const message = oldStatus.message || api.message;
    if (reason) s.reason = reason;
    if (message) s.message = message;
  }
  // a pod sync handler that asks for the pod's eviction (the active deadline) overrides phase, reason and message,
  // before the conditions are made from the phase: an evicted pod is not Ready
  if (evict) {
    s.phase = 'Failed';
    s.reason = evict.reason;
    s.message = evict.message;
  }
  // pods are not allowed to transition out of terminal phases: the API server's terminal phase stands
  if (apiTerminal) s.phase = api.phase;
  phase = s.phase;
  s.containerStatuses = containerStatuses;
  if (initStatuses) s.initContainerStatuses = initStatuses;
  applyProbeState(pod, s, inputs);
  s.containerStatuses = shareUnchanged(containerStatuses, oldStatus.containerStatuses);
  if (initStatuses) s.initContainerStatuses = shareUnchanged(initStatuses, oldStatus.initContainerStatuses);
  const ecs = pod.spec.ephemeralContainers;
  if (ecs) {
    // the probers never look at ephemeral containers: ready stays false and started unset
    const list = convertToAPIContainerStatuses(pod, rs, oldStatus.ephemeralContainerStatuses, ecs, hasInit, false, reasons, inputs, applied);
    for (const x of list) delete x.started;
    s.ephemeralContainerStatuses = shareUnchanged(list, oldStatus.ephemeralContainerStatuses);
  }

  const conditions: Cond[] = [];
  const apiConditions = api.conditions ?? [];
  for (let i = 0; i < apiConditions.length; i++) if (!isKubeletCondition(apiConditions[i].type)) conditions.push(apiConditions[i]);
  conditions.push(generatePodReadyToStartContainersCondition(pod, rs));
  const allStatuses = initStatuses ? [...initStatuses, ...containerStatuses] : containerStatuses;
  const containersReady = generateContainersReadyCondition(pod, allStatuses, phase);
  conditions.push(generatePodInitializedCondition(pod, allStatuses, phase));
  conditions.push(generatePodReadyCondition(pod, allStatuses, phase, apiConditions, containersReady));
  conditions.push(containersReady);
  conditions.push(SCHEDULED);
  s.conditions = conditions as PodCondition[];

  s.hostIP = inputs.hostIP;
  s.hostIPs = oneIP(inputs.hostIP, oldStatus.hostIPs);
  if (pod.spec.hostNetwork) {
    s.podIP = inputs.hostIP;
    s.podIPs = oneIP(inputs.hostIP, oldStatus.podIPs);
  } else if (rs.IPs.length) {
    s.podIP = rs.IPs[0];
    s.podIPs = rs.IPs.length === 1 ? oneIP(rs.IPs[0], oldStatus.podIPs) : rs.IPs.map((ip) => ({ ip }));
  }
  s.qosClass = api.qosClass;
  return s;
}

// upstream: pkg/kubelet/status/status_manager.go hasPodInitialized
function hasPodInitialized(pod: Pod, status: PodStatus): boolean {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return true;
  if ((status.containerStatuses ?? []).some((s) => s.lastState.terminated || !s.state.waiting)) return true;
  const list = status.initContainerStatuses ?? [];
  const last = list[list.length - 1];
  const spec = last && inits.find((c) => c.name === last.name);
  if (!last || !spec) return false;
  if (isRestartableInitContainer(spec)) return !!last.state.running && last.started === true;
  return last.lastState.terminated?.exitCode === 0 || last.state.terminated?.exitCode === 0;
}

/**
 * TerminatePod: at the end of the pod's life every container has a terminated state (an absent one counts as a
 * failure) and the phase is terminal: Pending or Running become Failed.
 */
// upstream: pkg/kubelet/status/status_manager.go (*manager).TerminatePod
export function terminatePodStatus(pod: Pod, old: PodStatus): PodStatus {
  // a copy of the old status that shares what does not change
  const status: PodStatus = { ...old };
  if (old.containerStatuses && hasPodInitialized(pod, old)) {
    status.containerStatuses = markTerminated(old.containerStatuses, old.containerStatuses.length);
  }
  // all but the final suffix of init containers with no evidence of a start (waiting, and no last termination) are
  // marked failed; the first one always is (initializedContainers returns at least one)
  const inits = old.initContainerStatuses;
  if (inits) {
    let end = inits.length;
    while (end > 0 && inits[end - 1].state.waiting && !inits[end - 1].lastState.terminated) end--;
    status.initContainerStatuses = markTerminated(inits, Math.max(end, Math.min(1, inits.length)));
  }
  if (status.phase === 'Pending' || status.phase === 'Running') status.phase = 'Failed';
  return status;
}

/** The statuses, the first `end` of them with an unknown termination where they have no terminated state. */
function markTerminated(list: ContainerStatus[], end: number): ContainerStatus[] {
  let out = list;
  for (let i = 0; i < end; i++) {
    if (list[i].state.terminated) continue;
    if (out === list) out = list.slice();
    out[i] = { ...list[i], state: UNKNOWN_TERMINATION };
  }
  return out;
}
