// The kubelet's node lease (kube-node-lease/<node>), the heartbeat the node lifecycle controller watches: the kubelet
// holds it and renews it every 10 s, a quarter of its 40 s duration. The model does not store it or step it: both
// follow from the node's first status post (its Ready heartbeat), so it is derived when someone looks.
// upstream: pkg/kubelet/kubelet.go (NodeLeaseDurationSeconds 40, nodeLeaseRenewIntervalFraction 0.25),
// staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go (newLease, sync)

import { parseRfc3339, rfc3339 } from '../render/clock.ts';
import type { Node } from '../types.ts';

const LEASE_DURATION_SECONDS = 40;
const RENEW_INTERVAL = (LEASE_DURATION_SECONDS * 1000) / 4;

/** The lease's last renewal at wall-clock ms `now`: the kubelet's start, then every 10 s. */
export function leaseRenewTime(node: Node, now: number): number {
  const ready = node.status.conditions.find((c) => c.type === 'Ready') ?? node.status.conditions[0];
  const start = parseRfc3339(ready ? ready.lastHeartbeatTime : node.metadata.creationTimestamp);
  return now < start ? start : start + Math.floor((now - start) / RENEW_INTERVAL) * RENEW_INTERVAL;
}

/** The Lease object the API serves for the node at wall-clock ms `now` (coordination.k8s.io/v1). */
export function nodeLease(node: Node, now: number): unknown {
  const renew = rfc3339(leaseRenewTime(node, now));
  return {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    metadata: {
      name: node.metadata.name,
      namespace: 'kube-node-lease',
      // the model draws no UID for the lease (that would shift every later draw): one derived from the node's
      uid: leaseUid(node.metadata.uid ?? node.metadata.name),
      resourceVersion: node.metadata.resourceVersion,
      creationTimestamp: node.metadata.creationTimestamp,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid }],
    },
    spec: {
      holderIdentity: node.metadata.name,
      leaseDurationSeconds: LEASE_DURATION_SECONDS,
      // metav1.MicroTime
      renewTime: `${renew.slice(0, -1)}.000000Z`,
    },
  };
}

/** A version-4-shaped UID for the lease, derived from the node's (FNV-1a of it, four ways): the same on every look. */
function leaseUid(nodeUid: string): string {
  let hex = '';
  for (let k = 0; k < 4; k++) {
    let h = 0x811c9dc5 ^ k;
    for (let i = 0; i < nodeUid.length; i++) h = Math.imul(h ^ nodeUid.charCodeAt(i), 0x01000193);
    hex += (h >>> 0).toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16], 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
