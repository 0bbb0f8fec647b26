// Filter plugins, scoring and the FitError message of the default scheduler profile, for the plugins the
// model covers: NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector), NodeResourcesFit; score
// NodeResourcesFit LeastAllocated and TaintToleration (PreferNoSchedule); PostFilter DefaultPreemption's outcome.
// upstream: pkg/scheduler/framework/plugins/{nodeunschedulable,tainttoleration,nodeaffinity,noderesources}/*.go;
//           pkg/scheduler/framework/types.go (FitError.Error)

import type { Container, Node, Pod, Taint, Toleration } from '../types.ts';
import { intValue, milliCPU } from '../api/quantity.ts';

export interface NodeUsage {
  milliCPU: number;
  memory: number;
  pods: number;
  /** The pods' requests with the scheduler's defaults for what a container leaves unset (NodeInfo.NonZeroRequested): scoring uses these. */
  nonZeroMilliCPU: number;
  nonZeroMemory: number;
}

export interface Requests {
  milliCPU: number;
  memory: number;
}

export type Code = 'Unschedulable' | 'UnschedulableAndUnresolvable';

export interface FilterFailure {
  code: Code;
  reasons: string[];
  /** The Filter plugin that rejected the node. */
  plugin: 'NodeUnschedulable' | 'TaintToleration' | 'NodeAffinity' | 'NodeResourcesFit';
}

/** The effective requests of a pod: max(sum of containers, each init container) (sidecars add). */
// upstream: pkg/api/v1/resource/helpers.go PodRequests
export function podRequests(pod: Pod, nonZero = false): Requests {
  // with nonZero, a container without a cpu or memory request counts 100m and 200Mi (schedutil.GetNonzeroRequests)
  const cpuOf = (c: { resources?: Container['resources'] }): number => milliCPU(c.resources?.requests?.cpu) || (nonZero ? 100 : 0);
  const memOf = (c: { resources?: Container['resources'] }): number => intValue(c.resources?.requests?.memory) || (nonZero ? 200 * 1024 * 1024 : 0);
  let cpu = 0;
  let mem = 0;
  for (const c of pod.spec.containers) {
    cpu += cpuOf(c);
    mem += memOf(c);
  }
  let sideCpu = 0;
  let sideMem = 0;
  const inits = pod.spec.initContainers;
  if (inits) for (const c of inits) {
    const ic = cpuOf(c);
    const im = memOf(c);
    if (c.restartPolicy === 'Always') {
      sideCpu += ic;
      sideMem += im;
      continue;
    }
    cpu = Math.max(cpu, ic + sideCpu);
    mem = Math.max(mem, im + sideMem);
  }
  return { milliCPU: cpu + sideCpu, memory: mem + sideMem };
}

export interface Allocatable {
  milliCPU: number;
  memory: number;
  pods: number;
}

export function allocatable(node: Node): Allocatable {
  const a = node.status.allocatable;
  return { milliCPU: milliCPU(a.cpu), memory: intValue(a.memory), pods: intValue(a.pods) };
}

export function tolerates(tol: Toleration, taint: Taint): boolean {
  // upstream: staging/src/k8s.io/api/core/v1/toleration.go ToleratesTaint
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  if (!tol.key && tol.operator !== 'Exists') return false;
  if (tol.operator === 'Exists') return true;
  return (tol.value ?? '') === (taint.value ?? '');
}

function tolerated(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  if (tolerations) for (const t of tolerations) if (tolerates(t, taint)) return true;
  return false;
}
/** The taint the node lifecycle controller puts on a cordoned node (TaintNodeUnschedulable). */
export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/**
 * Run the filter plugins in the default profile's order; the first failing plugin decides. `alloc` is the node's
 * allocatable (the scheduler cache keeps it per node).
 */
