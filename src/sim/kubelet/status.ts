// The pod status the kubelet writes: getPhase, the kubelet-owned conditions in their real order, and the
// container statuses (convertToAPIContainerStatuses with the reason cache, the probe manager's ready/started).
// upstream: pkg/kubelet/kubelet_pods.go (getPhase, generateAPIPodStatus, convertToAPIContainerStatuses);
//           pkg/kubelet/status/generate.go; pkg/kubelet/prober/prober_manager.go UpdatePodStatus

import type { Container, ContainerState, ContainerStatus, Pod, PodCondition, PodPhase, PodStatus } from '../types.ts';
import { isRestartableInitContainer, podSandboxChanged, shouldContainerBeRestarted, type ProbeResult } from './podactions.ts';
import type { RuntimeContainerStatus, RuntimePodStatus } from './podstatus.ts';
import { clone } from '../core/clone.ts';

/** getPhase(pod, info, podIsTerminal, podHasInitialized), without the ContainerRestartRules gate. */
// upstream: pkg/kubelet/kubelet_pods.go getPhase
export function getPhase(pod: Pod, info: ContainerStatus[], podIsTerminal: boolean, podHasInitialized: boolean): PodPhase {
  const spec = pod.spec;
  let pendingRestartableInit = 0;
  let pendingRegularInit = 0;
  let failedInitialization = 0;
  for (const c of spec.initContainers ?? []) {
    const cs = info.find((s) => s.name === c.name);
    if (isRestartableInitContainer(c)) {
      if (!cs) continue; // counted with the regular containers below
      continue;
    }
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
    const cs = info.find((s) => s.name === c.name);
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
    const cs = info.find((s) => s.name === c.name);
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

const statusOf = (list: ContainerStatus[], name: string): ContainerStatus | undefined => {
  for (const s of list) if (s.name === name) return s;
  return undefined;
};
const goList = (names: string[]): string => `[${names.join(' ')}]`;

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
  return { type: 'PodReadyToStartContainers', status: podSandboxChanged(pod, s).changed ? 'False' : 'True' };
}

// upstream: generate.go GeneratePodInitializedCondition
export function generatePodInitializedCondition(pod: Pod, statuses: ContainerStatus[] | null, phase: PodPhase): Cond {
  const inits = pod.spec.initContainers ?? [];
  if (statuses === null && inits.length > 0) return { type: 'Initialized', status: 'False', reason: 'UnknownContainerStatuses' };
  const list = statuses ?? [];
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const cs = statusOf(list, c.name);
    if (!cs) {
      unknown.push(c.name);
      continue;
    }
    if (isRestartableInitContainer(c)) {
      if (cs.started !== true) incomplete.push(c.name);
    } else if (!cs.ready) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  if (hasAnyRegularContainerStarted(pod, list)) return { type: 'Initialized', status: 'True' };
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length) msgs.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (msgs.length) return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: msgs.join(', ') };
  return { type: 'Initialized', status: 'True' };
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
  if (!unknown && !unready) return { type: 'ContainersReady', status: 'True' };
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
  const msgs: string[] = [];
  for (const g of pod.spec.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === g.conditionType);
    if (!c) msgs.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
    else if (c.status !== 'True') msgs.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`);
  }
  if (msgs.length) return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: msgs.join(', ') };
  return { type: 'Ready', status: 'True' };
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
  return type === 'PodReadyToStartContainers' || type === 'Initialized' || type === 'Ready' || type === 'ContainersReady' || type === 'PodScheduled';
}

/** The status of the container named `name`: the last one in the list (the Map upstream builds keeps the last). */
function lastByName(list: ContainerStatus[], name: string): ContainerStatus | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].name === name) return list[i];
  return undefined;
}

// upstream: kubelet_pods.go convertToAPIContainerStatuses
function convertToAPIContainerStatuses(
  pod: Pod, rs: RuntimePodStatus, previous: ContainerStatus[] | undefined, containers: Container[],
  hasInitContainers: boolean, isInitContainer: boolean, reasons: ReasonCache, inputs: StatusInputs,
): ContainerStatus[] {
  // container names are unique in a pod, so the statuses are kept by the container's index
  const prev = previous ?? [];
  const runtime = rs.ContainerStatuses;
  const defaultReason = hasInitContainers ? 'PodInitializing' : 'ContainerCreating';
  const defaultWaiting: ContainerState = { waiting: { reason: defaultReason } };
  const n = containers.length;
  const olds: (ContainerStatus | undefined)[] = [];
  const statuses: ContainerStatus[] = [];
  for (const c of containers) {
    let st: ContainerStatus = { name: c.name, state: defaultWaiting, lastState: {}, ready: false, restartCount: 0, image: c.image, imageID: '' };
    const o = lastByName(prev, c.name);
    if (o) {
      if (o.state.terminated) st = { ...o };
      else st = { ...st, restartCount: o.restartCount, lastState: o.lastState };
    }
    olds.push(o);
    statuses.push(st);
  }
  // a container that was running and vanished from the runtime: terminated with an unknown status
  for (let i = 0; i < n; i++) {
    const o = olds[i];
    if (!o || o.state.terminated || !o.state.running) continue;
    const name = containers[i].name;
    let inRuntime = false;
    let created = false;
    for (const x of runtime) {
      if (x.Name !== name) continue;
      inRuntime = true;
      if (x.State === 'created') created = true;
    }
    if (created) continue;
    const st = statuses[i];
    if (st.state.waiting?.reason !== defaultReason || st.lastState.terminated) continue;
    if (inRuntime) continue;
    st.lastState = {
      terminated: {
        reason: 'ContainerStatusUnknown',
        message: 'The container could not be located when the pod was deleted.  The container used to be Running',
        exitCode: 137,
      },
    };
    if (!pod.metadata.deletionTimestamp) st.restartCount += 1;
  }
  // the newest instance of each container is its state, the one before its last state
  const seen: number[] = new Array(n).fill(0);
  for (const cs of runtime) {
    let i = 0;
    while (i < n && containers[i].name !== cs.Name) i++;
    if (i === n || seen[i] >= 2) continue;
    const conv = convertContainerStatus(cs, olds[i], inputs);
    if (seen[i] === 0) statuses[i] = conv;
    else statuses[i].lastState = conv.state;
    seen[i]++;
  }
  if (reasons.size === 0) return statuses;
  for (let i = 0; i < n; i++) {
    const c = containers[i];
    const reason = reasons.get(c.name);
    if (!reason) continue;
    if (isInitContainer) {
      const s = runtime.find((x) => x.Name === c.name);
      if (s && s.State === 'exited' && s.ExitCode === 0) continue;
    }
    if (!shouldContainerBeRestarted(c, pod, rs)) continue;
    const st = statuses[i];
    if (st.state.terminated) st.lastState = st.state;
    st.state = { waiting: { reason: reason.err, message: reason.message } };
  }
  return statuses;
}

// upstream: kubelet_pods.go convertToAPIContainerStatuses.convertContainerStatus
function convertContainerStatus(cs: RuntimeContainerStatus, old: ContainerStatus | undefined, inputs: StatusInputs): ContainerStatus {
  const cid = `containerd://${cs.ID}`;
  const st: ContainerStatus = {
    name: cs.Name,
    state: {},
    lastState: {},
    ready: false,
    restartCount: cs.RestartCount,
    image: cs.Image,
    imageID: cs.ImageRef,
    containerID: cid,
  };
  switch (cs.State) {
    case 'running':
      st.state = { running: { startedAt: inputs.rfc3339(cs.StartedAt!) } };
      break;
    case 'created':
      st.state = { waiting: {} };
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
      st.state = { terminated: t };
      break;
    }
    default:
      if (old?.state.running) {
        st.state = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 } };
        st.restartCount = old.restartCount + 1;
      } else st.state = { waiting: {} };
  }
  return st;
}

