// The OpenAPI v3 documents kubectl needs for `kubectl apply`: with its default --validate=strict,
// kubectl asks /openapi/v3 whether the server validates fields itself (the PATCH operation of the kind
// lists a `fieldValidation` query parameter). If it does, kubectl sends fieldValidation=Strict and
// validates nothing on the client; otherwise it downloads the full protobuf /openapi/v2 document to
// validate client-side, and fails without one. The engine honours fieldValidation (Strict: unknown fields
// → 400; Warn, the default: dropped with a Warning header each; Ignore: dropped), so the server says it
// supports field validation, for the kinds it serves, and nothing more: there are no schemas in these
// documents, and `kubectl explain` says it cannot find the resource.
// upstream: staging/src/k8s.io/cli-runtime/pkg/resource/query_param_verifier_v3.go (supportsQueryParamV3,
// hasGVKExtensionV3); staging/src/k8s.io/kubectl/pkg/cmd/util/factory_client_access.go (Validator)

import { RESOURCES } from './discovery.ts';

/** Changes when the documents change, so kubectl's disk cache of them is refreshed. */
const HASH = 'podlife-1';

/** GET /openapi/v3: the index of group-version documents. */
export function openApiV3Index(): unknown {
  return { paths: { 'api/v1': { serverRelativeURL: `/openapi/v3/api/v1?hash=${HASH}` } } };
}

/** GET /openapi/v3/api/v1: one PATCH operation per kind, each naming its kind and the fieldValidation parameter. */
export function openApiV3CoreV1(): unknown {
  const paths: Record<string, unknown> = {};
  for (const r of RESOURCES) {
    const path = r.namespaced ? `/api/v1/namespaces/{namespace}/${r.name}/{name}` : `/api/v1/${r.name}/{name}`;
    paths[path] = {
      patch: {
        operationId: `patchCoreV1${r.namespaced ? 'Namespaced' : ''}${r.kind}`,
        parameters: [
          {
            name: 'fieldValidation',
            in: 'query',
            description: 'Strict: unknown and duplicate fields are rejected with 400 BadRequest.',
            schema: { type: 'string', uniqueItems: true },
          },
        ],
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: r.kind },
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes (podlife simulation)', version: 'v1.36.2' },
    paths,
    components: {},
  };
}
