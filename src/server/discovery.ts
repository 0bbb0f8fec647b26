// Discovery: what the server serves, as kubectl asks for it. kubectl 1.32 first asks /api and /apis for
// aggregated discovery (apidiscovery.k8s.io/v2, one round trip); it falls back to the legacy documents
// (/api → APIVersions, /apis → APIGroupList, /api/v1 → APIResourceList). Both come from one table.
// upstream: staging/src/k8s.io/api/apidiscovery/v2/types.go; staging/src/k8s.io/client-go/discovery/
// aggregated_discovery.go (the media type it accepts); pkg/registry/core/rest/storage_core.go (the core resources)

/** The media type of aggregated discovery; client-go recognises the response by this Content-Type. */
export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

// the table of served resources is the simulation's (src/sim/api/resources.ts): podlife's own `kubectl api-resources`
// prints it too
import { CORE_VERSIONS, RESOURCES, type ResourceInfo, type ResourceName, resourceInfo } from '../sim/api/resources.ts';

export { RESOURCES, type ResourceInfo, type ResourceName, resourceInfo };

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
  return { kind: 'APIVersions', versions: CORE_VERSIONS, serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
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
        metadata: {},
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
