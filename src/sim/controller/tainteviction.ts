// kube-controller-manager's taint-eviction controller: a NoExecute taint on a node evicts the pods there that do not
// tolerate it, at once, or after the smallest tolerationSeconds of the tolerations that match (a toleration without
// tolerationSeconds tolerates forever). An eviction is an event ("Marking for deletion Pod default/web"), the pod's
// DisruptionTarget condition (DeletionByTaintManager), then an ordinary graceful delete, which the kubelet carries
// out. A pending eviction is cancelled ("Cancelling deletion of Pod ...") when the taint goes. Loaded with the
// patches, as only a patch changes a node; it watches pods only once a node has a NoExecute taint.
// upstream: pkg/controller/tainteviction/taint_eviction.go (NodeUpdated, PodUpdated, handleNodeUpdate,
//           handlePodUpdate, processPodOnNode, getMinTolerationTime, addConditionAndDeletePod, emitPodDeletionEvent,
//           emitCancelPodDeletionEvent); pkg/apis/core/v1/helper GetMatchingTolerations

import type { ApiServer } from '../api/apiserver.ts';
import type { SimContext } from '../core/context.ts';
import type { Node, Pod, PodCondition, Taint, Toleration } from '../types.ts';

const COMPONENT = 'taint-eviction-controller';

const noExecute = (node: Node | undefined): Taint[] => (node?.spec.taints ?? []).filter((t) => t.effect === 'NoExecute');

interface Work {
  created: number;
  fireAt: number;
  token: number;
}

export class TaintEvictionController {
  readonly #ctx: SimContext;
  readonly #api: ApiServer;
  readonly #tolerates: (tol: Toleration, taint: Taint) => boolean;
  /** The taintEvictionQueue: scheduled evictions by "namespace/name". */
  readonly #work = new Map<string, Work>();
  /** NoExecute taints by node (tc.taintedNodes). */
  readonly #tainted = new Map<string, Taint[]>();
  /** The pods' node and tolerations as last seen (PodUpdated acts on a change of either), once pods are watched. */
  #seen: Map<string, string> | undefined;
  #token = 0;

  /** `tolerates`: ToleratesTaint (scheduler/framework.ts), handed over so that this module imports none of the engine. */
  constructor(ctx: SimContext, api: ApiServer, tolerates: (tol: Toleration, taint: Taint) => boolean) {
    this.#ctx = ctx;
    this.#api = api;
    this.#tolerates = tolerates;
    api.watchNodes((node, old) => {
      if (JSON.stringify(noExecute(old)) !== JSON.stringify(noExecute(node))) this.#handleNodeUpdate(node.metadata.name);
    });
  }

  #handleNodeUpdate(name: string): void {
    const taints = noExecute(this.#api.nodes.get(name));
    if (taints.length) this.#tainted.set(name, taints);
    else this.#tainted.delete(name);
    if (taints.length && !this.#seen) this.#watchPods();
    const pods = [...this.#api.pods.values()].filter((p) => p.spec.nodeName === name);
    for (const pod of pods) {
      if (!taints.length) this.#cancel(pod);
      else this.#processPodOnNode(pod, taints);
    }
  }

  // PodUpdated / handlePodUpdate: a pod bound to a tainted node, or whose tolerations changed there
  #watchPods(): void {
    const seen = (this.#seen = new Map());
    for (const p of this.#api.pods.values()) seen.set(key(p), signature(p));
    this.#api.watchPods((type, pod) => {
      const k = key(pod);
      if (type === 'DELETED') {
        seen.delete(k);
        if (this.#api.getPod(pod.metadata.namespace ?? 'default', pod.metadata.name) === undefined) this.#cancel(pod);
        return;
      }
      const sig = signature(pod);
      if (seen.get(k) === sig) return;
      seen.set(k, sig);
      const taints = pod.spec.nodeName ? this.#tainted.get(pod.spec.nodeName) : undefined;
      if (taints) this.#processPodOnNode(pod, taints);
    });
  }

  #processPodOnNode(pod: Pod, taints: Taint[]): void {
    const now = this.#ctx.now;
    // GetMatchingTolerations: every taint needs a toleration; the ones used decide how long the pod may stay
    const used: Toleration[] = [];
    for (const taint of taints) {
      const tol = (pod.spec.tolerations ?? []).find((t) => this.#tolerates(t, taint));
      if (!tol) {
        this.#cancel(pod);
        this.#addWork(pod, now, now);
        return;
      }
      used.push(tol);
    }
    const min = minTolerationTime(used);
    if (min < 0) {
      this.#cancel(pod);
      return;
    }
    let created = now;
    const trigger = now + min;
    const scheduled = this.#work.get(key(pod));
    if (scheduled) {
      created = scheduled.created;
      if (created + min < trigger) return;
      this.#cancel(pod);
    }
    this.#addWork(pod, created, trigger);
  }

  #addWork(pod: Pod, created: number, fireAt: number): void {
    const k = key(pod);
    const token = ++this.#token;
    this.#work.set(k, { created, fireAt, token });
    this.#ctx.loop.at(fireAt, () => {
      if (this.#work.get(k)?.token !== token) return;
      this.#work.delete(k);
      this.#evict(pod.metadata.namespace ?? 'default', pod.metadata.name);
    });
  }

  #cancel(pod: Pod): void {
    const k = key(pod);
    if (!this.#work.delete(k)) return;
    this.#event(pod.metadata.namespace ?? 'default', pod.metadata.name, 'Cancelling deletion of Pod');
  }

  // deletePodHandler: the event, then addConditionAndDeletePod
  #evict(namespace: string, name: string): void {
    this.#event(namespace, name, 'Marking for deletion Pod');
    const pod = this.#api.getPod(namespace, name);
    if (!pod) return;
    const conditions = pod.status.conditions ?? [];
    if (!conditions.some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'DeletionByTaintManager')) {
      const condition: PodCondition = {
        type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: this.#ctx.rfc3339(),
        reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint',
      };
      this.#api.updatePodStatus(namespace, name, pod.metadata.uid, { ...pod.status, conditions: [...conditions.filter((c) => c.type !== 'DisruptionTarget'), condition] });
    }
    this.#ctx.emit('controller-manager', 'TaintEviction', `pod/${namespace}/${name}`, 'taint-eviction-controller: a NoExecute taint the pod does not tolerate: delete it');
    this.#api.deletePod(namespace, name, {});
  }

  #event(namespace: string, name: string, what: string): void {
    // the reference has no UID: kubectl describe pod, which asks for the pod's UID, does not list these events
    this.#api.recordEvent({
      involved: { apiVersion: 'v1', kind: 'Pod', name, namespace }, type: 'Normal', reason: 'TaintManagerEviction',
      message: `${what} ${namespace}/${name}`, component: COMPONENT,
    });
  }
}

const key = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
const signature = (p: Pod): string => `${p.spec.nodeName ?? ''} ${JSON.stringify(p.spec.tolerations ?? [])}`;

/** The smallest tolerationSeconds in ms; 0 for none or a non-positive one; -1: tolerated forever. */
function minTolerationTime(tolerations: Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}
