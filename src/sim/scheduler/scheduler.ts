// The default scheduler: the scheduling queue (activeQ, backoffQ, unschedulablePods), scheduleOne's scheduling
// cycle (filter, score, select) and its asynchronous binding cycle, failure handling (FailedScheduling event,
// PodScheduled=False/Unschedulable) and DefaultPreemption.
//
// Retries, as the queue does them: a pod that failed goes to unschedulablePods; an event that may make it
// schedulable (an assigned pod deleted or finished: the NodeResourcesFit queueing hint) moves it to backoffQ or
// activeQ; the pod backoff is 1 s doubling to 10 s per attempt; and flushUnschedulablePodsLeftover (every 30 s)
// moves pods that have waited longer than podMaxInUnschedulablePodsDuration (5 min).
// upstream: pkg/scheduler/schedule_one.go; pkg/scheduler/backend/queue/scheduling_queue.go

import type { Node, Pod, PodCondition } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { ApiServer } from '../api/apiserver.ts';
import { podNames } from '../core/names.ts';
import { kept } from '../core/kept.ts';
import {
  TAINT_TOLERATION_WEIGHT, allocatable, filterNode, fitErrorMessage, intolerablePreferNoSchedule, nodeChangeMayHelp, normalizeReverse, podRequests,
  preemptionMessage, scoreNode,
  type Allocatable, type FilterFailure, type NodeUsage, type Requests,
} from './framework.ts';

const INITIAL_BACKOFF = 1000; // podInitialBackoffDuration
const MAX_BACKOFF = 10_000; // podMaxBackoffDuration
const MAX_IN_UNSCHEDULABLE = 300_000; // podMaxInUnschedulablePodsDuration
const FLUSH_PERIOD = 30_000; // flushUnschedulablePodsLeftover period
const NOTE_LENGTH_LIMIT = 1024; // validation.NoteLengthLimit

interface QueuedPod {
  pod: Pod;
  /** pod.spec.priority ?? 0, set with every pod (the activeQ compares it on each push and pop). */
  priority: number;
  attempts: number;
  lastAttempt: number;
  queue: 'active' | 'backoff' | 'unschedulable' | 'inflight';
  /** Enqueue order within a priority (the queue's timestamp). */
  order: number;
  token: number;
  /** The last failure was resolvable by resources freeing up (NodeResourcesFit / preemption). */
  resourceFailure: boolean;
  /** The Filter plugins that rejected a node in the last attempt (the queue's UnschedulablePlugins). */
  plugins: FilterFailure['plugin'][];
}

interface NodeCache {
  list: Node[];
  allocs: Allocatable[];
  usages: NodeUsage[];
  /** Some node has a PreferNoSchedule taint: TaintToleration's score can tell nodes apart. */
  preferNoSchedule: boolean;
}

const key = (p: Pod): string => p.metadata.uid;

export class Scheduler {
  readonly #ctx: SimContext;
  readonly #api: ApiServer;
  readonly #queued = new Map<string, QueuedPod>();
  /** activeQ: a binary heap by (priority desc, queue order). */
  #activeQ: QueuedPod[] = [];
  #busy = false;
  #order = 0;
  readonly #usage = new Map<string, NodeUsage>();
  readonly #counted = new Map<string, { node: string; req: Requests; nonZero: Requests; priority: number; pod: Pod }>();

  constructor(ctx: SimContext, api: ApiServer) {
    this.#ctx = ctx;
    this.#api = api;
    api.watchPods((type, pod) => this.#onPod(type, pod));
    api.watchNodes((node, old) => this.#onNodeUpdate(node, old));
  }

  // upstream: eventhandlers.go updateNodeInCache → scheduling_queue.go MoveAllToActiveOrBackoffQueue with the
  // node-update event: each unschedulable pod whose rejecting plugins' hints say the change may help is retried
  #onNodeUpdate(node: Node, old: Node): void {
    this.#nodeCache = undefined;
    for (const q of this.#queued.values()) {
      if (q.queue === 'unschedulable' && q.plugins.some((p) => nodeChangeMayHelp(p, q.pod, old, node))) this.#requeue(q);
    }
  }

  #nodeCache: NodeCache | undefined;

  /**
   * The scheduler cache's nodes, by name (rebuilt when a node changes: a label, a taint, cordon), with each node's
   * allocatable and its usage record (the live object #usageOf keeps), so a cycle looks nothing up per node.
   */
  #nodes(): NodeCache {
    const nodes = this.#api.nodes;
    if (!this.#nodeCache || this.#nodeCache.list.length !== nodes.size) {
      const list = [...nodes.values()].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
      this.#nodeCache = {
        list,
        allocs: list.map(allocatable),
        usages: list.map((n) => this.#usageOf(n.metadata.name)),
        preferNoSchedule: list.some((n) => n.spec.taints?.some((t) => t.effect === 'PreferNoSchedule')),
      };
    }
    return this.#nodeCache;
  }

