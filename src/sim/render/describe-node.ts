// `kubectl describe node`: kubectl's NodeDescriber layout — identity, taints, the kubelet's lease, conditions,
// addresses, capacity, system info, then the node's non-terminated pods with their requests and limits against
// the allocatable, and their totals.
// upstream: k8s.io/kubectl/pkg/describe/describe.go describeNode, describeNodeLease, describeNodeResource,
// getPodsTotalRequestsAndLimits, printNodeTaintsMultiline (v0.36.2); k8s.io/component-helpers/resource/helpers.go
// PodRequests, PodLimits (AggregateContainerRequests, AggregateContainerLimits)

import { type SumQuantity, ZERO_QUANTITY, addQuantity, formatQuantity, sumQuantity } from '../api/quantity-sum.ts';
import type { Container, KubeEvent, Node, Pod, Quantity } from '../types.ts';
import { parseRfc3339 } from './clock.ts';
import { rfc1123z } from './localtime.ts';
import { PrefixWriter, describeEvents, printAnnotationsMultiline, printLabelsMultiline } from './describe.ts';
import { findNodeRoles } from './cluster-table.ts';
import { translateTimestampSince } from './table.ts';

export interface DescribeNodeOptions {
  /** Wall-clock ms of "now". */
  now: number;
  utcOffsetMinutes: number;
  /** Every pod of the cluster; the describer lists the node's own that have not terminated. */
  pods: Pod[];
  events: KubeEvent[];
  /** The kubelet's node lease (kube-node-lease/<node>): its last renewal, wall-clock ms. */
  leaseRenewTime: number;
  /** false = --show-events=false */
  showEvents?: boolean;
}

type ResourceList = Map<string, SumQuantity>;

export function describeNode(node: Node, o: DescribeNodeOptions): string {
  const w = new PrefixWriter();
  const time = (ts: string) => rfc1123z(parseRfc3339(ts), o.utcOffsetMinutes);
  const { metadata: md, spec, status } = node;

  w.write(0, `Name:\t${md.name}\n`);
  w.write(0, `Roles:\t${findNodeRoles(node).join(',') || '<none>'}\n`);
  printLabelsMultiline(w, 'Labels', md.labels);
  printAnnotationsMultiline(w, 'Annotations', md.annotations);
  w.write(0, `CreationTimestamp:\t${time(md.creationTimestamp)}\n`);
  // printNodeTaintsMultiline: sorted by effect, then key
  const taints = [...(spec.taints ?? [])].sort((a, b) => cmp(`${a.effect},${a.key}`, `${b.effect},${b.key}`));
  w.write(0, 'Taints:\t');
  if (taints.length === 0) w.write(0, '<none>\n');
  taints.forEach((t, i) => w.write(0, `${i ? '\t' : ''}${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`));
  w.write(0, `Unschedulable:\t${spec.unschedulable === true}\n`);
  // describeNodeLease: the kubelet holds its node's lease and renews it (AcquireTime is never set)
  w.write(0, 'Lease:\n');
  w.write(1, `HolderIdentity:\t${md.name}\n`);
  w.write(1, 'AcquireTime:\t<unset>\n');
  w.write(1, `RenewTime:\t${rfc1123z(o.leaseRenewTime, o.utcOffsetMinutes)}\n`);
  if (status.conditions.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of status.conditions) {
      w.write(1, `${c.type} \t${c.status} \t${time(c.lastHeartbeatTime)} \t${time(c.lastTransitionTime)} \t${c.reason} \t${c.message}\n`);
    }
  }
  w.write(0, 'Addresses:\n');
  for (const a of status.addresses) w.write(1, `${a.type}:\t${a.address}\n`);
  const printResourceList = (list: Record<string, Quantity>) => {
    for (const name of Object.keys(list).sort(cmp)) w.write(0, `  ${name}:\t${formatQuantity(sumQuantity(list[name]))}\n`);
  };
  if (Object.keys(status.capacity).length > 0) {
    w.write(0, 'Capacity:\n');
    printResourceList(status.capacity);
  }
  if (Object.keys(status.allocatable).length > 0) {
    w.write(0, 'Allocatable:\n');
    printResourceList(status.allocatable);
  }
  const info = status.nodeInfo;
  w.write(0, 'System Info:\n');
  w.write(0, `  Machine ID:\t${info.machineID}\n`);
  w.write(0, `  System UUID:\t${info.systemUUID}\n`);
  w.write(0, `  Boot ID:\t${info.bootID}\n`);
  w.write(0, `  Kernel Version:\t${info.kernelVersion}\n`);
  w.write(0, `  OS Image:\t${info.osImage}\n`);
  w.write(0, `  Operating System:\t${info.operatingSystem}\n`);
  w.write(0, `  Architecture:\t${info.architecture}\n`);
  w.write(0, `  Container Runtime Version:\t${info.containerRuntimeVersion}\n`);
  w.write(0, `  Kubelet Version:\t${info.kubeletVersion}\n`);
  if (spec.podCIDR) w.write(0, `PodCIDR:\t${spec.podCIDR}\n`);
  if (spec.podCIDRs?.length) w.write(0, `PodCIDRs:\t${spec.podCIDRs.join(',')}\n`);
  // the pods the describer lists: spec.nodeName=<node>, status.phase!=Succeeded, status.phase!=Failed
  const pods = o.pods.filter((p) => p.spec.nodeName === md.name && p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed');
  describeNodeResource(w, node, pods, o.now);
  if (o.showEvents !== false) {
    // events about the node: the controllers name it by UID, the kubelet by its name
    const events = o.events.filter((e) => e.involvedObject.kind === 'Node' && e.involvedObject.name === md.name);
    describeEvents(w, events, o.now);
  }
  return w.finish();
}

