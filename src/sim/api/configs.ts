// ConfigMaps and Secrets: the API server's store of them (create, patch and delete, as `kubectl create
// configmap|secret`, `create|apply -f`, `patch` and `delete` send them), and the kubelet's configmap and secret
// managers' view of it, which a pod's volumes (kubelet/volumes.ts) and environment (kubelet/envvars.ts) read, each as
// of its own moment: a container's environment as the object was when the container was made, a volume's files as
// it was when the kubelet last wrote them. Every namespace also has the
// ConfigMap kube-root-ca.crt (key ca.crt), which the root CA publisher makes with the namespace: it is not stored
// here (the command layer prints it with the namespaces' fixed objects) but the managers find it.
// Loaded only by an engine whose run sends a config action (a page's replay loads it for such a run).
// upstream: pkg/registry/core/configmap/strategy.go, pkg/registry/core/secret/strategy.go (PrepareForCreate);
//           pkg/apis/core/validation/validation.go ValidateConfigMap, ValidateSecret, ValidateConfigMapUpdate,
//           ValidateSecretUpdate, IsConfigMapKey (apimachinery); apiserver pkg/endpoints/handlers/patch.go;
//           pkg/apis/core/v1/conversion.go Convert_v1_Secret_To_core_Secret (stringData overwrites data);
//           pkg/kubelet/configmap/configmap_manager.go, pkg/kubelet/secret/secret_manager.go (watch-based)

import type { ApplyResult, ConfigAction, ConfigObject, FieldValidation, PatchType } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { Collection } from '../core/history.ts';
import type { ApiServer, Patches } from './apiserver.ts';
import { alreadyExistsStatus, badRequestStatus, invalidStatus, notFoundStatus, renamedStatus, unprocessableStatus, type FieldError } from './fielderrors.ts';
import type { ApiStatus } from '../types.ts';
import { isConfigMapKey, patchBodyError, validateMeta } from './validation.ts';
import { clone } from '../core/clone.ts';
import { deepEqual } from '../core/structural.ts';
import { base64DecodedLength, base64FromText, textFromBase64 } from '../core/base64.ts';
import { ROOT_CA_NAME } from './root-ca.ts';


type Kind = ConfigObject['kind'];
const RESOURCE: Record<Kind, 'configmaps' | 'secrets'> = { ConfigMap: 'configmaps', Secret: 'secrets' };
/** The fields of each kind's v1 object: anything else is an unknown field, which strict decoding refuses. */
const FIELDS: Record<Kind, string[]> = {
  ConfigMap: ['apiVersion', 'kind', 'metadata', 'data', 'binaryData', 'immutable'],
  Secret: ['apiVersion', 'kind', 'metadata', 'data', 'stringData', 'type', 'immutable'],
};
const META_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'generation', 'labels', 'annotations', 'finalizers', 'ownerReferences', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'managedFields'];
// upstream: pkg/apis/core/types.go MaxSecretSize (1 MiB, for ConfigMaps too)
const MAX_SIZE = 1024 * 1024;

/** Go's base64.StdEncoding: the index of the first byte it refuses, or -1 when the text decodes. */
function base64Error(text: string): number {
  const m = /^[A-Za-z0-9+/]*/.exec(text)![0].length;
  const rest = text.slice(m);
  if (rest === '' ) return m % 4 === 0 ? -1 : m - (m % 4);
  if (rest === '=' && m % 4 === 3) return -1;
  if (rest === '==' && m % 4 === 2) return -1;
  return m % 4 < 2 ? m - (m % 4) : m;
}

const isStringMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A config object decoded, defaulted and validated, ready to store; or the API server's answer refusing it. */
export type Decoded =
  | { ok: true; kind: Kind; raw: { metadata: Record<string, any> & { name: string; namespace: string }; data?: Record<string, string>; binaryData?: Record<string, string>; immutable?: boolean; type?: string }; warnings: string[] }
  | { ok: false; status: ApiStatus; errors?: FieldError[] };

/**
 * What the API server does with a ConfigMap or Secret before storing it: decode (strict, unless fieldValidation says
 * otherwise), PrepareForCreate (a Secret's stringData into data, its type), validate. `suffix` makes generateName's.
 * The scenario parser calls it too, to point a manifest's error at its line.
 */
