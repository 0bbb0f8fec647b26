// Decoding of a Pod (or a Node) as the API server does it, before defaulting and validation: a wrong JSON type is a
// 400 BadRequest with Go's message; an unknown field is one too under field validation "Strict" (what kubectl create
// and apply ask for), a warning under "Warn" (the server's default: kubectl patch, curl) and nothing under "Ignore",
// and the object is decoded without it.
// upstream: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json (strict decoding), encoding/json errors

import { QUANTITY_REGEXP, parseQuantity } from './quantity.ts';
import { canonicalQuantity } from './quantity-sum.ts';
import { goJsonType } from './patch-body.ts';
import type { ApiStatus, FieldValidation, PatchType } from '../types.ts';
import { badRequestStatus, invalidStatus } from './fielderrors.ts';

/** How a Go type decodes from JSON: what a field may hold, and the Go type name its errors give. */
export type Schema =
  | { t: 'string' }
  | { t: 'int'; go: string }
  | { t: 'bool' }
  | { t: 'quantity' }
  | { t: 'intOrString' }
  | { t: 'any' }
  | { t: 'object'; go: string; fields: Record<string, Schema> }
  | { t: 'array'; go: string; of: Schema }
  | { t: 'map'; go: string; of: Schema };
type Node = Schema;

const str: Node = { t: 'string' };
const i64: Node = { t: 'int', go: 'int64' };
const i32: Node = { t: 'int', go: 'int32' };
const bool: Node = { t: 'bool' };
const any: Node = { t: 'any' };
const strMap: Node = { t: 'map', go: 'map[string]string', of: str };
const strList: Node = { t: 'array', go: '[]string', of: str };
const obj = (go: string, fields: Record<string, Node>): Node => ({ t: 'object', go, fields });
const arr = (go: string, of: Node): Node => ({ t: 'array', go, of });

const execAction = obj('ExecAction', { command: strList });
const httpHeader = obj('HTTPHeader', { name: str, value: str });
const httpGet = obj('HTTPGetAction', {
  path: str, port: { t: 'intOrString' }, host: str, scheme: str, httpHeaders: arr('[]v1.HTTPHeader', httpHeader),
});
const tcpSocket = obj('TCPSocketAction', { port: { t: 'intOrString' }, host: str });
const grpc = obj('GRPCAction', { port: i32, service: str });
const sleepAction = obj('SleepAction', { seconds: i64 });
const handler = obj('LifecycleHandler', { exec: execAction, httpGet, tcpSocket, sleep: sleepAction });
const probe = obj('Probe', {
  exec: execAction, httpGet, tcpSocket, grpc,
  initialDelaySeconds: i32, timeoutSeconds: i32, periodSeconds: i32, successThreshold: i32, failureThreshold: i32,
  terminationGracePeriodSeconds: i64,
});
const resources = obj('ResourceRequirements', {
  limits: { t: 'map', go: 'v1.ResourceList', of: { t: 'quantity' } },
  requests: { t: 'map', go: 'v1.ResourceList', of: { t: 'quantity' } },
  claims: arr('[]v1.ResourceClaim', any),
});
const envVar = obj('EnvVar', { name: str, value: str, valueFrom: any });
const containerFields: Record<string, Node> = {
  name: str, image: str, command: strList, args: strList, workingDir: str,
  ports: arr('[]v1.ContainerPort', obj('ContainerPort', { name: str, hostPort: i32, containerPort: i32, protocol: str, hostIP: str })),
  envFrom: arr('[]v1.EnvFromSource', any), env: arr('[]v1.EnvVar', envVar), resources,
  resizePolicy: arr('[]v1.ContainerResizePolicy', any), restartPolicy: str, restartPolicyRules: arr('[]v1.ContainerRestartRule', any),
  volumeMounts: arr('[]v1.VolumeMount', obj('VolumeMount', {
    name: str, readOnly: bool, recursiveReadOnly: str, mountPath: str, subPath: str, mountPropagation: str, subPathExpr: str,
  })),
  volumeDevices: arr('[]v1.VolumeDevice', any),
  livenessProbe: probe, readinessProbe: probe, startupProbe: probe,
  lifecycle: obj('Lifecycle', { postStart: handler, preStop: handler, stopSignal: str }),
  terminationMessagePath: str, terminationMessagePolicy: str, imagePullPolicy: str, securityContext: any,
  stdin: bool, stdinOnce: bool, tty: bool,
};
const container = obj('Container', containerFields);
const ephemeral = obj('EphemeralContainer', { ...containerFields, targetContainerName: str });
const toleration = obj('Toleration', { key: str, operator: str, value: str, effect: str, tolerationSeconds: i64 });
const volume = obj('Volume', {
  name: str, hostPath: any, emptyDir: any, secret: any, configMap: any, persistentVolumeClaim: any, projected: any,
  downwardAPI: any, nfs: any, csi: any, ephemeral: any, image: any,
});