/** The spec of a regular or init container (the probers' containers), by name. */
function probedContainer(pod: Pod, name: string): Container | undefined {
  for (const c of pod.spec.containers) if (c.name === name) return c;
  for (const c of pod.spec.initContainers ?? []) if (c.name === name) return c;
  return undefined;
}

const runtimeID = (cs: ContainerStatus): string => cs.containerID?.replace('containerd://', '') ?? '';

// upstream: pkg/kubelet/prober/prober_manager.go isContainerStarted
function isStarted(pod: Pod, cs: ContainerStatus, inputs: StatusInputs): boolean {
  if (!cs.state.running) return false;
  const r = inputs.startup.get(runtimeID(cs));
  if (r !== undefined) return r === 'Success';
  return !probedContainer(pod, cs.name)?.startupProbe;
}

function isReady(pod: Pod, cs: ContainerStatus, inputs: StatusInputs): boolean {
  if (!cs.state.running) return false;
  if (inputs.readiness.get(runtimeID(cs)) === 'Success') return true;
  return !probedContainer(pod, cs.name)?.readinessProbe;
}

// upstream: pkg/kubelet/prober/prober_manager.go UpdatePodStatus
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

/** generateAPIPodStatus: the status the kubelet writes, before the status manager's merge. */
// upstream: pkg/kubelet/kubelet_pods.go generateAPIPodStatus
export function generateAPIPodStatus(
  pod: Pod, rs: RuntimePodStatus, oldStatus: PodStatus, podIsTerminal: boolean, reasons: ReasonCache, inputs: StatusInputs,
): PodStatus {
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const s: PodStatus = { phase: 'Pending' };
  const containerStatuses = convertToAPIContainerStatuses(pod, rs, oldStatus.containerStatuses, pod.spec.containers, hasInit, false, reasons, inputs);
  const initStatuses = hasInit
    ? convertToAPIContainerStatuses(pod, rs, oldStatus.initContainerStatuses, pod.spec.initContainers!, hasInit, true, reasons, inputs)
    : undefined;
  let podHasInitialized = false;
  for (const c of rs.ContainerStatuses) {
    if (c.State !== 'running' && c.State !== 'exited' && c.State !== 'created') continue;
    if (pod.spec.containers.some((x) => x.name === c.Name)) {
      podHasInitialized = true;
      break;
    }
  }
  let phase = getPhase(pod, initStatuses ? [...containerStatuses, ...initStatuses] : containerStatuses, podIsTerminal, podHasInitialized);
  if (phase !== 'Failed' && phase !== 'Succeeded') {
    if (oldStatus.phase === 'Failed' || oldStatus.phase === 'Succeeded') phase = oldStatus.phase;
    else if (pod.status.phase === 'Failed' || pod.status.phase === 'Succeeded') phase = pod.status.phase;
  }
  if (pod.status.phase === 'Failed' || pod.status.phase === 'Succeeded') phase = pod.status.phase;
  s.phase = phase;
  if (phase === oldStatus.phase) {
    const reason = oldStatus.reason || pod.status.reason;
    const message = oldStatus.message || pod.status.message;
    if (reason) s.reason = reason;
    if (message) s.message = message;
  }
  s.containerStatuses = containerStatuses;
  if (initStatuses) s.initContainerStatuses = initStatuses;
  applyProbeState(pod, s, inputs);

  const conditions: Cond[] = [];
  for (const c of pod.status.conditions ?? []) if (!isKubeletCondition(c.type)) conditions.push(c);
  conditions.push(generatePodReadyToStartContainersCondition(pod, rs));
  const allStatuses = initStatuses ? [...initStatuses, ...containerStatuses] : containerStatuses;
  const containersReady = generateContainersReadyCondition(pod, allStatuses, phase);
  conditions.push(generatePodInitializedCondition(pod, allStatuses, phase));
  conditions.push(generatePodReadyCondition(pod, allStatuses, phase, pod.status.conditions ?? [], containersReady));
  conditions.push(containersReady);
  conditions.push({ type: 'PodScheduled', status: 'True' });
  s.conditions = conditions as PodCondition[];

  s.hostIP = inputs.hostIP;
  s.hostIPs = [{ ip: inputs.hostIP }];
  if (pod.spec.hostNetwork) {
    s.podIP = inputs.hostIP;
    s.podIPs = [{ ip: inputs.hostIP }];
  } else if (rs.IPs.length) {
    s.podIP = rs.IPs[0];
    s.podIPs = rs.IPs.map((ip) => ({ ip }));
  }
  s.qosClass = pod.status.qosClass;
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

const UNKNOWN_TERMINATION = {
  terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 },
};

/**
 * TerminatePod: at the end of the pod's life every container has a terminated state (an absent one counts as a
 * failure) and the phase is terminal: Pending or Running become Failed.
 */
// upstream: pkg/kubelet/status/status_manager.go (*manager).TerminatePod
export function terminatePodStatus(pod: Pod, old: PodStatus): PodStatus {
  const status: PodStatus = clone(old);
  if (hasPodInitialized(pod, status)) {
    for (const cs of status.containerStatuses ?? []) {
      if (!cs.state.terminated) cs.state = clone(UNKNOWN_TERMINATION);
    }
  }
  // all but the final suffix of waiting init containers (those never started) are marked failed
  const inits = status.initContainerStatuses ?? [];
  let end = inits.length;
  while (end > 0 && inits[end - 1].state.waiting) end--;
  for (let i = 0; i < end; i++) if (!inits[i].state.terminated) inits[i].state = clone(UNKNOWN_TERMINATION);
  if (status.phase === 'Pending' || status.phase === 'Running') status.phase = 'Failed';
  return status;
}
