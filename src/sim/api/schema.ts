// Strict decoding of a Pod as the API server does it for kubectl (field validation "Strict"): wrong JSON types
// and unknown fields are rejected with 400 BadRequest before defaulting and validation, with Go's messages.
// upstream: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json (strict decoding), encoding/json errors

import { QUANTITY_REGEXP, parseQuantity } from './quantity.ts';
import { goJsonType } from './patch-body.ts';

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
  typeError: DecodeProblem | undefined;
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
    case 'quantity':
      if (typeof v === 'number' || (typeof v === 'string' && parseQuantity(v) !== undefined)) return;
      st.typeError = { message: `quantities must match the regular expression '${QUANTITY_REGEXP}'`, path: st.at.json() };
      return;
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
        else st.unknown.push(st.at.json());
        keys.pop();
        fields.pop();
      }
      return;
    }
  }
}

/**
 * Check an object as the API server decodes it (`kind` names the top-level Go struct). Returns the first type error
 * (Go's json message), else, when `strict`, every unknown field as one strict-decoding message; undefined when the
 * object decodes.
 */
export function decodeObject(raw: unknown, schema: Schema, kind: string, strict = true): DecodeProblem | undefined {
  const st: DecodeState = { at: new DecodePath(), unknown: [], typeError: undefined };
  walk(st, raw, schema, kind);
  if (st.typeError) return st.typeError;
  const unknown = st.unknown;
  if (strict && unknown.length) {
    return { message: `strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`, path: unknown[0] };
  }
  return undefined;
}

/** A pod as the API server decodes it (strict field validation, as kubectl asks). */
export function decodePod(raw: unknown): DecodeProblem | undefined {
  return decodeObject(raw, pod, 'Pod');
}
