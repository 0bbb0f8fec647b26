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

const statusOf = (list: ContainerStatus[], name: string): ContainerStatus | undefined => list.find((s) => s.name === name);
const goList = (names: string[]): string => `[${names.join(' ')}]`;

// upstream: pkg/kubelet/container/helpers.go HasAnyRegularContainerStarted
export function hasAnyRegularContainerStarted(pod: Pod, statuses: ContainerStatus[]): boolean {
  const names = new Set(pod.spec.containers.map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (!!s.state.running || !!s.state.terminated));
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
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (c: Container): void => {
    const cs = statusOf(statuses, c.name);
    if (!cs) unknown.push(c.name);
    else if (!cs.ready) unready.push(c.name);
  };
  for (const c of pod.spec.initContainers ?? []) if (isRestartableInitContainer(c)) check(c);
  for (const c of pod.spec.containers) check(c);
  if (phase === 'Succeeded' && unknown.length === 0) return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length) msgs.push(`containers with unready status: ${goList(unready)}`);
  if (msgs.length) return { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: msgs.join(', ') };
  return { type: 'ContainersReady', status: 'True' };
}

// upstream: generate.go GeneratePodReadyCondition
export function generatePodReadyCondition(pod: Pod, statuses: ContainerStatus[] | null, phase: PodPhase, conditions: PodCondition[]): Cond {
  const cr = generateContainersReadyCondition(pod, statuses, phase);
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

/** What the kubelet knows besides the runtime: reasons of failed starts and the probers' results. */
export interface StatusInputs {
  /** reasonCache: container name → the last start failure (Err is the waiting reason). */
  reasons: Map<string, { err: string; message: string }>;
  readiness: Map<string, ProbeResult>;
  startup: Map<string, ProbeResult>;
  /** Containers that have a readiness / startup probe. */
  hasReadinessProbe: (name: string) => boolean;
  hasStartupProbe: (name: string) => boolean;
  hostIP: string;
  rfc3339: (t: number) => string;
}

const KUBELET_CONDITIONS = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);

