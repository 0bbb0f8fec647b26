// kube-controller-manager's node lifecycle controller, the part a cordon shows: with TaintNodesByCondition it keeps
// the NoSchedule taint node.kubernetes.io/unschedulable on a node whose spec.unschedulable is set (kubectl cordon)
// and takes it off when it is cleared (kubectl uncordon), as soon as it sees the node change. (Its other work, the
// not-ready and unreachable taints from the node's conditions and lease, never applies: the model's nodes stay Ready.)
// upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go doNoScheduleTaintingPass;
//           pkg/controller/util/node/controller_utils.go SwapNodeControllerTaint;
//           pkg/controller/controller_utils.go AddOrUpdateTaintOnNode, RemoveTaintOffNode

import type { ApiServer } from '../api/apiserver.ts';
import type { SimContext } from '../core/context.ts';
import type { Node, Taint } from '../types.ts';

// (scheduler/framework.ts has the same taint; this module is loaded with the patches and imports nothing the page's
// engine bundle has, which would split that bundle)
const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
const isUnschedulableTaint = (t: Taint): boolean => t.key === UNSCHEDULABLE_TAINT.key && t.effect === UNSCHEDULABLE_TAINT.effect;

export class NodeLifecycleController {
  readonly #ctx: SimContext;
  readonly #api: ApiServer;

  constructor(ctx: SimContext, api: ApiServer) {
    this.#ctx = ctx;
    this.#api = api;
    api.watchNodes((node) => this.#doNoScheduleTaintingPass(node.metadata.name));
  }

  #doNoScheduleTaintingPass(name: string): void {
    const node: Node | undefined = this.#api.nodes.get(name);
    if (!node) return;
    const taints = node.spec.taints ?? [];
    const tainted = taints.some(isUnschedulableTaint);
    const want = node.spec.unschedulable === true;
    if (tainted === want) return;
    // upstream: controller/util/node SwapNodeControllerTaint stamps the taints it adds with timeAdded
    const next = want ? [...taints, { ...UNSCHEDULABLE_TAINT, timeAdded: this.#ctx.rfc3339() }] : taints.filter((t) => !isUnschedulableTaint(t));
    this.#api.patchNode(name, 'strategic', { spec: { taints: next } }, 'controller-manager');
  }
}