const podSpec = obj('PodSpec', {
  volumes: arr('[]v1.Volume', volume), initContainers: arr('[]v1.Container', container), containers: arr('[]v1.Container', container),
  ephemeralContainers: arr('[]v1.EphemeralContainer', ephemeral), restartPolicy: str,
  terminationGracePeriodSeconds: i64, activeDeadlineSeconds: i64, dnsPolicy: str, nodeSelector: strMap,
  serviceAccountName: str, serviceAccount: str, automountServiceAccountToken: bool, nodeName: str,
  hostNetwork: bool, hostPID: bool, hostIPC: bool, shareProcessNamespace: bool, securityContext: any,
  imagePullSecrets: arr('[]v1.LocalObjectReference', obj('LocalObjectReference', { name: str })), hostname: str, subdomain: str,
  affinity: any, schedulerName: str, tolerations: arr('[]v1.Toleration', toleration), hostAliases: arr('[]v1.HostAlias', any),
  priorityClassName: str, priority: i32, dnsConfig: any,
  readinessGates: arr('[]v1.PodReadinessGate', obj('PodReadinessGate', { conditionType: str })),
  runtimeClassName: str, enableServiceLinks: bool, preemptionPolicy: str, overhead: any,
  topologySpreadConstraints: arr('[]v1.TopologySpreadConstraint', any), setHostnameAsFQDN: bool, os: any, hostUsers: bool,
  schedulingGates: arr('[]v1.PodSchedulingGate', obj('PodSchedulingGate', { name: str })), resourceClaims: any, resources: any,
  hostnameOverride: str,
});
export const objectMeta = obj('ObjectMeta', {
  name: str, generateName: str, namespace: str, selfLink: str, uid: str, resourceVersion: str, generation: i64,
  creationTimestamp: any, deletionTimestamp: any, deletionGracePeriodSeconds: i64, labels: strMap, annotations: strMap,
  ownerReferences: arr('[]v1.OwnerReference', any), finalizers: strList, managedFields: any,
});
const pod = obj('Pod', { apiVersion: str, kind: str, metadata: objectMeta, spec: podSpec, status: any });

export interface DecodeProblem {
  message: string;
  /** JSON path of the offending value ("spec.containers[0].imagee"), for pointing at a line. */
  path: string;
}

function goType(n: Node): string {
  return n.t === 'object' ? `v1.${n.go}` : 'go' in n ? n.go : n.t === 'string' || n.t === 'bool' ? n.t : '';
}

/**
 * The JSON path and the Go field path of the value being decoded, kept as a stack of segments and joined only for a
 * message: a field of a struct ("spec", "containers"), or an element of an array or map ("[0]", "[cpu]").
 */
class DecodePath {
  readonly keys: (string | number)[] = [];
  readonly fields: boolean[] = [];

  /** "spec.containers[0].image"; with `go`, "spec.containers.image": struct fields only, as Go's json errors name them. */
  json(go = false): string {
    let out = '';
    for (let i = 0; i < this.keys.length; i++) {
      if (this.fields[i]) out += out ? `.${this.keys[i]}` : `${this.keys[i]}`;
      else if (!go) out += `[${this.keys[i]}]`;
    }
    return out;
  }
}

