// The kubelet's node status loop, the part a cordon shows: recordNodeSchedulableEvent, one of setNodeStatus's
// setters, compares the node's spec.unschedulable with what it last saw and records NodeNotSchedulable or
// NodeSchedulable ("Node worker01 status is now: NodeNotSchedulable"). The loop runs every
// nodeStatusUpdateFrequency (10 s, in step with the lease's renewals), so the event comes at its next pass. Loaded
// with the patches, as only a patch changes a node; it imports nothing the page's engine bundle has (that would
// split the bundle).
// upstream: pkg/kubelet/kubelet_node_status.go recordNodeSchedulableEvent, recordNodeStatusEvent;
//           pkg/kubelet/apis/config/v1beta1/defaults.go NodeStatusUpdateFrequency

import type { ApiServer } from '../api/apiserver.ts';
import type { SimContext } from '../core/context.ts';

const NODE_STATUS_UPDATE_FREQUENCY = 10_000;

/** Watch node `name` as its kubelet does; `unschedulable`: the node's spec.unschedulable when it registered. */
export function watchNodeSchedulable(ctx: SimContext, api: ApiServer, name: string, unschedulable: boolean): void {
  let last = unschedulable;
  let passAt = -1;
  api.watchNodes((node) => {
    if (node.metadata.name !== name) return;
    const at = Math.floor(ctx.now / NODE_STATUS_UPDATE_FREQUENCY) * NODE_STATUS_UPDATE_FREQUENCY + NODE_STATUS_UPDATE_FREQUENCY;
    if (at === passAt) return;
    passAt = at;
    ctx.loop.at(at, () => {
      const now = api.nodes.get(name)?.spec.unschedulable === true;
      if (now === last) return;
      last = now;
      const reason = now ? 'NodeNotSchedulable' : 'NodeSchedulable';
      api.recordEvent({
        involved: { kind: 'Node', name, uid: name }, type: 'Normal', reason, message: `Node ${name} status is now: ${reason}`,
        component: 'kubelet', host: name,
      });
      ctx.emit('kubelet', reason, `node/${name}`, `setNodeStatus: the node's spec.unschedulable is now ${now}`);
    });
  });
}