export function filterNode(pod: Pod, node: Node, usage: NodeUsage, req: Requests, alloc: Allocatable): FilterFailure | undefined {
  // NodeUnschedulable. upstream: nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable
  if (node.spec.unschedulable && !tolerated(pod.spec.tolerations, UNSCHEDULABLE_TAINT)) {
    return { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'], plugin: 'NodeUnschedulable' };
  }
  // TaintToleration. upstream: tainttoleration/taint_toleration.go Filter
  const taints = node.spec.taints;
  if (taints) for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerated(pod.spec.tolerations, taint)) {
      return { code: 'UnschedulableAndUnresolvable', reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], plugin: 'TaintToleration' };
    }
  }
  // NodeAffinity (spec.nodeSelector). upstream: nodeaffinity/node_affinity.go ErrReasonPod
  const selector = pod.spec.nodeSelector;
  if (selector) {
    const labels = node.metadata.labels ?? {};
    for (const k of Object.keys(selector)) {
      if (labels[k] !== selector[k]) return { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"], plugin: 'NodeAffinity' };
    }
  }
  // NodeResourcesFit. upstream: noderesources/fit.go fitsRequest, Filter (v1.36.2 L678-L697): a request larger
  // than the node's whole allocatable is Unresolvable, and then the status is UnschedulableAndUnresolvable
  // (no preemption can make room on that node)
  const fitsPods = usage.pods + 1 <= alloc.pods;
  const fitsCpu = !(req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - usage.milliCPU);
  const fitsMemory = !(req.memory > 0 && req.memory > alloc.memory - usage.memory);
  if (fitsPods && fitsCpu && fitsMemory) return undefined;
  const reasons: string[] = [];
  let unresolvable = false;
  if (usage.pods + 1 > alloc.pods) reasons.push('Too many pods');
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - usage.milliCPU) {
    reasons.push('Insufficient cpu');
    if (req.milliCPU > alloc.milliCPU) unresolvable = true;
  }
  if (req.memory > 0 && req.memory > alloc.memory - usage.memory) {
    reasons.push('Insufficient memory');
    if (req.memory > alloc.memory) unresolvable = true;
  }
  if (reasons.length) return { code: unresolvable ? 'UnschedulableAndUnresolvable' : 'Unschedulable', reasons, plugin: 'NodeResourcesFit' };
  return undefined;
}

const NO_USAGE: NodeUsage = { milliCPU: 0, memory: 0, pods: 0, nonZeroMilliCPU: 0, nonZeroMemory: 0 };
const ANY_ALLOCATABLE: Allocatable = { milliCPU: Infinity, memory: Infinity, pods: Infinity };

/**
 * The Filter plugins' queueing hints for a node update: the change may make the pod schedulable (Queue) when the
 * plugin that rejected it rejected the old node and does not reject the new one; otherwise Skip. The node is
 * filtered with no resources at stake: the model's node updates change labels, taints and spec.unschedulable, never
 * the allocatable, so NodeResourcesFit always skips them.
 */
// upstream: nodeunschedulable/node_unschedulable.go, tainttoleration/taint_toleration.go,
//           nodeaffinity/node_affinity.go isSchedulableAfterNodeChange
export function nodeChangeMayHelp(plugin: FilterFailure['plugin'], pod: Pod, old: Node, node: Node): boolean {
  const rejects = (n: Node) => filterNode(pod, n, NO_USAGE, NO_USAGE, ANY_ALLOCATABLE)?.plugin === plugin;
  return rejects(old) && !rejects(node);
}

/**
 * NodeResourcesFit score with the LeastAllocated strategy (cpu and memory, weight 1 each), over the non-zero requests of
 * the node's pods and of this one (`nonZero`: podRequests(pod, true)).
 */
// upstream: noderesources/least_allocated.go leastResourceScorer; resource_allocation.go calculateResourceAllocatableRequest
export function scoreNode(alloc: Allocatable, usage: NodeUsage, nonZero: Requests): number {
  const cpuReq = usage.nonZeroMilliCPU + nonZero.milliCPU;
  const memReq = usage.nonZeroMemory + nonZero.memory;
  return Math.floor((leastRequestedScore(cpuReq, alloc.milliCPU) + leastRequestedScore(memReq, alloc.memory)) / 2);
}