interface DecodeState {
  at: DecodePath;
  unknown: string[];
  /** Where each unknown field is: the keys from the root, for dropping it. */
  unknownAt: (string | number)[][];
  typeError: DecodeProblem | undefined;
  /** What the decoding writes: quantities in the form the API server stores them in, defaults (keys from the root). */
  quantities: [(string | number)[], unknown][];
}

function mismatch(st: DecodeState, v: unknown, n: Node, struct: string): void {
  st.typeError = {
    message: `json: cannot unmarshal ${goJsonType(v)} into Go struct field ${struct}.${st.at.json(true)} of type ${goType(n)}`,
    path: st.at.json(),
  };
}

function walk(st: DecodeState, v: unknown, n: Node, struct: string): void {
  if (st.typeError || v === null || v === undefined) return;
  switch (n.t) {
    case 'any':
      return;
    case 'string':
      if (typeof v !== 'string') mismatch(st, v, n, struct);
      return;
    case 'bool':
      if (typeof v !== 'boolean') mismatch(st, v, n, struct);
      return;
    case 'int':
      if (typeof v !== 'number') mismatch(st, v, n, struct);
      else if (!Number.isInteger(v)) st.typeError = { message: `json: cannot unmarshal number ${v} into Go struct field ${struct}.${st.at.json(true)} of type ${n.go}`, path: st.at.json() };
      return;
    case 'intOrString':
      if (typeof v !== 'number' && typeof v !== 'string') {
        st.typeError = { message: `json: cannot unmarshal ${goJsonType(v)} into Go struct field ${struct}.${st.at.json(true)} of type intstr.IntOrString`, path: st.at.json() };
      }
      return;
    case 'quantity': {
      if (typeof v === 'number' || (typeof v === 'string' && parseQuantity(v) !== undefined)) {
        const canonical = canonicalQuantity(v);
        if (canonical !== undefined && canonical !== v) st.quantities.push([[...st.at.keys], canonical]);
        return;
      }
      st.typeError = { message: `quantities must match the regular expression '${QUANTITY_REGEXP}'`, path: st.at.json() };
      return;
    }
    case 'array':
    case 'map':
    case 'object': {
      if (typeof v !== 'object' || (n.t === 'array') !== Array.isArray(v)) return mismatch(st, v, n, struct);
      const { keys, fields } = st.at;
      const field = n.t === 'object';
      if (n.t === 'array') {
        for (let i = 0; i < (v as unknown[]).length; i++) {
          keys.push(i);
          fields.push(false);
          walk(st, (v as unknown[])[i], n.of, struct);
          keys.pop();
          fields.pop();
        }
        return;
      }
      for (const k of Object.keys(v)) {
        const f = n.t === 'object' ? n.fields[k] : n.of;
        keys.push(k);
        fields.push(field);
        if (f) walk(st, (v as Record<string, unknown>)[k], f, field ? n.go : struct);
        else {
          st.unknown.push(st.at.json());
          st.unknownAt.push([...keys]);
        }
        keys.pop();
        fields.pop();
      }
      return;
    }
  }
}

type Raw = Record<string, any>;
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];

/**
 * What decoding a pod writes beyond the schema's quantities: an emptyDir's sizeLimit in canonical form (the volumes
 * are not in the schema: any source decodes), and the defaults of fields few pods have, which the versioned decoder
 * applies as it decodes: a gRPC probe's service "" (+default=""), a hostPath's type "" (SetDefaults_HostPathVolumeSource),
 * a resourceFieldRef's divisor "0" (a zero Quantity is never omitted).
 */
