// ConfigMaps and Secrets: the API server's store of them (create and delete, as `kubectl create configmap|secret`,
// `create|apply -f` and `delete` send them), and the kubelet's configmap and secret managers' view of it, which a
// pod's volumes (kubelet/volumes.ts) and environment (kubelet/envvars.ts) read. Every namespace also has the
// ConfigMap kube-root-ca.crt (key ca.crt), which the root CA publisher makes with the namespace: it is not stored
// here (the command layer prints it with the namespaces' fixed objects) but the managers find it.
// Loaded only by an engine whose run sends a config action (a page's replay loads it for such a run).
// upstream: pkg/registry/core/configmap/strategy.go, pkg/registry/core/secret/strategy.go (PrepareForCreate);
//           pkg/apis/core/validation/validation.go ValidateConfigMap, ValidateSecret, IsConfigMapKey (apimachinery);
//           pkg/apis/core/v1/conversion.go Convert_v1_Secret_To_core_Secret (stringData overwrites data);
//           pkg/kubelet/configmap/configmap_manager.go, pkg/kubelet/secret/secret_manager.go (watch-based)

import type { ApplyResult, ConfigAction, ConfigObject } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { Collection } from '../core/history.ts';
import type { ApiServer } from './apiserver.ts';
import { alreadyExistsStatus, badRequestStatus, invalidStatus, notFoundStatus, type FieldError } from './fielderrors.ts';
import type { ApiStatus } from '../types.ts';
import { isConfigMapKey, validateMeta } from './validation.ts';
import { clone } from '../core/clone.ts';
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
  | { ok: true; kind: Kind; raw: { metadata: Record<string, any> & { name: string; namespace: string }; data?: Record<string, string>; binaryData?: Record<string, string>; immutable?: boolean; type?: string } }
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
  if (fieldValidation === 'Strict') {
    const unknown = [
      ...Object.keys(raw).filter((k) => !FIELDS[kind].includes(k)),
      ...Object.keys(meta).filter((k) => !META_FIELDS.includes(k)).map((k) => `metadata.${k}`),
    ];
    if (unknown.length) return cannot(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  }
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
  return { ok: true, kind, raw: raw as Extract<Decoded, { ok: true }>['raw'] };
}

/**
 * Give an engine its store of ConfigMaps and Secrets (engine-core does, when it has this module). `namespaces`: the
 * cluster's, which the API server's own module has (a lazily loaded module imports no value from it: the page's
 * bundle would split it).
 */
export function addConfigStore(ctx: SimContext, api: ApiServer, namespaces: string[]): void {
  ctx.configs = new ConfigStore(ctx, api, namespaces);
}

export class ConfigStore {
  readonly #ctx: SimContext;
  readonly #api: ApiServer;
  readonly #namespaces: string[];

  constructor(ctx: SimContext, api: ApiServer, namespaces: string[]) {
    this.#ctx = ctx;
    this.#api = api;
    this.#namespaces = namespaces;
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
    const metadata: ConfigObject['metadata'] = { name: meta.name, namespace, uid: this.#ctx.rng.uuid(), resourceVersion: this.#api.nextRV(), creationTimestamp: this.#ctx.rfc3339() };
    for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) if (meta[k] !== undefined) (metadata as any)[k] = meta[k];
    const stored: ConfigObject = { apiVersion: 'v1', kind, metadata };
    if (raw.immutable !== undefined && raw.immutable !== null) stored.immutable = raw.immutable;
    if (raw.data && Object.keys(raw.data).length) stored.data = raw.data;
    if (raw.binaryData && Object.keys(raw.binaryData).length) stored.binaryData = raw.binaryData;
    if (kind === 'Secret') stored.type = raw.type;
    this.#ctx.history.put(this.#ctx.now, this.#coll(kind), `${namespace}/${meta.name}`, stored);
    this.#deleted.delete(`${kind}/${namespace}/${meta.name}`);
    this.#ctx.emit('apiserver', `${kind}Created`, `${kind.toLowerCase()}/${namespace}/${meta.name}`, `${kind.toLowerCase()} "${meta.name}" created`);
    return { ok: true, object: stored };
  }

  #delete(kind: Kind, namespace: string, name: string): ApplyResult<ConfigObject> {
    const obj = this.get(kind, namespace, name);
    // kube-root-ca.crt: the root CA publisher makes it again at once (the model keeps it)
    if (kind === 'ConfigMap' && name === ROOT_CA_NAME && this.#namespaces.includes(namespace)) {
      return { ok: true, object: { apiVersion: 'v1', kind, metadata: { name, namespace, uid: '', resourceVersion: '', creationTimestamp: '' } }, deleted: true };
    }
    if (!obj) return { ok: false, status: notFoundStatus(RESOURCE[kind], name) };
    this.#ctx.history.put(this.#ctx.now, this.#coll(kind), `${namespace}/${name}`, undefined);
    this.#deleted.set(`${kind}/${namespace}/${name}`, obj);
    this.#ctx.emit('apiserver', `${kind}Deleted`, `${kind.toLowerCase()}/${namespace}/${name}`, `${kind.toLowerCase()} "${name}" deleted`);
    return { ok: true, object: obj, deleted: true };
  }

  /** The last version of each deleted object, until one of the same name is created: see `values`. */
  readonly #deleted = new Map<string, ConfigObject>();

  /**
   * What the kubelet's configmap or secret manager gets for a stored object: its keys and their values as a container
   * reads them (a Secret's and binaryData's decoded), or undefined when there is none (kubelet/volumes.ts adds
   * kube-root-ca.crt). `lastKnown`: what a running container still has of a deleted one, the values it started with
   * (its environment) and the files the kubelet last wrote (its volumes), which a delete does not take away.
   */
  values(resource: 'configmap' | 'secret', namespace: string, name: string, lastKnown = false): Map<string, string> | undefined {
    const kind = resource === 'configmap' ? 'ConfigMap' : 'Secret';
    const obj = this.get(kind, namespace, name) ?? (lastKnown ? this.#deleted.get(`${kind}/${namespace}/${name}`) : undefined);
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