function describeNodeResource(w: PrefixWriter, node: Node, pods: Pod[], now: number): void {
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const allocatable = Object.keys(node.status.allocatable).length > 0 ? node.status.allocatable : node.status.capacity;
  const allocMilli = (name: string) => (allocatable[name] === undefined ? 0 : sumQuantity(allocatable[name]).milli);
  // int64(float64(used) / float64(allocatable) * 100): Go's conversion truncates (and 0/0 is NaN → the minimum int64,
  // which a node without that resource never reaches here)
  const percent = (used: SumQuantity, name: string) => Math.trunc((used.milli / allocMilli(name)) * 100);
  const cell = (list: ResourceList, name: string) => {
    const q = list.get(name) ?? ZERO_QUANTITY;
    return `${formatQuantity(q)} (${percent(q, name)}%)`;
  };
  for (const pod of pods) {
    const req = podResources(pod, 'requests', true);
    const lim = podResources(pod, 'limits', true);
    w.write(1, `${pod.metadata.namespace ?? 'default'}\t${pod.metadata.name}\t\t${cell(req, 'cpu')}\t${cell(lim, 'cpu')}\t${cell(req, 'memory')}\t${cell(lim, 'memory')}\t${translateTimestampSince(pod.metadata.creationTimestamp, now)}\n`);
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  // getPodsTotalRequestsAndLimits: the pods' spec requests and limits, added up
  const reqs: ResourceList = new Map();
  const limits: ResourceList = new Map();
  for (const pod of pods) {
    for (const [k, v] of podResources(pod, 'requests', false)) reqs.set(k, addQuantity(reqs.get(k), v));
    for (const [k, v] of podResources(pod, 'limits', false)) limits.set(k, addQuantity(limits.get(k), v));
  }
  // a resource the node does not have counts 0%
  const total = (list: ResourceList, name: string) => {
    const q = list.get(name) ?? ZERO_QUANTITY;
    return `${formatQuantity(q)} (${allocMilli(name) ? percent(q, name) : 0}%)`;
  };
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) w.write(1, `${name}\t${total(reqs, name)}\t${total(limits, name)}\n`);
  const names = Object.keys(allocatable).sort(cmp);
  for (const name of names.filter((n) => n.startsWith('hugepages-'))) w.write(1, `${name}\t${total(reqs, name)}\t${total(limits, name)}\n`);
  // extended resources (example.com/gpu): no percentages
  for (const name of names.filter((n) => !STANDARD.has(n) && !n.startsWith('hugepages-') && !n.startsWith('requests.'))) {
    w.write(1, `${name}\t${formatQuantity(reqs.get(name) ?? ZERO_QUANTITY)}\t${formatQuantity(limits.get(name) ?? ZERO_QUANTITY)}\n`);
  }
}

