// The namespaces of a fresh kubeadm cluster. The engine models pods, events and nodes; namespaces never
// change in a scenario, so they are fixed objects created with the cluster (at its first node's creation).

import type { Node } from '../types.ts';
import { NAMESPACE_NAMES } from './apiserver.ts';

export interface Namespace {
  apiVersion: 'v1';
  kind: 'Namespace';
  metadata: { name: string; uid: string; resourceVersion: string; creationTimestamp: string; labels: Record<string, string> };
  spec: { finalizers: string[] };
  status: { phase: 'Active' };
}

/**
 * A stable UUID-shaped id from a name (FNV-1a), for objects the model derives instead of storing (namespaces, node
 * leases): they look the same in every run and draw nothing from the seeded generator.
 */
export function stableUid(name: string): string {
  const words: string[] = [];
  let h = 0x811c9dc5;
  for (let round = 0; round < 4; round++) {
    for (const c of `${round}:${name}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    words.push(h.toString(16).padStart(8, '0'));
  }
  const hex = words.join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function clusterNamespaces(nodes: Node[]): Namespace[] {
  const created = nodes.map((n) => n.metadata.creationTimestamp).sort()[0] ?? '1970-01-01T00:00:00Z';
  return NAMESPACE_NAMES.map((name, i) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: stableUid(name),
      resourceVersion: String(i + 1),
      creationTimestamp: created,
      labels: { 'kubernetes.io/metadata.name': name },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }));
}