// upstream: pkg/apis/core/v1/defaults.go, zz_generated.defaults.go; apimachinery resource.Quantity MarshalJSON
function podRewrites(raw: Raw, out: [(string | number)[], unknown][]): void {
  const spec = raw?.spec;
  if (!spec || typeof spec !== 'object') return;
  (Array.isArray(spec.volumes) ? spec.volumes : []).forEach((v: Raw, i: number) => {
    const limit = v?.emptyDir?.sizeLimit;
    const canonical = typeof limit === 'string' || typeof limit === 'number' ? canonicalQuantity(limit) : undefined;
    if (canonical !== undefined && canonical !== limit) out.push([['spec', 'volumes', i, 'emptyDir', 'sizeLimit'], canonical]);
    if (v?.hostPath && v.hostPath.type === undefined) out.push([['spec', 'volumes', i, 'hostPath', 'type'], '']);
  });
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    (Array.isArray(spec[list]) ? spec[list] : []).forEach((c: Raw, i: number) => {
      for (const probe of PROBES) if (c?.[probe]?.grpc && c[probe].grpc.service === undefined) out.push([['spec', list, i, probe, 'grpc', 'service'], '']);
      (Array.isArray(c?.env) ? c.env : []).forEach((e: Raw, j: number) => {
        const ref = e?.valueFrom?.resourceFieldRef;
        if (ref && ref.divisor === undefined) out.push([['spec', list, i, 'env', j, 'valueFrom', 'resourceFieldRef', 'divisor'], '0']);
      });
    });
  }
}

/** Whether decoding this pod (or the pod-shaped body of a merge patch) writes into it: see podRewrites and canonicalQuantity. */
export function decodingRewrites(raw: unknown): boolean {
  return decodeFields(raw, pod, 'Pod').quantities.length > 0;
}

/** The strict decoder's error for unknown fields (each one is a warning of its own under fieldValidation=Warn). */
function strictError(unknown: string[]): DecodeProblem | undefined {
  if (unknown.length === 0) return undefined;
  return { message: `strict decoding error: ${unknown.map(unknownField).join(', ')}`, path: unknown[0] };
}

/** One unknown field as the strict decoder names it: `unknown field "spec.containers[0].imagee"`. */
export const unknownField = (path: string): string => `unknown field "${path}"`;

/** An object decoded: the first type error, and every unknown field (its path, and the keys that reach it). */
export interface DecodedFields {
  typeError: DecodeProblem | undefined;
  unknown: string[];
  unknownAt: (string | number)[][];
  /** What the decoding writes into the object: quantities in canonical form (canonicalQuantity) and defaults (podRewrites). */
  quantities: [(string | number)[], unknown][];
}

export function decodeFields(raw: unknown, schema: Schema, kind: string): DecodedFields {
  const st: DecodeState = { at: new DecodePath(), unknown: [], unknownAt: [], typeError: undefined, quantities: [] };
  walk(st, raw, schema, kind);
  if (schema === pod && !st.typeError) podRewrites(raw as Raw, st.quantities);
  return { typeError: st.typeError, unknown: st.unknown, unknownAt: st.unknownAt, quantities: st.quantities };
}

/**
 * The object as Go decodes it when unknown fields are not an error (fieldValidation Warn or Ignore): without them.
 * Copy on write: `raw` and the objects it shares are left as they were.
 */
export function withoutUnknown<T>(raw: T, unknownAt: (string | number)[][]): T {
  return rewritten(raw, unknownAt.map((keys) => [keys, undefined]));
}

/**
 * `raw` with the value at each path replaced (undefined: the field deleted). Copy on write: `raw` and the objects it
 * shares are left as they were.
 */
function rewritten<T>(raw: T, changes: [(string | number)[], unknown][]): T {
  if (changes.length === 0) return raw;
  const copied = new Set<unknown>();
  const copy = (v: any): any => {
    const c = Array.isArray(v) ? [...v] : { ...v };
    copied.add(c);
    return c;
  };
  const root = copy(raw);
  for (const [keys, value] of changes) {
    let at: any = root;
    for (let i = 0; i < keys.length - 1; i++) {
      const next = at[keys[i]];
      at = copied.has(next) ? next : (at[keys[i]] = copy(next));
    }
    if (value === undefined) delete at[keys[keys.length - 1]];
    else at[keys[keys.length - 1]] = value;
  }
  return root;
}

