// The namespaces of a fresh kubeadm cluster. The engine models pods, events and nodes; namespaces never
// change in a scenario, so they are fixed objects created with the cluster (at its first node's creation).

import type { ClusterState, ConfigObject, Node } from '../types.ts';
import { NAMESPACE_NAMES } from './apiserver.ts';
import { ROOT_CA_CERT, ROOT_CA_KEY, ROOT_CA_NAME } from './root-ca.ts';

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

/** When the cluster was made: its first node's registration (the namespaces and their kube-root-ca.crt come with it). */
const clusterCreated = (nodes: Node[]): string => nodes.map((n) => n.metadata.creationTimestamp).sort()[0] ?? '1970-01-01T00:00:00Z';

export function clusterNamespaces(nodes: Node[]): Namespace[] {
  const created = clusterCreated(nodes);
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

// The ConfigMaps and Secrets as the API server lists them: those a run created (ClusterState.configMaps, .secrets,
// stored by api/configs.ts) and, in every namespace, the ConfigMap kube-root-ca.crt, which kube-controller-manager's
// root CA publisher makes as the namespace appears. The model does not store that one (kubelet/volumes.ts gives the
// kubelet its one key): it is a fixed object created with the cluster, as the namespaces are, printed as `kubectl get
// cm` shows it. No Secret exists by default: since v1.24 no token Secret is made for a service account.
// upstream: pkg/controller/certificates/rootcacertpublisher/publisher.go (DescriptionAnnotation, the ConfigMap it
//           creates: no labels, the one annotation, data ca.crt)
// upstream: publisher.go DescriptionAnnotation and its text
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IPs or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The API server's list order (its storage keys): by namespace, then by name. */
export const byNamespaceAndName = (a: ConfigObject, b: ConfigObject): number =>
  byKey(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || byKey(a.metadata.name, b.metadata.name);

/** Each namespace's kube-root-ca.crt, created with the cluster. */
export function rootCAConfigMaps(nodes: Node[]): ConfigObject[] {
  const created = clusterCreated(nodes);
  return NAMESPACE_NAMES.map((namespace, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: ROOT_CA_NAME,
      namespace,
      uid: stableUid(`configmap/${namespace}/${ROOT_CA_NAME}`),
      resourceVersion: String(330 + i),
      creationTimestamp: created,
      annotations: { 'kubernetes.io/description': DESCRIPTION },
    },
    data: { [ROOT_CA_KEY]: ROOT_CA_CERT },
  }));
}

/** The ConfigMaps of a namespace (all with undefined), kube-root-ca.crt among them, in the API server's order (namespace, then name). */
export function clusterConfigMaps(state: Pick<ClusterState, 'nodes' | 'configMaps'>, namespace: string | undefined): ConfigObject[] {
  return [...rootCAConfigMaps(state.nodes), ...(state.configMaps ?? [])]
    .filter((c) => namespace === undefined || c.metadata.namespace === namespace)
    .sort(byNamespaceAndName);
}

/** The Secrets of a namespace (all with undefined), in the API server's order. */
export function clusterSecrets(state: Pick<ClusterState, 'secrets'>, namespace: string | undefined): ConfigObject[] {
  return (state.secrets ?? []).filter((s) => namespace === undefined || s.metadata.namespace === namespace).sort(byNamespaceAndName);
}
