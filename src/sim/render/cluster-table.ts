// kubectl's rows of the cluster-scoped objects, nodes and namespaces (pkg/printers/internalversion/printers.go).
// Only the command layer prints them: kept apart from table.ts, whose pod and event rows the player's panels
// print, so that the player's first load does not carry them.

import type { Node } from '../types.ts';
import type { Namespace } from '../api/namespaces.ts';
import { translateTimestampSince } from './table.ts';

export const NODE_COLUMNS = ['Name', 'Status', 'Roles', 'Age', 'Version'];
export const NODE_WIDE_COLUMNS = [
  ...NODE_COLUMNS, 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime',
];

export const NAMESPACE_COLUMNS = ['Name', 'Status', 'Age'];

/** upstream: pkg/printers/internalversion/printers.go printNamespace */
export function printNamespace(ns: Namespace, now: number): string[] {
  return [ns.metadata.name, ns.status.phase, translateTimestampSince(ns.metadata.creationTimestamp, now)];
}

/** The node's roles, sorted: from node-role.kubernetes.io/<role> labels and the kubernetes.io/role label. */
// upstream: pkg/printers/internalversion/printers.go findNodeRoles (kubectl's describe.go has the same)
export function findNodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v) {
      roles.add(v);
    }
  }
  return [...roles].sort();
}

/** upstream: pkg/printers/internalversion/printers.go printNode */
export function printNode(node: Node, now: number, wide = false): string[] {
  const ready = node.status.conditions.find((c) => c.type === 'Ready');
  const status = ready ? [ready.status === 'True' ? 'Ready' : 'NotReady'] : ['Unknown'];
  if (node.spec.unschedulable) status.push('SchedulingDisabled');
  const row = [
    node.metadata.name,
    status.join(','),
    findNodeRoles(node).join(',') || '<none>',
    translateTimestampSince(node.metadata.creationTimestamp, now),
    node.status.nodeInfo.kubeletVersion,
  ];
  if (wide) {
    const addr = (type: string) => node.status.addresses.find((a) => a.type === type)?.address ?? '<none>';
    const info = node.status.nodeInfo;
    row.push(
      addr('InternalIP'),
      addr('ExternalIP'),
      info.osImage || '<unknown>',
      info.kernelVersion || '<unknown>',
      info.containerRuntimeVersion || '<unknown>',
    );
  }
  return row;
}
