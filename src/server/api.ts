// The REST resources under /api/v1: pods (list, get, watch, create, delete, patch, update; the log, ephemeralcontainers,
// eviction and resize subresources; exec is a stream, served by exec.ts), nodes (list, get, watch, patch: kubectl label/annotate/cordon/uncordon/taint), events,
// namespaces and services (list, get, watch), configmaps and secrets (list, get, watch, create, delete, patch, update). Lists and objects come from the change feed's current snapshot, so a
// list's resourceVersion and a watch started from it agree; changes go through the engine's API server.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/installer.go (the routes and verbs);
// handlers/get.go (ListResource: selectors, limit/continue, watch), create.go, delete.go, patch.go, update.go

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClusterAction, ConfigObject, Pod } from '../sim/index.ts';
import type { LiveCluster } from './cluster.ts';
import { type ResourceName, resourceInfo } from './discovery.ts';
import { serveLog } from './logs.ts';
import { contentTypeOf, negotiate, sendJson } from './media.ts';
import type { Namespace } from '../sim/api/namespaces.ts';
import type { Service } from '../sim/api/services.ts';
import { fieldValidationOf, parseCreateBody, parseDeleteOptions, parseJsonBody, parsePatch, patchTypeOf } from './patch.ts';
import { fieldMatcher, labelMatcher } from './selectors.ts';
import { decodeProtobufConfig } from './proto.ts';
import { byNamespaceAndName } from '../sim/api/namespaces.ts';
import { HttpError, badRequest, methodNotAllowed, notModelled, objectNotFound, pathNotFound, preconditionFailed, toWire } from './status.ts';
import { parseIncludeObject, toTable } from './tables.ts';
import { type Watched, serveWatch } from './watch.ts';

export interface ResourcePath {
  resource: ResourceName;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** /api/v1/... → which resource, namespace, name and subresource; undefined for anything else. */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  if (!pathname.startsWith('/api/v1/')) return undefined;
  const seg = pathname.slice('/api/v1/'.length).split('/').filter((s) => s !== '').map(decodeURIComponent);
  let rp: ResourcePath;
  if (seg[0] === 'namespaces' && seg.length >= 3) {
    rp = { namespace: seg[1], resource: seg[2] as ResourceName, name: seg[3], subresource: seg[4] };
    if (seg.length > 5) return undefined;
  } else {
    rp = { resource: seg[0] as ResourceName, name: seg[1], subresource: seg[2] };
    if (seg.length > 3) return undefined;
  }
  const info = resourceInfo(rp.resource);
  if (!info) return undefined;
  // A cluster-scoped resource has no namespaced path, and a namespaced one has no name without its namespace.
  if (rp.namespace !== undefined && !info.namespaced) return undefined;
  if (info.namespaced && rp.namespace === undefined && rp.name !== undefined) return undefined;
  return rp;
}

export interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  body: Buffer;
}

export interface OpenWatch {
  close(): void;
}

export class ResourceApi {
  readonly #cluster: LiveCluster;
  readonly #namespaces: Namespace[];
  readonly #services: Service[];
  /** Each namespace's kube-root-ca.crt: fixed, never in the feed. */
  readonly #rootCAs: ConfigObject[];
  readonly #watches = new Set<OpenWatch>();

  constructor(cluster: LiveCluster, namespaces: Namespace[], services: Service[], rootCAs: ConfigObject[] = []) {
    this.#cluster = cluster;
    this.#namespaces = namespaces;
    this.#services = services;
    this.#rootCAs = rootCAs;
  }

  /** How many watches are open (each `kubectl get -w` holds one). */
  get openWatches(): number {
    return this.#watches.size;
  }

