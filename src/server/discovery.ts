// Discovery: what the server serves, as kubectl asks for it. kubectl 1.32 first asks /api and /apis for
// aggregated discovery (apidiscovery.k8s.io/v2, one round trip); it falls back to the legacy documents
// (/api → APIVersions, /apis → APIGroupList, /api/v1 → APIResourceList). Both come from one table.
// upstream: staging/src/k8s.io/api/apidiscovery/v2/types.go; staging/src/k8s.io/client-go/discovery/
// aggregated_discovery.go (the media type it accepts); pkg/registry/core/rest/storage_core.go (the core resources)

/** The media type of aggregated discovery; client-go recognises the response by this Content-Type. */
export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export type ResourceName = 'pods' | 'events' | 'nodes' | 'namespaces' | 'services';

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

/** The core/v1 resources the simulated cluster serves, with the verbs it implements for each. */
export const RESOURCES: ResourceInfo[] = [
  { name: 'events', singular: 'event', kind: 'Event', namespaced: true, verbs: ['get', 'list', 'watch'], shortNames: ['ev'] },
  { name: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false, verbs: ['get', 'list', 'watch'], shortNames: ['ns'] },
  { name: 'nodes', singular: 'node', kind: 'Node', namespaced: false, verbs: ['get', 'list', 'patch', 'watch'], shortNames: ['no'] },
  {
    name: 'pods', singular: 'pod', kind: 'Pod', namespaced: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'], shortNames: ['po'], categories: ['all'],
    subresources: [
      { name: 'ephemeralcontainers', verbs: ['get', 'patch'] },
      // the Eviction API (kubectl drain looks for it here: drain.CheckEvictionSupport)
      { name: 'eviction', verbs: ['create'], kind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
      { name: 'log', verbs: ['get'] }, { name: 'resize', verbs: ['get', 'patch'] },
    ],
  },
  // the cluster's two fixed services (src/sim/api/services.ts), in "all" after pods as on a real cluster
  { name: 'services', singular: 'service', kind: 'Service', namespaced: true, verbs: ['get', 'list', 'watch'], shortNames: ['svc'], categories: ['all'] },
];

export function resourceInfo(name: string): ResourceInfo | undefined {
  return RESOURCES.find((r) => r.name === name);
}

/** GET /version. The build metadata says which server this is; kubectl parses it as semver. */
export function versionInfo(): Record<string, string> {
  return {
    major: '1',
    minor: '36',
    gitVersion: 'v1.36.2+podlife',
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '',
    goVersion: '',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** GET /api (legacy). */
export function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

/** GET /apis (legacy): no API groups beyond the core group. */
export function apiGroupList(): unknown {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [] };
}

/** GET /api/v1 (legacy). */
export function apiResourceList(): unknown {
  return {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: RESOURCES.flatMap((r) => [
      {
        name: r.name,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        shortNames: r.shortNames,
        ...(r.categories ? { categories: r.categories } : {}),
      },
      ...(r.subresources ?? []).map((sub) => ({
        name: `${r.name}/${sub.name}`, singularName: '', namespaced: r.namespaced,
        ...(sub.kind ? { group: sub.kind.group, version: sub.kind.version, kind: sub.kind.kind } : { kind: r.kind }), verbs: sub.verbs,
      })),
    ]),
  };
}

/** GET /api as APIGroupDiscoveryList: the core group with its one version. */
export function aggregatedCore(): unknown {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [
      {
        metadata: { creationTimestamp: null },
        versions: [
          {
            version: 'v1',
            resources: RESOURCES.map((r) => ({
              resource: r.name,
              responseKind: { group: '', version: 'v1', kind: r.kind },
              scope: r.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: r.singular,
              verbs: r.verbs,
              shortNames: r.shortNames,
              ...(r.categories ? { categories: r.categories } : {}),
              ...(r.subresources
                ? { subresources: r.subresources.map((sub) => ({ subresource: sub.name, responseKind: sub.kind ?? { group: '', version: 'v1', kind: r.kind }, verbs: sub.verbs })) }
                : {}),
            })),
            freshness: 'Current',
          },
        ],
      },
    ],
  };
}

/** GET /apis as APIGroupDiscoveryList: no groups. */
export function aggregatedGroups(): unknown {
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items: [] };
}

/** Whether the Accept header asks for aggregated discovery v2 (client-go sends it first in the list). */
export function wantsAggregated(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params[0] === 'application/json' && params.includes('g=apidiscovery.k8s.io') && params.includes('v=v2') &&
      params.includes('as=APIGroupDiscoveryList');
  });
}
