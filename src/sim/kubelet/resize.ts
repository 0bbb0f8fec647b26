// In-place pod resize on the kubelet's side (InPlacePodVerticalScaling, GA): the allocation manager's admission of
// a resize against the node, computePodResizeAction, SyncPod's step 8 (doPodResizeAction), and the status of a
// resized pod. Loaded with the resize support (src/sim/resize.ts), so an engine that never resizes leaves it out;
// the kubelet calls it only for a pod that has been resized.
// upstream: pkg/kubelet/allocation/allocation_manager.go, pkg/kubelet/allocation/handlers.go,
//           pkg/kubelet/lifecycle/predicate.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go,
//           pkg/kubelet/kuberuntime/kuberuntime_container_linux.go, pkg/kubelet/kubelet_pods.go

import type { CriLinuxResources, Node, Pod, PodCondition, PodStatus, ResourceRequirements } from '../types.ts';
import { intValue, milliCPU } from '../api/quantity.ts';
import { allocatable, podRequests } from '../scheduler/framework.ts';
import type { PodActions } from './podactions.ts';
import { findContainerStatusByName, type RuntimeContainerStatus, type RuntimePodStatus } from './podstatus.ts';
import { podObject, recordPodEvent, type NodeEnv } from './env.ts';
import { isKubeletCondition } from './status.ts';

/**
 * A resized pod, from its first resize on: the allocation manager's allocated pod and actuated resources (what the
 * runtime applied, per container) and the status manager's resize conditions.
 */
export interface PodResize {
  allocated: Pod;
  actuated: Map<string, ResourceRequirements>;
  pending?: PodCondition;
  inProgress?: PodCondition;
}

/** containerResources: the four values a resize compares (millicores, bytes). */
export interface ContainerResources {
  cpuRequest: number;
  cpuLimit: number;
  memoryRequest: number;
  memoryLimit: number;
}

/** containerToUpdateInfo */
export interface ContainerToUpdateInfo {
  name: string;
  id: string;
  resources: ResourceRequirements;
  desired: ContainerResources;
  current: ContainerResources;
}

export function containerResources(r: ResourceRequirements | undefined): ContainerResources {
  return {
    cpuRequest: milliCPU(r?.requests?.cpu), cpuLimit: milliCPU(r?.limits?.cpu),
    memoryRequest: intValue(r?.requests?.memory), memoryLimit: intValue(r?.limits?.memory),
  };
}

const key = (r: ResourceRequirements | undefined): string => Object.values(containerResources(r)).join();

/** The cpu and memory of two resource requirements are equal (apiequality.Semantic on the quantities). */
export function sameResources(a: ResourceRequirements | undefined, b: ResourceRequirements | undefined): boolean {
  return a === b || key(a) === key(b);
}

/** The pod with each container's resources as `allocated` has them (the pod itself when they are all equal). */
// upstream: allocation_manager.go updatePodFromAllocation
export function updatePodFromAllocation(pod: Pod, allocated: Pod): Pod {
  const list = pod.spec.containers;
  let containers: typeof list | undefined;
  list.forEach((c, i) => {
    const a = allocated.spec.containers.find((x) => x.name === c.name);
    if (a && !sameResources(a.resources, c.resources)) (containers ??= list.slice())[i] = { ...c, resources: a.resources };
  });
  return containers ? { ...pod, spec: { ...pod.spec, containers } } : pod;
}

/**
 * The status manager's resize condition: the generation it is about, set now; a condition that keeps its reason
 * keeps its transition time.
 */