/**
 * How an object decodes under a field validation directive: taken (unknown fields dropped, with their warnings), or
 * the answer: a 400, or (decodePatchedUnder) the 422 of the strategic merge patch path, on the field "patch" with the
 * patch as its value and no kind or name (kubectl prints "The request is invalid: patch: …").
 */
export type Decoded<T> = { ok: true; object: T; warnings: string[] } | { ok: false; status: ApiStatus };

const undecodable = (kind: string, message: string): { ok: false; status: ApiStatus } =>
  ({ ok: false, status: badRequestStatus(`${kind} in version "v1" cannot be handled as a ${kind}: ${message}`) });

/** The JSON decoder's answer: a type error is always an error; unknown fields (`unknown`, in their order) as the directive says. */
function decodedJson<T>(raw: T, kind: string, directive: FieldValidation, d: DecodedFields, unknown: string[]): Decoded<T> {
  if (d.typeError) return undecodable(kind, d.typeError.message);
  const problem = directive === 'Strict' ? strictError(unknown) : undefined;
  if (problem) return undecodable(kind, problem.message);
  // a quantity is stored as Quantity.String() writes it; an unknown field's quantities were never decoded
  const changes: [(string | number)[], unknown][] = [...d.quantities, ...d.unknownAt.map((keys): [(string | number)[], undefined] => [keys, undefined])];
  return { ok: true, object: rewritten(raw, changes), warnings: directive === 'Warn' ? unknown.map(unknownField) : [] };
}

/**
 * Decode `raw` under a field validation directive: a type error is always an error; unknown fields are the strict
 * decoder's error (Strict), a warning each in the document's order (Warn) or nothing (Ignore), and are dropped from
 * the object when not an error. upstream: handlers/create.go and patch.go (addStrictDecodingWarnings),
 * runtime.AsStrictDecodingError
 */
export function decodeUnder<T>(raw: T, schema: Schema, kind: string, directive: FieldValidation): Decoded<T> {
  const d = decodeFields(raw, schema, kind);
  return decodedJson(raw, kind, directive, d, d.unknown);
}

/** A pod as the API server decodes it under Strict field validation (what kubectl asks for): the first problem. */
export function decodePod(raw: unknown): DecodeProblem | undefined {
  const d = decodeFields(raw, pod, 'Pod');
  return d.typeError ?? strictError(d.unknown);
}

// ---------------------------------------------------------------------------------------------
// A strategic merge patch's result is not decoded from JSON: the API server converts the patched map to the Go
// object (runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation), whose errors are its own, and answers
// one with a 422 naming the patch itself, printed with Go's %+v.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyPatchToObject;
//           staging/src/k8s.io/apimachinery/pkg/runtime/converter.go (fromUnstructured, sliceFromUnstructured,
//           mapFromUnstructured, structFromUnstructured; the unknown fields sorted)
// ---------------------------------------------------------------------------------------------

/** reflect.Kind of a JSON value as the API server holds it (kjson with PreserveInts: integers are int64). */
function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

