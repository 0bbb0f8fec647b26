// The kubelet's node lease (kube-node-lease/<node>), the heartbeat the node lifecycle controller watches: the kubelet
// holds it and renews it every 10 s, a quarter of its 40 s duration. The model does not store it or step it: both
// follow from the node's first status post (its Ready heartbeat), so it is derived when someone looks.
// upstream: pkg/kubelet/kubelet.go (NodeLeaseDurationSeconds 40, nodeLeaseRenewIntervalFraction 0.25),
// staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go (newLease, sync)

import { stableUid } from '../api/namespaces.ts';
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
      uid: stableUid(`lease/${node.metadata.uid ?? node.metadata.name}`),
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