// upstream: noderesources/least_allocated.go leastRequestedScore
function leastRequestedScore(requested: number, capacity: number): number {
  return capacity === 0 || requested > capacity ? 0 : Math.floor(((capacity - requested) * 100) / capacity);
}

/** TaintToleration's weight in the default profile (default_plugins.go). */
export const TAINT_TOLERATION_WEIGHT = 3;

/** TaintToleration's Score: the node's PreferNoSchedule taints the pod does not tolerate (fewer is better). */
// upstream: tainttoleration/taint_toleration.go Score, countIntolerableTaintsPreferNoSchedule, getAllTolerationPreferNoSchedule
export function intolerablePreferNoSchedule(pod: Pod, node: Node): number {
  let n = 0;
  for (const taint of node.spec.taints ?? []) {
    if (taint.effect !== 'PreferNoSchedule') continue;
    // only the tolerations with an empty effect or PreferNoSchedule count
    if (!pod.spec.tolerations?.some((t) => (!t.effect || t.effect === 'PreferNoSchedule') && tolerates(t, taint))) n++;
  }
  return n;
}

/** helper.DefaultNormalizeScore(MaxNodeScore, reverse): the counts scaled to 0–100, the highest count scoring 0. */
// upstream: pkg/scheduler/framework/plugins/helper/normalize_score.go DefaultNormalizeScore
export function normalizeReverse(count: number, maxCount: number): number {
  return maxCount === 0 ? 100 : 100 - Math.floor((100 * count) / maxCount);
}

/** FitError.Error(): "0/3 nodes are available: 1 node(s) had untolerated taint {...}, 2 Insufficient cpu." + PostFilter. */
// upstream: pkg/scheduler/framework/types.go (*FitError).Error
export function fitErrorMessage(numAllNodes: number, reasonsPerNode: string[][], postFilterMsg?: string): string {
  const counts = new Map<string, number>();
  for (const reasons of reasonsPerNode) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts.entries()].map(([r, n]) => `${n} ${r}`);
  parts.sort();
  let msg = `0/${numAllNodes} nodes are available: ${parts.join(', ')}.`;
  if (postFilterMsg) msg += ` ${postFilterMsg}`;
  return msg;
}

/** What SelectVictimsOnNode found on one node: the pods to evict, or why preemption cannot help there. */
export type VictimSearch = { victims: string[] } | { reasons: string[] };

/**
 * DefaultPreemption's outcome: the nodes where evicting victims makes room, or the message of the FitError it
 * builds from each node's status. Nodes the filters marked UnschedulableAndUnresolvable are skipped ("Preemption is
 * not helpful for scheduling"); on the others SelectVictimsOnNode reports "No preemption victims found for
 * incoming pod" when no lower-priority pod runs there, and the filters' own reasons when the pod still does not fit
 * with all of them gone.
 */
// upstream: pkg/scheduler/framework/preemption/preemption.go (*Evaluator).Preempt, findCandidates,
//           nodesWherePreemptionMightHelp; plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode
export function preemptionMessage(
  pod: Pod,
  numAllNodes: number,
  failures: FilterFailure[],
  selectVictims: (nodeIndex: number) => VictimSearch,
): { message: string; victimsOn: number[] } {
  if (pod.spec.preemptionPolicy === 'Never') return { message: 'preemption: not eligible due to preemptionPolicy=Never.', victimsOn: [] };
  const perNode: string[][] = [];
  const victimsOn: number[] = [];
  failures.forEach((f, i) => {
    if (f.code === 'UnschedulableAndUnresolvable') {
      perNode.push(['Preemption is not helpful for scheduling']);
      return;
    }
    const found = selectVictims(i);
    if ('victims' in found) victimsOn.push(i);
    else perNode.push(found.reasons);
  });
  const counts = new Map<string, number>();
  for (const reasons of perNode) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts.entries()].map(([r, n]) => `${n} ${r}`).sort();
  return { message: `preemption: 0/${numAllNodes} nodes are available: ${parts.join(', ')}.`, victimsOn };
}