/** The converter's error for the first value (in the object's order) that does not fit its Go type, if any. */
function convertError(v: unknown, n: Node): string | undefined {
  if (v === null || v === undefined) return undefined;
  switch (n.t) {
    case 'any':
      return undefined;
    case 'string':
      if (typeof v === 'string') return undefined;
      // an integer converts to a string in reflect, but the converter refuses it by name; anything else is no match
      return goKind(v) === 'int64' ? 'cannot convert int64 to string' : 'unrecognized type: string';
    case 'bool':
      return typeof v === 'boolean' ? undefined : 'unrecognized type: bool';
    case 'int':
      if (typeof v === 'number') return Number.isInteger(v) ? undefined : `cannot convert float64 to ${n.go}`;
      return `unrecognized type: ${n.go}`;
    case 'quantity':
      // resource.Quantity's UnmarshalJSON, on the value encoded as JSON
      if (typeof v === 'number' || (typeof v === 'string' && parseQuantity(v.trim()) !== undefined)) return undefined;
      return `quantities must match the regular expression '${QUANTITY_REGEXP}'`;
    case 'intOrString':
      // intstr.IntOrString's UnmarshalJSON: a string, else json.Unmarshal into its int32
      if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) return undefined;
      return `json: cannot unmarshal ${typeof v === 'number' ? `number ${v}` : goJsonType(v)} into Go value of type int32`;
    case 'array': {
      if (!Array.isArray(v)) return `cannot restore slice from ${goKind(v)}`;
      for (const x of v) {
        const e = convertError(x, n.of);
        if (e) return e;
      }
      return undefined;
    }
    case 'map':
    case 'object': {
      if (typeof v !== 'object' || Array.isArray(v)) return n.t === 'map' ? `cannot restore map from ${goKind(v)}` : `cannot restore struct from: ${goKind(v)}`;
      for (const [k, x] of Object.entries(v)) {
        const f = n.t === 'object' ? n.fields[k] : n.of;
        const e = f ? convertError(x, f) : undefined;
        if (e) return e;
      }
      return undefined;
    }
  }
}

/** Go's %+v of a value decoded into interface{}: map[k:v …] with sorted keys, [a b] slices, strings bare, nil <nil>. */
export function goPlusV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goPlusV).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${goPlusV(o[k])}`).join(' ')}]`;
  }
  if (typeof v === 'number') return goFloat(v);
  return String(v);
}

/** %v of a number: an integer as is; a float as strconv's shortest 'g' form, with an exponent below 1e-4 or from 1e21. */
function goFloat(f: number): string {
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return String(f);
  const [mantissa, exp] = f.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 21) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(f);
}

const invalidPatch = (patch: unknown, detail: string): { ok: false; status: ApiStatus } =>
  ({ ok: false, status: invalidStatus('', '', [{ type: 'Invalid', field: 'patch', value: goPlusV(patch), detail }]) });

/**
 * Decode the object a patch made, as the patch handler does under `directive`. A strategic merge patch goes through
 * the unstructured converter: a value of the wrong type, and under Strict an unknown field, is a 422 Invalid on the
 * field "patch" whose value is the patch's %+v; unknown fields are sorted. A merge or JSON patch is decoded from the
 * patched JSON, and its errors are given here as the create path words them (the real server answers a 422 quoting
 * the whole patched object). Unknown fields under Warn are a warning each, in path order, and are dropped.
 */
export function decodePatchedUnder<T>(
  raw: T, schema: Schema, kind: string, directive: FieldValidation, patchType: PatchType, patch: unknown,
): Decoded<T> {
  const d = decodeFields(raw, schema, kind);
  // a PUT's body is decoded as a create's is, its unknown fields in the document's order; a patch's result, sorted
  if (patchType === 'put') return decodedJson(raw, kind, directive, d, d.unknown);
  const unknown = [...d.unknown].sort((a, b) => (unknownField(a) < unknownField(b) ? -1 : 1));
  if (patchType === 'strategic') {
    const error = d.typeError ? (convertError(raw, schema) ?? d.typeError.message) : undefined;
    if (error) return invalidPatch(patch, error);
    if (directive === 'Strict' && unknown.length) return invalidPatch(patch, strictError(unknown)!.message);
  }
  return decodedJson(raw, kind, directive, d, unknown);
}

/** A patched pod, decoded as the patch handler decodes it (see decodePatchedUnder). */
export function decodePatchedPod<T>(raw: T, directive: FieldValidation, patchType: PatchType, patch: unknown): Decoded<T> {
  return decodePatchedUnder(raw, pod, 'Pod', directive, patchType, patch);
}

/** A pod as the API server decodes it under a field validation directive (see decodeUnder). */
export function decodePodUnder<T>(raw: T, directive: FieldValidation): Decoded<T> {
  return decodeUnder(raw, pod, 'Pod', directive);
}
