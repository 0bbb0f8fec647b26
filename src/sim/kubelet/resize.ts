// In-place pod resize on the kubelet's side (InPlacePodVerticalScaling, GA): the allocation manager's view of a
// pod (the resources it admitted), the admission of a resize against the node, and the Linux resources the
// runtime is given.
// upstream: pkg/kubelet/allocation/allocation_manager.go, pkg/kubelet/allocation/handlers.go,
//           pkg/kubelet/lifecycle/predicate.go, pkg/kubelet/kuberuntime/kuberuntime_container_linux.go

import type { CriLinuxResources, Node, Pod, ResourceRequirements } from '../types.ts';
import { allocatable, podRequests } from '../scheduler/framework.ts';
import { containerResources, type ContainerResources } from './podactions.ts';

const key = (r: ResourceRequirements | undefined): string => {
  const c = containerResources(r);
  return `${c.cpuRequest}/${c.cpuLimit}/${c.memoryRequest}/${c.memoryLimit}`;
};

/** The cpu and memory of two resource requirements are equal (apiequality.Semantic on the quantities). */
export function sameResources(a: ResourceRequirements | undefined, b: ResourceRequirements | undefined): boolean {
  return a === b || key(a) === key(b);
}

/** The pod with each container's resources as `allocated` has them (the pod itself when they are all equal). */
// upstream: allocation_manager.go updatePodFromAllocation
export function updatePodFromAllocation(pod: Pod, allocated: Pod): Pod {
  let containers: Pod['spec']['containers'] | undefined;
  const list = pod.spec.containers;
  for (let i = 0; i < list.length; i++) {
    const a = allocated.spec.containers.find((c) => c.name === list[i].name);
    if (a && !sameResources(a.resources, list[i].resources)) (containers ??= list.slice())[i] = { ...list[i], resources: a.resources };
  }
  return containers ? { ...pod, spec: { ...pod.spec, containers } } : pod;
}

export interface PendingReason {
  reason: 'Infeasible' | 'Deferred';
  message: string;
}

/**
 * Can the node allocate the resized pod? Infeasible when its requests exceed the node's allocatable, Deferred when
 * they do not fit beside the other pods' allocations (the predicate admit handler's first insufficient resource).
 */
// upstream: allocation/handlers.go (*podResizesAdmitHandler).Admit; lifecycle/predicate.go InsufficientResourceError
export function canResizePod(pod: Pod, others: Pod[], node: Node): PendingReason | undefined {
  const alloc = allocatable(node);
  const r = podRequests(pod);
  if (r.milliCPU > alloc.milliCPU || r.memory > alloc.memory) {
    const msg = r.memory > alloc.memory ? `memory, requested: ${r.memory}, capacity: ${alloc.memory}` : `cpu, requested: ${r.milliCPU}, capacity: ${alloc.milliCPU}`;
    return { reason: 'Infeasible', message: `Node didn't have enough capacity: ${msg}` };
  }
  let cpu = 0;
  let memory = 0;
  for (const o of others) {
    const q = podRequests(o);
    cpu += q.milliCPU;
    memory += q.memory;
  }
  // upstream: pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest (cpu before memory)
  const short = r.milliCPU > 0 && r.milliCPU > alloc.milliCPU - cpu ? ['cpu', r.milliCPU, cpu, alloc.milliCPU]
    : r.memory > 0 && r.memory > alloc.memory - memory ? ['memory', r.memory, memory, alloc.memory] : undefined;
  if (!short) return undefined;
  return { reason: 'Deferred', message: `Node didn't have enough resource: ${short[0]}, requested: ${short[1]}, used: ${short[2]}, capacity: ${short[3]}` };
}

/** Some running container's applied resources still differ from its allocation. */
// upstream: allocation_manager.go isPodResizeInProgress
export function isPodResizeInProgress(allocated: Pod, running: (name: string) => boolean, actuated: Map<string, ResourceRequirements>): boolean {
  return allocated.spec.containers.some((c) => running(c.name) && !sameResources(c.resources, actuated.get(c.name)));
}

// upstream: pkg/kubelet/cm/helpers_linux.go MilliCPUToShares, MilliCPUToQuota (MinShares 2, period 100 ms)
const QUOTA_PERIOD = 100_000;

/** The cgroup values UpdateContainerResources carries for a container's cpu and memory. */
// upstream: kuberuntime_container_linux.go calculateLinuxResources
export function linuxContainerResources(r: ContainerResources): CriLinuxResources {
  const milli = r.cpuRequest || r.cpuLimit;
  const shares = milli === 0 ? 2 : Math.min(262_144, Math.max(2, Math.floor((milli * 1024) / 1000)));
  const quota = r.cpuLimit === 0 ? 0 : Math.max(1000, Math.floor((r.cpuLimit * QUOTA_PERIOD) / 1000));
  return { cpuPeriod: String(QUOTA_PERIOD), cpuQuota: String(quota), cpuShares: String(shares), memoryLimitInBytes: String(r.memoryLimit) };
}