// upstream: pkg/kubelet/status/status_manager.go SetPodResizePendingCondition, SetPodResizeInProgressCondition
function resizeCondition(type: string, old: PodCondition | undefined, reason: string, message: string, generation: number, now: string): PodCondition {
  const c: PodCondition = {
    type, observedGeneration: generation, status: 'True', lastProbeTime: now,
    lastTransitionTime: old && (old.reason ?? '') === reason ? old.lastTransitionTime : now,
  };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/**
 * The resize events' message: a prefix, then the containers' resources of `pod` and the generation as JSON (Go's
 * encoding/json: struct fields in declaration order, map keys sorted, empty lists and maps left out).
 */
// upstream: pkg/kubelet/events/resize.go podResizeMessage, makeResourceSummaryFromSpec
export function podResizeMessage(prefix: string, pod: Pod, generation: number, error = ''): string {
  const list = (cs: Pod['spec']['containers'] | undefined) => cs?.length ? cs.map((c) => ({ name: c.name, resources: goResources(c.resources) })) : undefined;
  return `${prefix}: ${JSON.stringify({ initContainers: list(pod.spec.initContainers), containers: list(pod.spec.containers), generation, error: error || undefined })}`;
}

function goResources(r: ResourceRequirements | undefined): Record<string, Record<string, string>> {
  const sorted = (m: Record<string, unknown> | undefined) =>
    m && Object.keys(m).length ? Object.fromEntries(Object.keys(m).sort().map((k) => [k, String(m[k])])) : undefined;
  return { limits: sorted(r?.limits), requests: sorted(r?.requests) } as Record<string, Record<string, string>>;
}

/**
 * handlePodResourcesResize: a new generation whose container resources differ from the allocation is allocated
 * when the node can hold it (event ResizeStarted, then PodResizeInProgress until the runtime applied it), else left
 * pending: Infeasible when its requests exceed the node's allocatable, Deferred when they do not fit beside the
 * other pods' allocations (the predicate admit handler's first insufficient resource, cpu before memory); a pending
 * condition that changed is also a ResizeInfeasible or ResizeDeferred warning. `allocated`: the pod as allocated
 * so far. Returns the trace event (kind, detail) of a resize, or undefined.
 */
// upstream: allocation_manager.go handlePodResourcesResize; allocation/handlers.go (*podResizesAdmitHandler).Admit;
//           lifecycle/predicate.go InsufficientResourceError; scheduler noderesources/fit.go fitsRequest
export function handlePodResourcesResize(
  env: NodeEnv, resized: Map<string, PodResize>, pod: Pod, allocated: Pod, others: Pod[], node: Node,
): [string, string] | undefined {
  let st = resized.get(pod.metadata.uid);
  if (updatePodFromAllocation(pod, allocated) === pod) {
    if (st) st.pending = undefined;
    return undefined;
  }
  // the containers running now were created with the allocation so far
  if (!st) resized.set(pod.metadata.uid, (st = { allocated, actuated: new Map(allocated.spec.containers.map((c) => [c.name, c.resources])) }));
  const alloc = allocatable(node);
  const r = podRequests(pod);
  const generation = pod.metadata.generation ?? 1;
  const now = env.ctx.rfc3339();
  let reason = 'Infeasible';
  let message: string | undefined;
  if (r.memory > alloc.memory) message = `Node didn't have enough capacity: memory, requested: ${r.memory}, capacity: ${alloc.memory}`;
  else if (r.milliCPU > alloc.milliCPU) message = `Node didn't have enough capacity: cpu, requested: ${r.milliCPU}, capacity: ${alloc.milliCPU}`;
  else {
    let cpu = 0;
    let memory = 0;
    for (const o of others) {
      const q = podRequests(resized.get(o.metadata.uid)?.allocated ?? o);
      cpu += q.milliCPU;
      memory += q.memory;
    }
    reason = 'Deferred';
    const short = (name: string, req: number, used: number, cap: number): string | undefined =>
      req > 0 && req > cap - used ? `Node didn't have enough resource: ${name}, requested: ${req}, used: ${used}, capacity: ${cap}` : undefined;
    message = short('cpu', r.milliCPU, cpu, alloc.milliCPU) ?? short('memory', r.memory, memory, alloc.memory);
  }
  if (message) {
    const old = st.pending;
    st.pending = resizeCondition('PodResizePending', old, reason, message, generation, now);
    // SetPodResizePendingCondition reports a change: only then an event (a retry that finds the same is silent)
    if (!old || old.reason !== reason || old.message !== message || old.observedGeneration !== generation) {
      recordPodEvent(env, pod, 'Warning', `Resize${reason}`, podResizeMessage(`Pod resize ${reason}`, pod, generation, message));
    }
    return ['ResizePending', `resize ${reason}: ${message}`];
  }
  st.allocated = pod;
  st.pending = undefined;
  // ClearPodResizeInProgressCondition, then SetPodResizeInProgressCondition with this generation
  st.inProgress = resizeCondition('PodResizeInProgress', undefined, '', '', generation, now);
  recordPodEvent(env, pod, 'Normal', 'ResizeStarted', podResizeMessage('Pod resize started', pod, generation));
  return ['ResizeAllocated', `resize of generation ${generation} allocated: it fits the node`];
}

/** The allocation manager's retry ticker: first 30 s after the kubelet starts, then 3 min after every retry. */
// upstream: allocation_manager.go initialRetryDelay, retryDelay
export const RETRY_INITIAL = 30_000;
export const RETRY_PERIOD = 180_000;

/**
 * retryPendingResizes: each Deferred resize is tried again against the pods still active, in upstream's order
 * (resizes that do not increase requests first, then higher priority, then Guaranteed, then the longest
 * pending). Returns each pod retried with the outcome (the trace detail) and whether it is to sync: its resize
 * is now allocated, or its pending condition changed.
 */
// upstream: allocation_manager.go retryPendingResizes, sortPendingResizes, isResizeIncreasingRequests
export function retryPendingResizes(env: NodeEnv, resized: Map<string, PodResize>, active: Pod[], node: Node): [Pod, string, boolean][] {
  const out: [Pod, string, boolean][] = [];
  const increasing = (p: Pod, st: PodResize): boolean => {
    const [n, o] = [podRequests(p), podRequests(st.allocated)];
    return n.memory > o.memory || n.milliCPU > o.milliCPU;
  };
  const pending = active.filter((p) => resized.get(p.metadata.uid)?.pending?.reason === 'Deferred');
  const key = (p: Pod): [number, number, number, string] => {
    const st = resized.get(p.metadata.uid)!;
    return [increasing(p, st) ? 1 : 0, -(p.spec.priority ?? 0), p.status?.qosClass === 'Guaranteed' ? 0 : 1, st.pending!.lastTransitionTime];
  };
  pending.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
  for (const pod of pending) {
    const st = resized.get(pod.metadata.uid)!;
    const before = st.pending;
    const ev = handlePodResourcesResize(env, resized, pod, st.allocated, active.filter((o) => o !== pod), node)!;
    out.push([pod, ev[1], !st.pending || st.pending.reason !== before!.reason || st.pending.message !== before!.message]);
  }
  return out;
}

/**
 * computePodResizeAction: a running container whose allocated resources differ from those the runtime applied
 * (`actuated`) is updated in place, or restarted when its resizePolicy says RestartContainer for a changed
 * resource. Returns whether the container is kept.
 */
// upstream: kuberuntime_manager.go computePodResizeAction
export function computePodResizeAction(
  pod: Pod, idx: number, status: RuntimeContainerStatus, actuated: Map<string, ResourceRequirements>, changes: PodActions,
): boolean {
  const c = pod.spec.containers[idx];
  const applied = actuated.get(c.name);
  if (status.State !== 'running' || !applied) return true;
  const desired = containerResources(c.resources);
  const current = containerResources(applied);
  // cpu requests at or below the minimum shares (2m) are the same cgroup value
  if (desired.cpuRequest <= 2 && current.cpuRequest <= 2) desired.cpuRequest = current.cpuRequest;
  const changed = { cpu: false, memory: false };
  let restart = false;
  for (const k of ['memoryLimit', 'memoryRequest', 'cpuLimit', 'cpuRequest'] as const) {
    if (desired[k] === current[k]) continue;
    const rName = k[0] === 'm' ? 'memory' : 'cpu';
    changed[rName] = true;
    // no policy for the resource: NotRequired
    if (c.resizePolicy?.some((p) => p.resourceName === rName && p.restartPolicy === 'RestartContainer')) restart = true;
  }
  if (!changed.cpu && !changed.memory) return true;
  if (restart) {
    changes.ContainersToKill.set(status.ID, { name: status.Name, container: c, message: `Container ${c.name} resize requires restart`, reason: '' });
    changes.ContainersToStart.push(idx);
    changes.UpdatePodResources = true;
    return false;
  }
  const info: ContainerToUpdateInfo = { name: c.name, id: status.ID, resources: c.resources, desired, current };
  const updates = (changes.ContainersToUpdate ??= {});
  // decreases before increases (compared by the limit, or by the request when the limit is unchanged)
  for (const rName of ['memory', 'cpu'] as const) {
    if (!changed[rName]) continue;
    const k = desired[`${rName}Limit`] !== current[`${rName}Limit`] ? (`${rName}Limit` as const) : (`${rName}Request` as const);
    const list = (updates[rName] ??= []);
    if (desired[k] > current[k]) list.push(info);
    else list.unshift(info);
  }
  return true;
}

/** ContainersToUpdate as the trace names it: "cpu: app web". */
export function describeUpdates(updates: NonNullable<PodActions['ContainersToUpdate']>): string {
  return Object.entries(updates).map(([r, l]) => `${r}: ${l.map((x) => x.name).join(' ')}`).join(', ');
}

// upstream: pkg/kubelet/cm/helpers_linux.go MilliCPUToShares, MilliCPUToQuota (MinShares 2, quota period 100 ms)
const QUOTA_PERIOD = 100_000;

/** The cgroup values the kubelet gives the runtime for a container's cpu and memory. */
// upstream: kuberuntime_container_linux.go calculateLinuxResources
export function linuxContainerResources(r: ContainerResources): CriLinuxResources {
  const milli = r.cpuRequest || r.cpuLimit;
  const shares = milli === 0 ? 2 : Math.min(262_144, Math.max(2, Math.floor((milli * 1024) / 1000)));
  const quota = r.cpuLimit === 0 ? 0 : Math.max(1000, Math.floor((r.cpuLimit * QUOTA_PERIOD) / 1000));
  return { cpuPeriod: String(QUOTA_PERIOD), cpuQuota: String(quota), cpuShares: String(shares), memoryLimitInBytes: String(r.memoryLimit) };
}

/** `old` with the requests and limits of `rName` as `want` has them. */
function withResource(old: ResourceRequirements | undefined, want: ResourceRequirements, rName: string): ResourceRequirements {
  const out: ResourceRequirements = {};
  for (const k of ['requests', 'limits'] as const) {
    const m = { ...old?.[k] };
    if (want[k]?.[rName] !== undefined) m[rName] = want[k]![rName];
    else delete m[rName];
    if (Object.keys(m).length) out[k] = m;
  }
  return out;
}

/**
 * doPodResizeAction: UpdateContainerResources for each container to update, memory before cpu (the pod-level
 * cgroup, resized around them, is not modelled). A memory update keeps the container's current cpu and a cpu update
 * its current memory (after a memory update, the new one). `update` is the CRI call (false when it failed); what it
 * applied becomes the container's actuated resources. The first failure ends the resize: the updates must succeed
 * in the order computePodResizeAction gave, and a later sync retries the rest.
 */
// upstream: kuberuntime_manager.go doPodResizeAction, updatePodContainerResources
export function doPodResizeAction(
  updates: NonNullable<PodActions['ContainersToUpdate']>, actuated: Map<string, ResourceRequirements>,
  update: (id: string, r: CriLinuxResources, detail: string) => boolean,
): boolean {
  for (const rName of ['memory', 'cpu'] as const) {
    for (const u of updates[rName] ?? []) {
      const c = u.current;
      const r = rName === 'memory'
        ? { ...c, memoryRequest: u.desired.memoryRequest, memoryLimit: u.desired.memoryLimit }
        : { ...c, cpuRequest: u.desired.cpuRequest, cpuLimit: u.desired.cpuLimit };
      const l = linuxContainerResources(r);
      if (!update(u.id, l, `UpdateContainerResources ${u.name} (${rName}): cpu shares ${l.cpuShares}, quota ${l.cpuQuota}, memory limit ${l.memoryLimitInBytes}`)) return false;
      // the info of a container is shared by its memory and cpu updates, as upstream's *currentContainerResources
      u.current = r;
      // updateContainerResources records what it applied: the container's resources with this resource changed
      const done = Object.values(r).join() === Object.values(u.desired).join();
      actuated.set(u.name, done ? u.resources : withResource(actuated.get(u.name), u.resources, rName));
    }
  }
  return true;
}

/**
 * The pod a sync works with: the spec with the allocated resources (a pending resize is not). At the start of
 * every sync the kubelet asks whether a resize is in progress: it is done once every running container's applied
 * resources equal its allocation; then PodResizeInProgress is cleared, before the status of this sync is
 * generated, with the event ResizeCompleted; the trace detail of that comes along.
 */
// upstream: kubelet.go SyncPod (IsPodResizeInProgress, ClearPodResizeInProgressCondition, events.ResizeCompleted);
//           kuberuntime_manager.go IsPodResizeInProgress; allocation_manager.go UpdatePodFromAllocation
export function allocatedPod(env: NodeEnv, st: PodResize, pod: Pod, rs: RuntimePodStatus): [Pod, string?] {
  const allocated = updatePodFromAllocation(pod, st.allocated);
  const running = (name: string): boolean => findContainerStatusByName(rs, name)?.State === 'running';
  const done = st.inProgress;
  if (!done || allocated.spec.containers.some((c) => running(c.name) && !sameResources(c.resources, st.actuated.get(c.name)))) return [allocated];
  st.inProgress = undefined;
  recordPodEvent(env, pod, 'Normal', 'ResizeCompleted', podResizeMessage('Pod resize completed', allocated, done.observedGeneration ?? 1));
  return [allocated, 'the runtime applied the allocated resources: PodResizeInProgress cleared'];
}

/** A container of a resized pod is created with its allocated resources, which become its actuated ones. */
export function createdResources(st: PodResize, name: string, r: ResourceRequirements): CriLinuxResources {
  st.actuated.set(name, r);
  return linuxContainerResources(containerResources(r));
}

/**
 * A resized pod's status: the resize conditions right after the conditions the kubelet does not own (a terminal
 * pod has none). The containers' allocatedResources and resources come from generateAPIPodStatus,
 * given the allocated pod and the actuated resources.
 */
// upstream: pkg/kubelet/kubelet_pods.go generateAPIPodStatus (the status manager's resize conditions)
export function resizeStatus(status: PodStatus, st: PodResize, terminal: boolean): PodStatus {
  if (terminal) st.pending = st.inProgress = undefined;
  if (!st.pending && !st.inProgress) return status;
  const conditions = (status.conditions ?? []).slice();
  let i = 0;
  while (i < conditions.length && !isKubeletCondition(conditions[i].type)) i++;
  for (const c of [st.inProgress, st.pending]) if (c) conditions.splice(i, 0, c);
  return { ...status, conditions };
}

/** What the allocation manager needs of its kubelet. */
export interface AllocationHost {
  env: NodeEnv;
  /** The runtime manager's resized pods. */
  resized: Map<string, PodResize>;
  /** GetActivePods: the pods admitted and not yet terminated. */
  activePods(): Pod[];
  node(): Node;
  /** Sync the pod: its worker's UpdatePod. */
  sync(pod: Pod): void;
}

/**
 * The allocation manager of one kubelet, for resizes: it admits a new generation's resources (allocated, then
 * PodResizeInProgress until the runtime applied them, or left pending: PodResizePending), and tries the Deferred
 * resizes again when a pod terminated and on its ticker (every retry resets the ticker to 3 min).
 */
// upstream: allocation_manager.go handlePodResourcesResize, Run, RetryPendingResizes (TriggerReasonPodTerminated,
//           periodic_retry)
export class AllocationManager {
  readonly #h: AllocationHost;
  /** The ticker's next tick (ticks that found nothing pending reset it too) and the one retry scheduled at it. */
  #tick: number;
  #retryAt = -1;

  constructor(host: AllocationHost) {
    this.#h = host;
    this.#tick = host.env.ctx.now + RETRY_INITIAL;
  }

  /** A new generation of a running pod (`prev`: the one before). */
  handlePodResourcesResize(pod: Pod, prev: Pod): void {
    const { env, resized } = this.#h;
    const uid = pod.metadata.uid;
    const ev = handlePodResourcesResize(env, resized, pod, resized.get(uid)?.allocated ?? prev, this.#h.activePods().filter((p) => p !== pod), this.#h.node());
    if (ev) env.ctx.emit('kubelet', ev[0], podObject(pod), ev[1]);
    if (resized.get(uid)?.pending?.reason === 'Deferred') this.#schedule();
  }

  retryPendingResizes(trigger: string): void {
    const { env, resized } = this.#h;
    this.#tick = env.ctx.now + RETRY_PERIOD;
    for (const [pod, detail, sync] of retryPendingResizes(env, resized, this.#h.activePods(), this.#h.node())) {
      env.ctx.emit('kubelet', 'ResizeRetried', podObject(pod), `${trigger}: ${detail}`);
      if (sync) this.#h.sync(pod);
    }
    for (const st of resized.values()) if (st.pending?.reason === 'Deferred') return this.#schedule();
  }

  #schedule(): void {
    const ctx = this.#h.env.ctx;
    let at = this.#tick;
    while (at < ctx.now) at += RETRY_PERIOD;
    this.#tick = at;
    if (this.#retryAt === at) return;
    this.#retryAt = at;
    ctx.loop.at(at, () => {
      if (this.#tick === at) this.retryPendingResizes('periodic_retry');
    });
  }
}