/** The standard container resource names (helper.IsStandardContainerResourceName), and pods. */
const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods']);

/**
 * PodRequests / PodLimits. Each is an aggregate over the containers: the app containers' sum, plus each sidecar
 * (restartable init container), raised to what a regular init container needs beside the sidecars started before it.
 * With `useStatus` (the per-pod rows), three aggregates are taken — of the specs, of what the kubelet allocated and of
 * what the runtime applied (each falling back to the one before where a status lacks it) — and the larger of them
 * counts; while a resize is Infeasible, not the spec's. The model has no pod-level resources and no RuntimeClass
 * overhead.
 */
// upstream: component-helpers/resource/helpers.go PodRequests, PodLimits, AggregateContainerRequests,
// AggregateContainerLimits, aggregateContainerResourcesByFn, containerAllocatedRequests, containerActuatedRequests,
// containerActuatedLimits, IsPodResizeInfeasible
function podResources(pod: Pod, which: 'requests' | 'limits', useStatus: boolean): ResourceList {
  const spec = (c: Container) => c.resources?.[which];
  if (!useStatus) return aggregate(pod, spec);
  const infeasible = (pod.status.conditions ?? []).find((c) => c.type === 'PodResizePending')?.reason === 'Infeasible';
  const statuses = [...(pod.status.containerStatuses ?? []), ...(pod.status.initContainerStatuses ?? [])];
  const status = (c: Container) => statuses.find((s) => s.name === c.name);
  const orSpec = (c: Container) => (infeasible ? undefined : spec(c));
  const actuated = aggregate(pod, (c) => status(c)?.resources?.[which] ?? (which === 'requests' ? status(c)?.allocatedResources : undefined) ?? orSpec(c));
  if (which === 'limits') return infeasible ? actuated : maxOf(aggregate(pod, spec), actuated);
  const allocated = aggregate(pod, (c) => status(c)?.allocatedResources ?? orSpec(c));
  return infeasible ? maxOf(actuated, allocated) : maxOf(aggregate(pod, spec), actuated, allocated);
}

function aggregate(pod: Pod, of: (c: Container) => Record<string, Quantity> | undefined): ResourceList {
  const sum: ResourceList = new Map();
  for (const c of pod.spec.containers) addInto(sum, toList(of(c)));
  const sidecars: ResourceList = new Map();
  const init: ResourceList = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const own = toList(of(c));
    if (c.restartPolicy === 'Always') {
      addInto(sum, own);
      addInto(sidecars, own);
      maxInto(init, sidecars);
    } else {
      addInto(own, sidecars);
      maxInto(init, own);
    }
  }
  maxInto(sum, init);
  return sum;
}

/** max(a, b...): per resource, the largest (the first of equals). */
function maxOf(a: ResourceList, ...rest: ResourceList[]): ResourceList {
  const out: ResourceList = new Map(a);
  for (const b of rest) maxInto(out, b);
  return out;
}

function toList(r: Record<string, Quantity> | undefined): ResourceList {
  const list: ResourceList = new Map();
  for (const [k, v] of Object.entries(r ?? {})) list.set(k, sumQuantity(v));
  return list;
}

function addInto(into: ResourceList, from: ResourceList): void {
  for (const [k, v] of from) into.set(k, addQuantity(into.get(k), v));
}

function maxInto(into: ResourceList, from: ResourceList): void {
  for (const [k, v] of from) {
    const cur = into.get(k);
    if (cur === undefined || v.milli > cur.milli) into.set(k, v);
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