export function decodeConfig(namespace: string, obj: unknown, fieldValidation: string, suffix: () => string): Decoded {
  if (!isStringMap(obj)) return { ok: false, status: badRequestStatus('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf') };
  const raw = clone(obj) as Record<string, any>;
  const kind = raw.kind as Kind;
  if (kind !== 'ConfigMap' && kind !== 'Secret') return { ok: false, status: badRequestStatus(`the kind in the data (${raw.kind}) is not a ConfigMap or a Secret`) };
  if (raw.apiVersion !== undefined && raw.apiVersion !== 'v1') {
    return { ok: false, status: badRequestStatus(`the API version in the data (${raw.apiVersion}) does not match the expected API version (v1)`) };
  }
  const cannot = (why: string) => ({ ok: false as const, status: badRequestStatus(`${kind} in version "v1" cannot be handled as a ${kind}: ${why}`) });
  const meta = (raw.metadata ??= {}) as Record<string, any> & { name: string };
  if (!isStringMap(meta)) return cannot(`json: cannot unmarshal ${Array.isArray(meta) ? 'array' : typeof meta} into Go struct field ${kind}.metadata of type v1.ObjectMeta`);
  const unknown = [
    ...Object.keys(raw).filter((k) => !FIELDS[kind].includes(k)),
    ...Object.keys(meta).filter((k) => !META_FIELDS.includes(k)).map((k) => `metadata.${k}`),
  ];
  if (fieldValidation === 'Strict' && unknown.length) return cannot(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  for (const field of ['data', 'binaryData', 'stringData']) {
    const m = raw[field];
    if (m === undefined || m === null) continue;
    if (!isStringMap(m)) return cannot(`json: cannot unmarshal ${Array.isArray(m) ? 'array' : typeof m} into Go struct field ${kind}.${field} of type map[string]${field === 'stringData' || (kind === 'ConfigMap' && field === 'data') ? 'string' : '[]uint8'}`);
    for (const v of Object.values(m)) {
      if (typeof v !== 'string') return cannot(`json: cannot unmarshal ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v} into Go struct field ${kind}.${field} of type ${field === 'stringData' || (kind === 'ConfigMap' && field === 'data') ? 'string' : '[]uint8'}`);
      // a Secret's data and a ConfigMap's binaryData are bytes: base64 in JSON
      if ((kind === 'Secret' && field === 'data') || field === 'binaryData') {
        const at = base64Error(v);
        if (at >= 0) return cannot(`illegal base64 data at input byte ${at}`);
      }
    }
  }
  if (meta.namespace !== undefined && meta.namespace !== namespace) {
    return { ok: false, status: badRequestStatus('the namespace of the provided object does not match the namespace sent on the request') };
  }
  meta.namespace = namespace;
  if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${suffix()}`;
  // a Secret's stringData is written into data (over a key of the same name), and its type defaults to Opaque
  if (kind === 'Secret') {
    if (raw.stringData) {
      raw.data = { ...(raw.data ?? {}) };
      for (const [k, v] of Object.entries(raw.stringData as Record<string, string>)) raw.data[k] = base64FromText(v);
      delete raw.stringData;
    }
    raw.type ||= 'Opaque';
  }
  const errs: FieldError[] = [];
  validateMeta(meta, errs);
  let size = 0;
  const keyed = (field: string, m: Record<string, string> | undefined, other?: Record<string, string>) => {
    for (const key of Object.keys(m ?? {}).sort()) {
      for (const msg of isConfigMapKey(key)) errs.push({ type: 'Invalid', field: `${field}[${key}]`, value: key, detail: msg });
      if (other && key in other) errs.push({ type: 'Invalid', field: `${field}[${key}]`, value: key, detail: 'duplicate of key present in binaryData' });
      size += field === 'data' && kind === 'ConfigMap' ? new TextEncoder().encode(m![key]).length : base64DecodedLength(m![key]);
    }
  };
  keyed('data', raw.data, kind === 'ConfigMap' ? raw.binaryData : undefined);
  if (kind === 'ConfigMap') keyed('binaryData', raw.binaryData);
  if (size > MAX_SIZE) errs.push({ type: 'TooLong', field: '', value: undefined, detail: `must have at most ${MAX_SIZE} bytes` });
  if (errs.length) return { ok: false, status: invalidStatus(kind, meta.name ?? '', errs), errors: errs };
  // Warn: the server drops them, with a warning each (Ignore: without)
  const warnings = fieldValidation === 'Warn' ? unknown.map((f) => `unknown field "${f}"`) : [];
  return { ok: true, kind, raw: raw as Extract<Decoded, { ok: true }>['raw'], warnings };
}

/**
 * Give an engine its store of ConfigMaps and Secrets (engine-core does, when it has this module). `namespaces`: the
 * cluster's, which the API server's own module has (a lazily loaded module imports no value from it: the page's
 * bundle would split it).
 */
export function addConfigStore(ctx: SimContext, api: ApiServer, namespaces: string[], patches?: ConfigPatches): void {
  ctx.configs = new ConfigStore(ctx, api, namespaces, patches);
}

/** What a PATCH needs: the patch module's functions (api/patch.ts, when the engine has it) and the merge patch. */
export type ConfigPatches = Partial<Pick<Patches, 'jsonPatch' | 'strategicMergePatch' | 'PatchError' | 'PatchDecodeError' | 'API_SERVER_COPY_LIMIT'>> & {
  mergePatch: (target: never, patch: never) => unknown;
};

/** One version of an object: from `t` on (until the next), `obj`; undefined once deleted. */
interface Version {
  t: number;
  obj: ConfigObject | undefined;
}

const forbidden = (field: string): FieldError => ({ type: 'Forbidden', field, value: undefined, detail: 'field is immutable when `immutable` is set' });

export class ConfigStore {
  readonly #ctx: SimContext;
  readonly #api: ApiServer;
  readonly #namespaces: string[];
  readonly #patches: ConfigPatches | undefined;
  /** Every version of each object, oldest first, by kind/namespace/name: what the kubelet read at a moment. */
  readonly #versions = new Map<string, Version[]>();

  constructor(ctx: SimContext, api: ApiServer, namespaces: string[], patches?: ConfigPatches) {
    this.#ctx = ctx;
    this.#api = api;
    this.#namespaces = namespaces;
    this.#patches = patches;
  }

  /** Store a version of an object (undefined: deleted) now: in the history (for stateAt) and in #versions. */
  #put(kind: Kind, namespace: string, name: string, obj: ConfigObject | undefined): void {
    const now = this.#ctx.now;
    this.#ctx.history.put(now, this.#coll(kind), `${namespace}/${name}`, obj);
    const key = `${kind}/${namespace}/${name}`;
    const list = this.#versions.get(key);
    if (!list) this.#versions.set(key, [{ t: now, obj }]);
    else if (list[list.length - 1].t === now) list[list.length - 1].obj = obj;
    else list.push({ t: now, obj });
  }

  /**
   * The history's collection of a kind, made at its first object: a run that makes none has none, and its states
   * no `configMaps` or `secrets` (the same as a page's replay, which does not load this module for it).
   */
  #coll(kind: Kind): number {
    return this.#ctx.history.collection(RESOURCE[kind]);
  }

  /** The stored object (kube-root-ca.crt is not stored: kubelet/volumes.ts configSource has it). */
  get(kind: Kind, namespace: string, name: string): ConfigObject | undefined {
    const h = this.#ctx.history;
    return h.has(RESOURCE[kind]) ? (h.live[this.#coll(kind)] as Map<string, ConfigObject>).get(`${namespace}/${name}`) : undefined;
  }

  apply(a: ConfigAction): ApplyResult<ConfigObject> {
    if (a.verb === 'patch') return this.#patch(a.kind, a.namespace, a.name, a.patchType, a.patch, a.fieldValidation ?? 'Warn');
    return a.verb === 'create' ? this.#create(a.namespace, a.obj, a.fieldValidation ?? 'Strict') : this.#delete(a.kind, a.namespace, a.name);
  }

  // upstream: staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go Create (decode, BeforeCreate:
  //           PrepareForCreate, Validate; the NamespaceLifecycle admission; AlreadyExists)
  #create(namespace: string, obj: unknown, fieldValidation: string): ApplyResult<ConfigObject> {
    const d = decodeConfig(namespace, obj, fieldValidation, () => this.#ctx.rng.nameSuffix(5));
    if (!d.ok) return { ok: false, status: d.status };
    const { kind, raw } = d;
    const meta = raw.metadata;
    if (!this.#namespaces.includes(namespace)) return { ok: false, status: notFoundStatus('namespaces', namespace) };
    const resource = RESOURCE[kind];
    if ((kind === 'ConfigMap' && meta.name === ROOT_CA_NAME) || this.get(kind, namespace, meta.name)) return { ok: false, status: alreadyExistsStatus(resource, meta.name) };
    const stored = this.#object(kind, raw, { name: meta.name, namespace, uid: this.#ctx.rng.uuid(), resourceVersion: this.#api.nextRV(), creationTimestamp: this.#ctx.rfc3339() });
    this.#put(kind, namespace, meta.name, stored);
    this.#ctx.emit('apiserver', `${kind}Created`, `${kind.toLowerCase()}/${namespace}/${meta.name}`, `${kind.toLowerCase()} "${meta.name}" created`);
    return { ok: true, object: stored, ...(d.warnings.length ? { warnings: d.warnings } : {}) };
  }

  /** The object to store: the server's metadata (name, namespace, uid, resourceVersion, creationTimestamp) and the decoded fields. */
  #object(kind: Kind, raw: Extract<Decoded, { ok: true }>['raw'], server: ConfigObject['metadata']): ConfigObject {
    const metadata: ConfigObject['metadata'] = { name: server.name, namespace: server.namespace, uid: server.uid, resourceVersion: server.resourceVersion, creationTimestamp: server.creationTimestamp };
    for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) if (raw.metadata[k] !== undefined && raw.metadata[k] !== null) (metadata as any)[k] = raw.metadata[k];
    const stored: ConfigObject = { apiVersion: 'v1', kind, metadata };
    if (raw.immutable !== undefined && raw.immutable !== null) stored.immutable = raw.immutable;
    if (raw.data && Object.keys(raw.data).length) stored.data = raw.data;
    if (raw.binaryData && Object.keys(raw.binaryData).length) stored.binaryData = raw.binaryData;
    if (kind === 'Secret') stored.type = raw.type;
    return stored;
  }

  #delete(kind: Kind, namespace: string, name: string): ApplyResult<ConfigObject> {
    const obj = this.get(kind, namespace, name);
    // kube-root-ca.crt: the root CA publisher makes it again at once (the model keeps it)
    if (kind === 'ConfigMap' && name === ROOT_CA_NAME && this.#namespaces.includes(namespace)) {
      return { ok: true, object: { apiVersion: 'v1', kind, metadata: { name, namespace, uid: '', resourceVersion: '', creationTimestamp: '' } }, deleted: true };
    }
    if (!obj) return { ok: false, status: notFoundStatus(RESOURCE[kind], name) };
    this.#put(kind, namespace, name, undefined);
    this.#ctx.emit('apiserver', `${kind}Deleted`, `${kind.toLowerCase()}/${namespace}/${name}`, `${kind.toLowerCase()} "${name}" deleted`);
    return { ok: true, object: obj, deleted: true };
  }

  /**
   * PATCH: the object patched (a JSON, merge or strategic merge patch, a ConfigMap's and a Secret's maps merging key
   * by key), decoded, validated as an update (an `immutable` object keeps its data; a Secret its type) and stored with
   * the next resourceVersion; a patch that changes nothing stores nothing (`unchanged`).
   */
  // upstream: apiserver pkg/endpoints/handlers/patch.go (applyPatch, the object decoded as fieldValidation says);
  //           registry/rest/update.go BeforeUpdate (uid, creationTimestamp kept); ValidateConfigMapUpdate,
  //           ValidateSecretUpdate
  #patch(kind: Kind, namespace: string, name: string, patchType: PatchType, patch: unknown, fieldValidation: FieldValidation): ApplyResult<ConfigObject> {
    const resource = RESOURCE[kind];
    const old = this.get(kind, namespace, name);
    if (kind === 'ConfigMap' && name === ROOT_CA_NAME && this.#namespaces.includes(namespace)) {
      const message = `podlife: ${ROOT_CA_NAME} is the root CA publisher's, which puts it back as it was at once; the model does not change it`;
      return { ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'BadRequest', code: 400 } };
    }
    if (!old) return { ok: false, status: notFoundStatus(resource, name) };
    const p = this.#patches;
    if (!p || (patchType !== 'merge' && patchType !== 'put' && !p.jsonPatch)) {
      const message = `podlife: this engine was created without ${patchType} patch support (use createEngine, or pass api/patch.ts to createEngineCore)`;
      return { ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'InternalError', code: 500 } };
    }
    const undecodable = patchBodyError(patchType, patch);
    if (undecodable !== undefined) return { ok: false, status: badRequestStatus(undecodable) };
    let next: unknown;
    try {
      if (patchType === 'json') next = p.jsonPatch!(old, patch, p.API_SERVER_COPY_LIMIT);
      // a strategic merge patch of null decodes to no map: nothing changes
      else if (patchType === 'put') next = patch;
      else next = patchType === 'merge' ? p.mergePatch(old as never, patch as never) : p.strategicMergePatch!(old as never, (patch ?? {}) as never);
    } catch (e) {
      if (p.PatchDecodeError && e instanceof p.PatchDecodeError) return { ok: false, status: badRequestStatus(e.message) };
      if (p.PatchError && e instanceof p.PatchError) return { ok: false, status: unprocessableStatus() };
      throw e;
    }
    if (!isStringMap(next)) return { ok: false, status: badRequestStatus('the patch produced an invalid object') };
    const meta = (isStringMap(next.metadata) ? next.metadata : {}) as Record<string, unknown>;
    if (meta.name !== undefined && meta.name !== name) {
      return { ok: false, status: renamedStatus(meta.name, name) };
    }
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== old.metadata.resourceVersion) {
      return {
        ok: false,
        status: {
          kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', details: { name, kind: resource }, code: 409,
          message: `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        },
      };
    }
    const d = decodeConfig(namespace, next, fieldValidation, () => '');
    if (!d.ok) return { ok: false, status: d.status };
    if (d.kind !== kind) return { ok: false, status: badRequestStatus(`the kind in the data (${d.kind}) does not match the kind of the URL (${kind})`) };
    const raw = d.raw;
    const errs: FieldError[] = [];
    // BeforeUpdate: the uid (when the patch leaves one) must be the object's; the creation timestamp is the server's
    if (raw.metadata.uid && raw.metadata.uid !== old.metadata.uid) errs.push({ type: 'Invalid', field: 'metadata.uid', value: raw.metadata.uid, detail: 'field is immutable' });
    if (kind === 'Secret' && raw.type !== old.type) errs.push({ type: 'Invalid', field: 'type', value: raw.type, detail: 'field is immutable' });
    if (old.immutable) {
      if (!raw.immutable) errs.push(forbidden('immutable'));
      if (!deepEqual(raw.data ?? {}, old.data ?? {})) errs.push(forbidden('data'));
      if (kind === 'ConfigMap' && !deepEqual(raw.binaryData ?? {}, old.binaryData ?? {})) errs.push(forbidden('binaryData'));
    }
    if (errs.length) return { ok: false, status: invalidStatus(kind, name, errs) };
    const stored = this.#object(kind, raw, { ...old.metadata });
    const same = { ...stored, metadata: { ...stored.metadata, resourceVersion: old.metadata.resourceVersion } };
    const warned = d.warnings.length ? { warnings: d.warnings } : {};
    if (deepEqual(same, old)) return { ok: true, object: old, unchanged: true, ...warned };
    stored.metadata.resourceVersion = this.#api.nextRV();
    this.#put(kind, namespace, name, stored);
    this.#ctx.emit('apiserver', `${kind}Updated`, `${kind.toLowerCase()}/${namespace}/${name}`, `${kind.toLowerCase()} "${name}" updated (resourceVersion ${stored.metadata.resourceVersion})`);
    return { ok: true, object: stored, ...warned };
  }

  /**
   * What the kubelet's configmap or secret manager gets for a stored object: its keys and their values as a container
   * reads them (a Secret's and binaryData's decoded), or undefined when there is none (kubelet/volumes.ts adds
   * kube-root-ca.crt). `at`: as the object was at that moment, not now: what a container got when it was made (its
   * environment, which a process keeps) or what the kubelet last wrote into a volume (its files, which stay until it
   * writes them again), neither of which a later change or delete takes away.
   */
  values(resource: 'configmap' | 'secret', namespace: string, name: string, at?: number): Map<string, string> | undefined {
    const kind = resource === 'configmap' ? 'ConfigMap' : 'Secret';
    let obj = this.get(kind, namespace, name);
    if (at !== undefined) {
      const list = this.#versions.get(`${kind}/${namespace}/${name}`) ?? [];
      let i = list.length - 1;
      while (i >= 0 && list[i].t > at) i--;
      obj = i >= 0 ? list[i].obj : undefined;
    }
    if (!obj) return undefined;
    const values = new Map<string, string>();
    for (const [k, v] of Object.entries(obj.data ?? {})) values.set(k, resource === 'secret' ? textFromBase64(v) : v);
    for (const [k, v] of Object.entries(obj.binaryData ?? {})) values.set(k, textFromBase64(v));
    return values;
  }

  /** Lazy ClusterState properties for the stored objects at a moment (engine-core's #build). */
  state(define: (key: 'configMaps' | 'secrets', make: () => ConfigObject[]) => void, coll: (i: number) => Collection): void {
    const h = this.#ctx.history;
    if (h.has('configmaps')) define('configMaps', () => [...coll(this.#coll('ConfigMap')).values()] as ConfigObject[]);
    if (h.has('secrets')) define('secrets', () => [...coll(this.#coll('Secret')).values()] as ConfigObject[]);
  }
}
