// The resources the simulated cluster serves, with the verbs it implements for each: what `podlife serve` answers
// discovery with (src/server/discovery.ts), and what podlife's own `kubectl api-resources` prints.
// upstream: pkg/registry/core/rest/storage_core.go (the core resources)

export type ResourceName = 'pods' | 'events' | 'nodes' | 'namespaces' | 'services' | 'configmaps' | 'secrets';

export interface ResourceInfo {
  name: ResourceName;
  /** Subresources served (with their verbs). */
  subresources?: { name: string; verbs: string[]; kind?: { group: string; version: string; kind: string } }[];
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories?: string[];
}

/** The core/v1 resources the simulated cluster serves, with the verbs it implements for each, by name (as discovery lists them). */
export const RESOURCES: ResourceInfo[] = [
  // the ConfigMaps and Secrets a run creates (api/configs.ts) and each namespace's kube-root-ca.crt (api/namespaces.ts):
  // created, patched, updated (PUT: kubectl replace) and deleted; in no category (`get all` leaves them out, as on a
  // real cluster)
  { name: 'configmaps', singular: 'configmap', kind: 'ConfigMap', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['cm'] },
  { name: 'events', singular: 'event', kind: 'Event', namespaced: true, verbs: ['get', 'list', 'watch'], shortNames: ['ev'] },
  { name: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false, verbs: ['get', 'list', 'watch'], shortNames: ['ns'] },
  { name: 'nodes', singular: 'node', kind: 'Node', namespaced: false, verbs: ['get', 'list', 'patch', 'watch'], shortNames: ['no'] },
  {
    name: 'pods', singular: 'pod', kind: 'Pod', namespaced: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['po'], categories: ['all'],
    subresources: [
      { name: 'ephemeralcontainers', verbs: ['get', 'patch'] },
      // the Eviction API (kubectl drain looks for it here: drain.CheckEvictionSupport)
      { name: 'eviction', verbs: ['create'], kind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
      { name: 'log', verbs: ['get'] }, { name: 'resize', verbs: ['get', 'patch'] },
    ],
  },
  { name: 'secrets', singular: 'secret', kind: 'Secret', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: [] },
  // the cluster's two fixed services (src/sim/api/services.ts), in "all" after pods as on a real cluster
  { name: 'services', singular: 'service', kind: 'Service', namespaced: true, verbs: ['get', 'list', 'watch'], shortNames: ['svc'], categories: ['all'] },
];

/**
 * The core group's versions (GET /api), what `podlife serve` answers discovery with and podlife's `kubectl
 * api-versions` prints. There are no named groups (GET /apis lists none): every resource above is core/v1.
 */
export const CORE_VERSIONS = ['v1'];

export function resourceInfo(name: string): ResourceInfo | undefined {
  return RESOURCES.find((r) => r.name === name);
}

/**
 * The API server's health endpoints: a GET answers "ok" (text/plain, no newline). `podlife serve` serves them and
 * podlife's own `kubectl get --raw` answers them; the list of checks behind them (?verbose, ?exclude) is not modelled.
 */
export const HEALTH_PATHS = ['/healthz', '/livez', '/readyz'];