  #usageOf(node: string): NodeUsage {
    let u = this.#usage.get(node);
    if (!u) {
      u = { milliCPU: 0, memory: 0, pods: 0, nonZeroMilliCPU: 0, nonZeroMemory: 0 };
      this.#usage.set(node, u);
    }
    return u;
  }

  #count(pod: Pod, node: string, req: Requests = podRequests(pod), nonZero: Requests = podRequests(pod, true)): void {
    if (this.#counted.has(key(pod))) return;
    this.#counted.set(key(pod), { node, req, nonZero, priority: pod.spec.priority ?? 0, pod });
    const u = this.#usageOf(node);
    u.milliCPU += req.milliCPU;
    u.memory += req.memory;
    u.pods += 1;
    u.nonZeroMilliCPU += nonZero.milliCPU;
    u.nonZeroMemory += nonZero.memory;
  }

  #uncount(uid: string): boolean {
    const c = this.#counted.get(uid);
    if (!c) return false;
    this.#counted.delete(uid);
    const u = this.#usageOf(c.node);
    u.milliCPU -= c.req.milliCPU;
    u.memory -= c.req.memory;
    u.pods -= 1;
    u.nonZeroMilliCPU -= c.nonZero.milliCPU;
    u.nonZeroMemory -= c.nonZero.memory;
    return true;
  }

  // upstream: pkg/scheduler/eventhandlers.go addPodToSchedulingQueue / addPodToCache / deletePodFromCache
  #onPod(type: string, pod: Pod): void {
    const uid = key(pod);
    const terminal = pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed';
    if (type === 'DELETED') {
      const q = this.#queued.get(uid);
      if (q) q.token++; // a queued entry for a deleted pod is skipped when popped
      this.#queued.delete(uid);
      if (this.#uncount(uid)) this.#assignedPodFreed();
      return;
    }
    if (pod.spec.nodeName) {
      const q = this.#queued.get(uid);
      if (q && q.queue !== 'inflight') this.#queued.delete(uid);
      if (terminal) {
        if (this.#uncount(uid)) this.#assignedPodFreed();
      } else {
        const c = this.#counted.get(uid);
        if (c) c.pod = pod;
        else this.#count(pod, pod.spec.nodeName);
      }
      return;
    }
    if (pod.spec.schedulerName !== 'default-scheduler' || terminal) return;
    const existing = this.#queued.get(uid);
    if (existing) {
      existing.pod = pod;
      existing.priority = pod.spec.priority ?? 0;
      return;
    }
    if (pod.metadata.deletionTimestamp) return;
    const q: QueuedPod = { pod, priority: pod.spec.priority ?? 0, attempts: 0, lastAttempt: 0, queue: 'active', order: this.#order++, token: 0, resourceFailure: false, plugins: [] };
    this.#queued.set(uid, q);
    this.#pushActive(q);
  }

  #pushActive(q: QueuedPod): void {
    q.queue = 'active';
    q.token++;
    // activeQ orders by priority (high first), then by queue timestamp
    const heap = this.#activeQ;
    let i = heap.length;
    heap.push(q);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(q, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = q;
    this.#kick();
  }

  #popActive(): QueuedPod | undefined {
    const heap = this.#activeQ;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const c = r < heap.length && before(heap[r], heap[l]) ? r : l;
        if (!before(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  #kick(): void {
    if (this.#busy || this.#activeQ.length === 0) return;
    this.#busy = true;
    this.#ctx.loop.after(0, this.#scheduleOneTask);
  }

  // one pod is in its scheduling cycle at a time (#busy): the loop's tasks for it are made once
  readonly #scheduleOneTask = (): void => this.#scheduleOne();
  #inflight: QueuedPod | undefined;
  readonly #cycleTask = (): void => {
    const q = this.#inflight!;
    this.#inflight = undefined;
    this.#schedulingCycle(q);
    this.#busy = false;
    this.#kick();
  };

  // upstream: scheduling_queue.go movePodsToActiveOrBackoffQueue (event AssignedPodDelete)
  #assignedPodFreed(): void {
    // in queue order: #queued gets each entry once, when its order is drawn (and requeueing changes no entry)
    for (const q of this.#queued.values()) {
      if (q.queue === 'unschedulable' && q.resourceFailure) this.#requeue(q);
    }
  }

  #requeue(q: QueuedPod): void {
    // upstream: pkg/scheduler/backend/queue/scheduling_queue.go calculateBackoffDuration (doubling per attempt, capped)
    const until = q.lastAttempt + Math.min(MAX_BACKOFF, INITIAL_BACKOFF * 2 ** Math.max(0, q.attempts - 1));
    if (until > this.#ctx.now) {
      q.queue = 'backoff';
      const token = ++q.token;
      this.#ctx.loop.at(until, () => {
        if (q.token === token && this.#queued.get(key(q.pod)) === q) this.#pushActive(q);
      });
    } else this.#pushActive(q);
  }

  // upstream: pkg/scheduler/schedule_one.go (*Scheduler).ScheduleOne
  #scheduleOne(): void {
    let q = this.#popActive();
    // skip entries of pods deleted or bound meanwhile
    while (q && (this.#queued.get(key(q.pod)) !== q || q.queue !== 'active')) q = this.#popActive();
    if (!q) {
      this.#busy = false;
      return;
    }
    const pod = q.pod;
    const obj = podNames(pod.metadata.namespace!, pod.metadata.name).object;
    q.queue = 'inflight';
    q.token++;
    q.attempts++;
    q.lastAttempt = this.#ctx.now;
    this.#ctx.emit('scheduler', 'PodPopped', obj, kept`attempt ${q.attempts}: pod taken from activeQ`, 'ScheduleOne#1');
    this.#ctx.emit('scheduler', 'SchedulingAttempt', obj, 'scheduleOnePod: run the scheduling cycle', 'ScheduleOne#2');
    this.#inflight = q;
    this.#ctx.loop.after(this.#ctx.timings.schedule, this.#cycleTask);
  }

  // upstream: pkg/scheduler/schedule_one.go (*Scheduler).scheduleOnePod, schedulingCycle, bindingCycle
  #schedulingCycle(q: QueuedPod): void {
    const current = this.#api.getPod(q.pod.metadata.namespace!, q.pod.metadata.name);
    if (!current || current.metadata.uid !== q.pod.metadata.uid || current.spec.nodeName || current.metadata.deletionTimestamp) {
      this.#queued.delete(key(q.pod));
      return;
    }
    q.pod = current;
    q.priority = current.spec.priority ?? 0;
    const pod = current;
    const obj = podNames(pod.metadata.namespace!, pod.metadata.name).object;
    const cache = this.#nodes();
    const nodes = cache.list;
    const req = podRequests(pod);
    const nonZero = podRequests(pod, true);
    // filter and score in one pass: a node's score is taken as soon as it passes the filters, in node order, so the
    // selection (and its random tie-breaks) is what scoring the feasible list afterwards gives
    // upstream: schedule_one.go prioritizeNodes, selectHost: the highest score; ties broken at random (reservoir sampling)
    let failures: FilterFailure[] | undefined;
    let feasible = 0;
    let best = 0;
    let bestScore = 0;
    let ties = 0;
    // TaintToleration's score is normalized over the feasible nodes: with a PreferNoSchedule taint in the cluster,
    // its counts are taken first (without one, it adds the same 300 to every node and changes nothing)
    let counts: number[] | undefined;
    let maxCount = 0;
    if (cache.preferNoSchedule) {
      counts = nodes.map((n) => intolerablePreferNoSchedule(pod, n));
      for (let i = 0; i < nodes.length; i++) if (counts[i] > maxCount && !filterNode(pod, nodes[i], cache.usages[i], req, cache.allocs[i])) maxCount = counts[i];
    }
    for (let i = 0; i < nodes.length; i++) {
      const usage = cache.usages[i];
      const f = filterNode(pod, nodes[i], usage, req, cache.allocs[i]);
      if (f) {
        (failures ??= []).push(f);
        continue;
      }
      const score = scoreNode(cache.allocs[i], usage, nonZero) + (counts && maxCount > 0 ? TAINT_TOLERATION_WEIGHT * normalizeReverse(counts[i], maxCount) : 0);
      if (++feasible === 1 || score > bestScore) {
        best = i;
        bestScore = score;
        ties = 1;
      } else if (score === bestScore) {
        ties++;
        if (this.#ctx.rng.int(1, ties) === 1) best = i;
      }
    }
    if (feasible === 0) {
      this.#handleFailure(q, cache, failures!, req);
      return;
    }
    const nodeName = nodes[best].metadata.name;
    // upstream: schedule_one.go schedulePod: "When only one node after predicate, just use it." (no scoring)
    const detail = feasible === 1
      ? kept`${feasible}/${nodes.length} nodes feasible; the only one, ${nodeName}, is used without scoring`
      : maxCount > 0
        ? kept`${feasible}/${nodes.length} nodes feasible; scored, selected ${nodeName} (score ${bestScore}: NodeResourcesFit ${scoreNode(cache.allocs[best], cache.usages[best], nonZero)}, TaintToleration ${TAINT_TOLERATION_WEIGHT * normalizeReverse(counts![best], maxCount)})`
        : kept`${feasible}/${nodes.length} nodes feasible; scored, selected ${nodeName} (score ${bestScore})`;
    this.#count(pod, nodeName, req, nonZero); // assume
    this.#ctx.emit('scheduler', 'NodeSelected', obj, detail, 'scheduleOnePod#1');
    // binding cycle, asynchronous
    this.#ctx.loop.after(this.#ctx.timings.bind, () => {
      const err = this.#api.bindPod(pod.metadata.namespace!, pod.metadata.name, pod.metadata.uid, nodeName);
      this.#queued.delete(key(pod));
      if (err) {
        this.#uncount(pod.metadata.uid);
        return;
      }
      // upstream: schedule_one.go finishBinding
      this.#api.recordEvent({
        involved: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid, apiVersion: 'v1', resourceVersion: pod.metadata.resourceVersion },
        type: 'Normal', reason: 'Scheduled', action: 'Binding', component: 'default-scheduler',
        message: kept`Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`,
      });
      this.#ctx.emit('scheduler', 'Bound', obj, kept`bound to ${nodeName}`, 'scheduleOnePod#2');
    });
  }

  // upstream: schedule_one.go handleSchedulingFailure; preemption via DefaultPreemption.PostFilter
  #handleFailure(q: QueuedPod, cache: NodeCache, failures: FilterFailure[], req: Requests): void {
    const nodes = cache.list;
    const pod = q.pod;
    const obj = podNames(pod.metadata.namespace!, pod.metadata.name).object;
    const prio = pod.spec.priority ?? 0;
    // upstream: plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode: remove every lower-priority
    // pod; if the preemptor fits then, reprieve them from the most important down while it still fits
    const selectVictims = (i: number): { victims: Pod[] } | { reasons: string[] } => {
      const node = nodes[i];
      const alloc = cache.allocs[i];
      const potential = [...this.#counted.values()].filter((c) => c.node === node.metadata.name && c.priority < prio);
      if (potential.length === 0) return { reasons: ['No preemption victims found for incoming pod'] };
      const u = { ...cache.usages[i] };
      const take = (c: { req: Requests }, sign: 1 | -1): void => {
        u.milliCPU += sign * c.req.milliCPU;
        u.memory += sign * c.req.memory;
        u.pods += sign;
      };
      for (const c of potential) take(c, -1);
      const still = filterNode(pod, node, u, req, alloc);
      if (still) return { reasons: still.reasons };
      // MoreImportantPod: higher priority first, then the earlier start
      const started = (p: Pod): string => p.status.startTime ?? p.metadata.creationTimestamp;
      potential.sort((a, b) => b.priority - a.priority || (started(a.pod) < started(b.pod) ? -1 : started(a.pod) > started(b.pod) ? 1 : 0));
      const victims: Pod[] = [];
      for (const c of potential) {
        take(c, 1);
        if (filterNode(pod, node, u, req, alloc)) {
          take(c, -1);
          victims.push(c.pod);
        }
      }
      return { victims };
    };
    const searched = new Map<number, ReturnType<typeof selectVictims>>();
    const search = (i: number) => {
      if (!searched.has(i)) searched.set(i, selectVictims(i));
      return searched.get(i)!;
    };
    const pre = preemptionMessage(pod, nodes.length, failures, (i) => {
      const r = search(i);
      return 'victims' in r ? { victims: r.victims.map((v) => v.metadata.uid) } : r;
    });
    let message: string;
    if (pre.victimsOn.length) {
      const node = nodes[pre.victimsOn[0]];
      const found = search(pre.victimsOn[0]);
      const victims = 'victims' in found ? found.victims : [];
      message = fitErrorMessage(nodes.length, failures.map((f) => f.reasons));
      for (const v of victims) {
        this.#api.recordEvent({
          involved: { kind: 'Pod', namespace: v.metadata.namespace, name: v.metadata.name, uid: v.metadata.uid, apiVersion: 'v1', resourceVersion: v.metadata.resourceVersion },
          type: 'Normal', reason: 'Preempted', action: 'Preempting', component: 'default-scheduler',
          message: `Preempted by pod ${pod.metadata.uid} on node ${node.metadata.name}`,
        });
        this.#api.deletePod(v.metadata.namespace!, v.metadata.name, {});
      }
      const cur = this.#api.getPod(pod.metadata.namespace!, pod.metadata.name);
      if (cur) this.#api.updatePodStatus(cur.metadata.namespace!, cur.metadata.name, cur.metadata.uid, { ...cur.status, nominatedNodeName: node.metadata.name });
      this.#ctx.emit('scheduler', 'Preempting', obj, `preempting ${victims.length} pod(s) on ${node.metadata.name}`, 'scheduleOnePod#1');
    } else {
      message = fitErrorMessage(nodes.length, failures.map((f) => f.reasons), pre.message);
    }
    q.resourceFailure = failures.some((f) => f.plugin === 'NodeResourcesFit');
    q.plugins = failures.map((f) => f.plugin);
    // the reference carries the resourceVersion of the pod as the queue had it: the first failure's differs from
    // the next ones' (the condition written below is a new version), so the first is an event of its own and the
    // later ones, while the condition stays the same, one series
    this.#api.recordEvent({
      involved: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid, apiVersion: 'v1', resourceVersion: pod.metadata.resourceVersion },
      type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', component: 'default-scheduler',
      message: message.length > NOTE_LENGTH_LIMIT ? `${message.slice(0, NOTE_LENGTH_LIMIT - 4)} ...` : message,
    });
    const cur = this.#api.getPod(pod.metadata.namespace!, pod.metadata.name);
    const prev = cur && (cur.status.conditions ?? []).find((c) => c.type === 'PodScheduled');
    // updatePod writes only a changed condition (UpdatePodCondition: status, reason, message, times)
    if (cur && !(prev && prev.status === 'False' && prev.reason === 'Unschedulable' && prev.message === message)) {
      const cond: PodCondition = {
        type: 'PodScheduled', status: 'False', lastProbeTime: null,
        lastTransitionTime: prev && prev.status === 'False' ? prev.lastTransitionTime : this.#ctx.rfc3339(),
        reason: 'Unschedulable', message,
      };
      const conditions = [...(cur.status.conditions ?? []).filter((c) => c.type !== 'PodScheduled'), cond];
      this.#api.updatePodStatus(cur.metadata.namespace!, cur.metadata.name, cur.metadata.uid, { ...cur.status, conditions });
    }
    this.#ctx.emit('scheduler', 'FailedScheduling', obj, message, 'scheduleOnePod#1');
    // unschedulablePods, flushed after podMaxInUnschedulablePodsDuration on the 30 s flush tick
    q.queue = 'unschedulable';
    const token = ++q.token;
    const due = q.lastAttempt + MAX_IN_UNSCHEDULABLE;
    const flushAt = Math.floor(due / FLUSH_PERIOD) * FLUSH_PERIOD + FLUSH_PERIOD;
    this.#ctx.loop.at(flushAt, () => {
      if (q.token === token && this.#queued.get(key(q.pod)) === q && q.queue === 'unschedulable') this.#requeue(q);
    });
  }
}

function before(a: QueuedPod, b: QueuedPod): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.order < b.order);
}