  /** End every open watch (server shutdown). */
  closeWatches(): void {
    for (const w of [...this.#watches]) w.close();
  }

  handle(rp: ResourcePath, r: ApiRequest): void {
    const info = resourceInfo(rp.resource)!;
    const method = r.req.method ?? 'GET';
    if (rp.subresource !== undefined) {
      if (rp.resource !== 'pods' || rp.name === undefined) throw pathNotFound();
      // kubectl debug patches pods/<name>/ephemeralcontainers; kubectl patch --subresource resize, pods/<name>/resize
      if (rp.subresource === 'ephemeralcontainers' || rp.subresource === 'resize') {
        if (method === 'GET') return this.#get({ ...rp, subresource: undefined }, r);
        if (method !== 'PATCH') throw methodNotAllowed();
        return this.#patch(rp, r);
      }
      if (rp.subresource === 'eviction') {
        if (method !== 'POST') throw methodNotAllowed();
        return this.#evict(rp, r);
      }
      // exec is a stream (server.ts answers its upgrade request); attach and port-forward are not modelled
      if (rp.subresource === 'exec') throw badRequest('Upgrade request required');
      if (rp.subresource === 'attach' || rp.subresource === 'portforward') {
        throw notModelled(`the ${rp.subresource} stream (kubectl ${rp.subresource === 'attach' ? 'attach' : 'port-forward'})`);
      }
      if (rp.subresource !== 'log') throw pathNotFound();
      if (method !== 'GET') throw methodNotAllowed();
      return serveLog(r.res, this.#cluster.engine.state(), rp.namespace!, rp.name!, r.query);
    }
    const watch = r.query.get('watch') === 'true' || r.query.get('watch') === '1';
    const verb =
      method === 'GET' ? (rp.name !== undefined ? 'get' : watch ? 'watch' : 'list')
      : method === 'POST' && rp.name === undefined ? 'create'
      : method === 'DELETE' ? (rp.name !== undefined ? 'delete' : 'deletecollection')
      : method === 'PATCH' && rp.name !== undefined ? 'patch'
      : method === 'PUT' && rp.name !== undefined ? 'update'
      : 'unsupported';
    if (!info.verbs.includes(verb)) throw methodNotAllowed();
    switch (verb) {
      case 'get':
        return this.#get(rp, r);
      case 'list':
        return this.#list(rp, r);
      case 'watch':
        return this.#watch(rp, r);
      case 'create':
        return this.#create(rp, r);
      case 'delete':
        return this.#delete(rp, r);
      case 'patch':
        return this.#patch(rp, r);
      case 'update':
        return this.#update(rp, r);
    }
  }

  // -------------------------------------------------------------------------------------------------------

  /**
   * The objects of a resource now: the feed's, or the fixed ones (namespaces and services never change; the
   * ConfigMaps are the feed's and each namespace's kube-root-ca.crt, in storage key order).
   */
  #objects(resource: ResourceName): Watched[] {
    if (resource === 'namespaces') return this.#namespaces;
    if (resource === 'services') return this.#services;
    if (resource === 'configmaps') {
      return [...this.#rootCAs, ...(this.#cluster.feed.objects('configmaps') as ConfigObject[])].sort(byNamespaceAndName);
    }
    return this.#cluster.feed.objects(resource);
  }

  #now(): number {
    return this.#cluster.epoch + this.#cluster.now;
  }

  /** Namespace + label + field selection, as one predicate. */
  #selector(rp: ResourcePath, query: URLSearchParams): (o: Watched) => boolean {
    const labels = labelMatcher(query.get('labelSelector'));
    const fields = fieldMatcher(rp.resource, query.get('fieldSelector'));
    return (o) => (rp.namespace === undefined || o.metadata.namespace === rp.namespace) && labels(o) && fields(o);
  }

  #get(rp: ResourcePath, r: ApiRequest): void {
    const out = negotiate(r.req.headers.accept, true);
    const found = this.#objects(rp.resource).find(
      (o) => o.metadata.name === rp.name && (rp.namespace === undefined || o.metadata.namespace === rp.namespace),
    );
    if (!found) throw objectNotFound(rp.resource, rp.name!);
    if (out.kind === 'table') {
      const table = toTable(rp.resource, [found], {
        now: this.#now(), include: parseIncludeObject(r.query.get('includeObject')), version: out.version,
        resourceVersion: (found.metadata as { resourceVersion?: string }).resourceVersion,
      });
      return sendJson(r.res, 200, table, contentTypeOf(out));
    }
    sendJson(r.res, 200, found);
  }

  #list(rp: ResourcePath, r: ApiRequest): void {
    const out = negotiate(r.req.headers.accept, true);
    const selects = this.#selector(rp, r.query);
    let items = this.#objects(rp.resource).filter(selects);
    // limit/continue: the continue token is the offset of the next page in this (stable, key-ordered) list.
    const offset = Number(r.query.get('continue') ?? 0) || 0;
    const limit = Number(r.query.get('limit') ?? 0) || 0;
    let next: string | undefined;
    if (offset > 0) items = items.slice(offset);
    if (limit > 0 && items.length > limit) {
      items = items.slice(0, limit);
      next = String(offset + limit);
    }
    const resourceVersion = this.#cluster.feed.resourceVersion;
    if (out.kind === 'table') {
      const table = toTable(rp.resource, items, {
        now: this.#now(), include: parseIncludeObject(r.query.get('includeObject')), version: out.version, resourceVersion, continueToken: next,
      });
      return sendJson(r.res, 200, table, contentTypeOf(out));
    }
    const kind = `${resourceInfo(rp.resource)!.kind}List`;
    sendJson(r.res, 200, { kind, apiVersion: 'v1', metadata: { resourceVersion, ...(next ? { continue: next } : {}) }, items });
  }

  #watch(rp: ResourcePath, r: ApiRequest): void {
    const out = negotiate(r.req.headers.accept, true);
    const include = parseIncludeObject(r.query.get('includeObject'));
    const timeout = r.query.get('timeoutSeconds');
    const epoch = this.#cluster.epoch;
    const handle = serveWatch(r.req, r.res, {
      feed: this.#cluster.feed,
      kind: rp.resource === 'namespaces' || rp.resource === 'services' ? undefined : rp.resource,
      selects: this.#selector(rp, r.query),
      resourceVersion: r.query.get('resourceVersion') ?? '',
      current: () => this.#objects(rp.resource),
      now: () => this.#cluster.now,
      contentType: contentTypeOf(out),
      ...(timeout ? { timeoutMs: Number(timeout) * 1000 } : {}),
      encode: (e, first) =>
        out.kind === 'table'
          ? toTable(rp.resource, [e.object as Watched], { now: epoch + e.t, include, version: out.version, noHeaders: !first })
          : e.object,
    });
    this.#watches.add(handle);
    r.res.on('close', () => this.#watches.delete(handle));
  }

  #submit(r: ApiRequest, action: ClusterAction, okCode: number): void {
    const result = this.#cluster.apply(action);
    if (!result.ok) throw new HttpError(toWire(result.status));
    // the warnings of the request (unknown fields dropped under fieldValidation=Warn), as Warning headers:
    // warn-code 299, no agent, the text as a quoted string, which client-go prints as "Warning: <text>"
    // upstream: staging/src/k8s.io/apiserver/pkg/endpoints/filters/warning.go, net/http/headers.go (NewWarningHeader)
    if (result.warnings?.length) r.res.setHeader('Warning', result.warnings.map((w) => `299 - ${JSON.stringify(w)}`));
    sendJson(r.res, okCode, result.object);
  }

  #create(rp: ResourcePath, r: ApiRequest): void {
    negotiate(r.req.headers.accept, false);
    if (r.query.has('dryRun')) throw notModelled('dry-run (--dry-run=server)', 'use --dry-run=client');
    const fieldValidation = fieldValidationOf(r.query, 'CreateOptions');
    const kind = rp.resource === 'configmaps' ? 'ConfigMap' : rp.resource === 'secrets' ? 'Secret' : 'Pod';
    // kubectl's typed clients (create configmap, create secret) send protobuf
    const protobuf = kind !== 'Pod' && (r.req.headers['content-type'] ?? '').split(';')[0].trim() === 'application/vnd.kubernetes.protobuf';
    const obj = protobuf ? decodeProtobufConfig(r.body, kind as 'ConfigMap' | 'Secret') : parseCreateBody(r.body, r.req.headers['content-type'], kind);
    if (!this.#namespaces.some((ns) => ns.metadata.name === rp.namespace)) throw objectNotFound('namespaces', rp.namespace!);
    if (kind === 'Pod') return this.#submit(r, { type: 'create', namespace: rp.namespace!, obj, fieldValidation }, 201);
    // the URL's kind and version where the body has none (the handler's defaultGVK); a body of another kind is not
    // modelled (kubectl sends each object to its own resource)
    const body = obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? (obj as Record<string, unknown>) : undefined;
    if (body && body.kind !== undefined && body.kind !== '' && body.kind !== kind) throw notModelled(`creating a ${String(body.kind)} through ${rp.resource}`);
    const typed = body ? { ...body, kind, apiVersion: body.apiVersion || 'v1' } : obj;
    this.#submit(r, { type: 'config', verb: 'create', namespace: rp.namespace!, obj: typed, fieldValidation }, 201);
  }

  #delete(rp: ResourcePath, r: ApiRequest): void {
    negotiate(r.req.headers.accept, false);
    const opts = parseDeleteOptions(r.query, r.body);
    if (rp.resource === 'configmaps' || rp.resource === 'secrets') return this.#deleteConfig(rp, r, opts.preconditions);
    const pod = this.#cluster.feed.objects('pods').find((p) => p.metadata.namespace === rp.namespace && p.metadata.name === rp.name) as Pod | undefined;
    if (!pod) throw objectNotFound('pods', rp.name!);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== pod.metadata.uid) {
      throw preconditionFailed('pods', rp.name!, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${pod.metadata.uid}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion) {
      throw preconditionFailed('pods', rp.name!, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${pod.metadata.resourceVersion}`);
    }
    const action: ClusterAction = {
      type: 'delete', kind: 'Pod', namespace: rp.namespace!, name: rp.name!,
      ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
    };
    this.#submit(r, action, 200);
  }

  /**
   * DELETE of a ConfigMap or a Secret: gone at once (no graceful deletion), answered with a Success Status naming it
   * (their storage does not return the deleted object, as the pods' does).
   */
  // upstream: staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go Delete, finalizeDelete
  #deleteConfig(rp: ResourcePath, r: ApiRequest, pre: { uid?: string; resourceVersion?: string } | undefined): void {
    const resource = rp.resource as 'configmaps' | 'secrets';
    const found = this.#objects(resource).find((o) => o.metadata.namespace === rp.namespace && o.metadata.name === rp.name) as ConfigObject | undefined;
    if (!found) throw objectNotFound(resource, rp.name!);
    if (pre?.uid && pre.uid !== found.metadata.uid) {
      throw preconditionFailed(resource, rp.name!, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${found.metadata.uid}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== found.metadata.resourceVersion) {
      throw preconditionFailed(resource, rp.name!, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${found.metadata.resourceVersion}`);
    }
    const result = this.#cluster.apply({ type: 'config', verb: 'delete', kind: resource === 'configmaps' ? 'ConfigMap' : 'Secret', namespace: rp.namespace!, name: rp.name! });
    if (!result.ok) throw new HttpError(toWire(result.status));
    sendJson(r.res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: rp.name, kind: resource, uid: found.metadata.uid } });
  }

  // upstream: pkg/registry/core/pod/storage/eviction.go EvictionREST.Create: 201 with a Success Status
  #evict(rp: ResourcePath, r: ApiRequest): void {
    negotiate(r.req.headers.accept, false);
    if (r.query.has('dryRun')) throw notModelled('dry-run (--dry-run=server)', 'use --dry-run=client');
    const body = parseJsonBody(r.body.toString('utf8')) as { deleteOptions?: { gracePeriodSeconds?: number; dryRun?: string[] } } | null;
    if (body?.deleteOptions?.dryRun?.length) throw notModelled('dry-run (--dry-run=server)', 'use --dry-run=client');
    const grace = body?.deleteOptions?.gracePeriodSeconds;
    const result = this.#cluster.apply({ type: 'evict', namespace: rp.namespace!, name: rp.name!, ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}) });
    if (!result.ok) throw new HttpError(toWire(result.status));
    sendJson(r.res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  }

  /** PUT: the whole object in place of the stored one (kubectl replace), through the update path a patch takes. */
  #update(rp: ResourcePath, r: ApiRequest): void {
    negotiate(r.req.headers.accept, false);
    if (r.query.has('dryRun')) throw notModelled('dry-run (--dry-run=server)', 'use --dry-run=client');
    const fieldValidation = fieldValidationOf(r.query, 'UpdateOptions');
    const kind = rp.resource === 'configmaps' ? 'ConfigMap' : rp.resource === 'secrets' ? 'Secret' : 'Pod';
    const patch = parseCreateBody(r.body, r.req.headers['content-type'], kind);
    const target = { namespace: rp.namespace!, name: rp.name!, patchType: 'put' as const, patch, fieldValidation };
    if (kind === 'Pod') return this.#submit(r, { type: 'patch', kind, ...target }, 200);
    this.#submit(r, { type: 'config', verb: 'patch', kind, ...target }, 200);
  }

  #patch(rp: ResourcePath, r: ApiRequest): void {
    negotiate(r.req.headers.accept, false);
    const patchType = patchTypeOf(r.req.headers['content-type']);
    if (r.query.has('dryRun')) throw notModelled('dry-run (--dry-run=server)', 'use --dry-run=client');
    const fieldValidation = fieldValidationOf(r.query, 'PatchOptions');
    const patch = parsePatch(r.body.toString('utf8'));
    if (rp.resource === 'nodes') return this.#submit(r, { type: 'patch', kind: 'Node', name: rp.name!, patchType, patch, fieldValidation }, 200);
    if (rp.resource === 'configmaps' || rp.resource === 'secrets') {
      const kind = rp.resource === 'configmaps' ? 'ConfigMap' : 'Secret';
      return this.#submit(r, { type: 'config', verb: 'patch', kind, namespace: rp.namespace!, name: rp.name!, patchType, patch, fieldValidation }, 200);
    }
    const subresource = rp.subresource as 'ephemeralcontainers' | 'resize' | undefined;
    this.#submit(r, { type: 'patch', kind: 'Pod', namespace: rp.namespace!, name: rp.name!, patchType, patch, fieldValidation, ...(subresource ? { subresource } : {}) }, 200);
  }
}