// upstream: kubelet_pods.go convertToAPIContainerStatuses
function convertToAPIContainerStatuses(
  pod: Pod, rs: RuntimePodStatus, previous: ContainerStatus[] | undefined, containers: Container[],
  hasInitContainers: boolean, isInitContainer: boolean, inputs: StatusInputs,
): ContainerStatus[] {
  const old = new Map((previous ?? []).map((s) => [s.name, s]));
  const defaultWaiting: ContainerState = { waiting: { reason: hasInitContainers ? 'PodInitializing' : 'ContainerCreating' } };
  const statuses = new Map<string, ContainerStatus>();
  for (const c of containers) {
    let st: ContainerStatus = { name: c.name, state: defaultWaiting, lastState: {}, ready: false, restartCount: 0, image: c.image, imageID: '' };
    const o = old.get(c.name);
    if (o) {
      if (o.state.terminated) st = { ...o };
      else st = { ...st, restartCount: o.restartCount, lastState: o.lastState };
    }
    statuses.set(c.name, st);
  }
  // a container that was running and vanished from the runtime: terminated with an unknown status
  for (const c of containers) {
    if (rs.ContainerStatuses.some((x) => x.Name === c.name && x.State === 'created')) continue;
    const o = old.get(c.name);
    if (!o || o.state.terminated || !o.state.running) continue;
    const st = statuses.get(c.name)!;
    const isDefault = st.state.waiting?.reason === (hasInitContainers ? 'PodInitializing' : 'ContainerCreating');
    if (!isDefault || st.lastState.terminated) continue;
    if (rs.ContainerStatuses.some((x) => x.Name === c.name)) continue;
    st.lastState = {
      terminated: {
        reason: 'ContainerStatusUnknown',
        message: 'The container could not be located when the pod was deleted.  The container used to be Running',
        exitCode: 137,
      },
    };
    if (!pod.metadata.deletionTimestamp) st.restartCount += 1;
  }
  const seen = new Map<string, number>();
  for (const cs of rs.ContainerStatuses) {
    const st0 = statuses.get(cs.Name);
    if (!st0) continue;
    const n = seen.get(cs.Name) ?? 0;
    if (n >= 2) continue;
    const conv = convertContainerStatus(cs, old.get(cs.Name), inputs);
    if (n === 0) statuses.set(cs.Name, conv);
    else st0.lastState = conv.state;
    seen.set(cs.Name, n + 1);
  }
  for (const c of containers) {
    if (isInitContainer) {
      const s = rs.ContainerStatuses.find((x) => x.Name === c.name);
      if (s && s.State === 'exited' && s.ExitCode === 0) continue;
    }
    if (!shouldContainerBeRestarted(c, pod, rs)) continue;
    const reason = inputs.reasons.get(c.name);
    if (!reason) continue;
    const st = statuses.get(c.name)!;
    if (st.state.terminated) st.lastState = st.state;
    st.state = { waiting: { reason: reason.err, message: reason.message } };
  }
  return containers.map((c) => statuses.get(c.name)!);
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
      const t: NonNullable<ContainerState['terminated']> = {
        exitCode: cs.ExitCode,
        reason: cs.Reason,
        startedAt: cs.StartedAt !== undefined ? inputs.rfc3339(cs.StartedAt) : undefined,
        finishedAt: cs.FinishedAt !== undefined ? inputs.rfc3339(cs.FinishedAt) : undefined,
        containerID: cid,
      };
      if (cs.Message) t.message = cs.Message;
      for (const k of Object.keys(t) as (keyof typeof t)[]) if (t[k] === undefined) delete t[k];
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

// upstream: pkg/kubelet/prober/prober_manager.go UpdatePodStatus, isContainerStarted
function applyProbeState(pod: Pod, s: PodStatus, inputs: StatusInputs): void {
  const started = (cs: ContainerStatus): boolean => {
    if (!cs.state.running) return false;
    const id = cs.containerID?.replace('containerd://', '') ?? '';
    const r = inputs.startup.get(id);
    if (r !== undefined) return r === 'Success';
    return !inputs.hasStartupProbe(cs.name);
  };
  const ready = (cs: ContainerStatus): boolean => {
    if (!cs.state.running) return false;
    const id = cs.containerID?.replace('containerd://', '') ?? '';
    if (inputs.readiness.get(id) === 'Success') return true;
    return !inputs.hasReadinessProbe(cs.name);
  };
  for (const cs of s.containerStatuses ?? []) {
    cs.started = started(cs);
    cs.ready = cs.started ? ready(cs) : false;
  }
  (s.initContainerStatuses ?? []).forEach((cs, i) => {
    cs.started = started(cs);
    const spec = pod.spec.initContainers![i];
    if (!isRestartableInitContainer(spec)) {
      cs.ready = !!cs.state.terminated && cs.state.terminated.exitCode === 0;
      return;
    }
    cs.ready = cs.started ? ready(cs) : false;
  });
}

/** generateAPIPodStatus: the status the kubelet writes, before the status manager's merge. */
// upstream: pkg/kubelet/kubelet_pods.go generateAPIPodStatus
export function generateAPIPodStatus(
  pod: Pod, rs: RuntimePodStatus, oldStatus: PodStatus, podIsTerminal: boolean, inputs: StatusInputs,
): PodStatus {
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const s: PodStatus = { phase: 'Pending' };
  const containerStatuses = convertToAPIContainerStatuses(pod, rs, oldStatus.containerStatuses, pod.spec.containers, hasInit, false, inputs);
  const initStatuses = hasInit
    ? convertToAPIContainerStatuses(pod, rs, oldStatus.initContainerStatuses, pod.spec.initContainers!, hasInit, true, inputs)
    : undefined;
  const all = [...containerStatuses, ...(initStatuses ?? [])];
  const podHasInitialized = rs.ContainerStatuses.some(
    (c) => pod.spec.containers.some((x) => x.name === c.Name) && (c.State === 'running' || c.State === 'exited' || c.State === 'created'),
  );
  let phase = getPhase(pod, all, podIsTerminal, podHasInitialized);
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

  const conditions: Cond[] = (pod.status.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.has(c.type));
  conditions.push(generatePodReadyToStartContainersCondition(pod, rs));
  const allStatuses = [...(s.initContainerStatuses ?? []), ...s.containerStatuses];
  conditions.push(generatePodInitializedCondition(pod, allStatuses, phase));
  conditions.push(generatePodReadyCondition(pod, allStatuses, phase, pod.status.conditions ?? []));
  conditions.push(generateContainersReadyCondition(pod, allStatuses, phase));
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
