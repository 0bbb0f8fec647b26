// API defaulting and the admission plugins that mutate a new pod, as a default kubeadm API server applies them:
// SetDefaults_Pod/PodSpec/Container/Probe, ServiceAccount (kube-api-access volume), DefaultTolerationSeconds,
// Priority; then PrepareForCreate computes status.qosClass.
// upstream: pkg/apis/core/v1/defaults.go; plugin/pkg/admission/serviceaccount/admission.go;
//           plugin/pkg/admission/defaulttolerationseconds/admission.go; pkg/apis/core/helper/qos/qos.go

import type { Container, PodSpec, Toleration, Volume } from '../types.ts';
import { isLatestOrUntagged } from './imageref.ts';
import { milliCPU, intValue } from './quantity.ts';

type Raw = Record<string, any>;

// upstream: pkg/apis/core/v1/defaults.go SetDefaults_Probe
function defaultProbe(p: Raw | undefined): void {
  if (!p) return;
  p.timeoutSeconds ||= 1;
  p.periodSeconds ||= 10;
  p.successThreshold ||= 1;
  p.failureThreshold ||= 3;
  defaultHandler(p);
}

// upstream: pkg/apis/core/v1/defaults.go SetDefaults_HTTPGetAction
function defaultHandler(h: Raw | undefined): void {
  if (!h?.httpGet) return;
  h.httpGet.path ||= '/';
  h.httpGet.scheme ||= 'HTTP';
}

// upstream: pkg/apis/core/v1/defaults.go SetDefaults_Container (+ SetDefaults_Pod for requests from limits)
function defaultContainer(c: Raw, hostNetwork: boolean): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = isLatestOrUntagged(typeof c.image === 'string' ? c.image : '') ? 'Always' : 'IfNotPresent';
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  c.resources ??= {};
  const { limits, requests } = c.resources as Raw;
  if (limits && Object.keys(limits).length) {
    c.resources.requests ??= {};
    for (const k in limits) if (c.resources.requests[k] === undefined) c.resources.requests[k] = limits[k];
  } else if (requests && !Object.keys(requests).length) {
    delete c.resources.requests;
  }
  c.ports?.forEach((p: Raw) => {
    p.protocol ||= 'TCP';
    if (hostNetwork && !p.hostPort) p.hostPort = p.containerPort;
  });
  c.env?.forEach((e: Raw) => {
    if (e.valueFrom?.fieldRef) e.valueFrom.fieldRef.apiVersion ||= 'v1';
  });
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHandler(c.lifecycle?.postStart);
  defaultHandler(c.lifecycle?.preStop);
}

export interface DefaultingContext {
  /** Five characters for the kube-api-access-xxxxx volume name (utilrand.String(5)). */
  volumeSuffix: string;
}

/** Defaulting and admission of a pod being created, in place (the object is a private deep copy). */
export function defaultPodSpec(spec: Raw, ctx: DefaultingContext): void {
  setDefaultsPodSpec(spec);
  admitServiceAccount(spec, ctx);
  admitDefaultTolerationSeconds(spec);
  spec.preemptionPolicy ||= 'PreemptLowerPriority';
}

/** The v1 defaults of a pod spec: run on every decode, so also on the result of a patch. */
// upstream: pkg/apis/core/v1/defaults.go SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Volume
export function setDefaultsPodSpec(spec: Raw): void {
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ||= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  spec.containers ??= [];
  const hostNetwork = !!spec.hostNetwork;
  const defaults = (c: Raw): void => defaultContainer(c, hostNetwork);
  spec.containers.forEach(defaults);
  spec.initContainers?.forEach(defaults);
  spec.ephemeralContainers?.forEach(defaults);
  for (const v of spec.volumes ?? []) {
    for (const src of ['secret', 'configMap', 'projected', 'downwardAPI'] as const) {
      if (v[src]) v[src].defaultMode ??= 420;
    }
  }
}

// The objects admission adds are the same in every pod and, as every stored object, never modified: one of each
// is shared by every pod (and validation knows them valid). Frozen, so a write into one fails loudly.
function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') for (const v of Object.values(Object.freeze(o))) deepFreeze(v);
  return o;
}
const PROJECTED: Volume['projected'] = deepFreeze({
  defaultMode: 420,
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
    { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
  ],
});

/** ServiceAccount admission on create: the service account and its projected token volume and mounts. */
// upstream: plugin/pkg/admission/serviceaccount/admission.go (*Plugin).Admit, mountServiceAccountToken
function admitServiceAccount(spec: Raw, ctx: DefaultingContext): void {
  if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || 'default';
  spec.serviceAccount = spec.serviceAccountName;
  if (spec.automountServiceAccountToken !== false) {
    const name = `kube-api-access-${ctx.volumeSuffix}`;
    // the lists live as long as the pod: concat makes them at their size (a spread or push reserves spare room)
    spec.volumes = (spec.volumes ?? []).concat({ name, projected: PROJECTED });
    const mount = (c: Raw): void => {
      const mounts: Raw[] = c.volumeMounts ?? [];
      const mountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
      if (!mounts.some((m) => m.mountPath === mountPath)) c.volumeMounts = mounts.concat({ mountPath, name, readOnly: true });
    };
    spec.initContainers?.forEach(mount);
    spec.containers.forEach(mount);
  }
}

/** DefaultTolerationSeconds admission, on create and on update: not-ready and unreachable tolerated for 300 s. */
// upstream: plugin/pkg/admission/defaulttolerationseconds/admission.go (*Plugin).Admit;
//           NewDefaultTolerationSeconds: admission.NewHandler(admission.Create, admission.Update)
export function admitDefaultTolerationSeconds(spec: Raw): void {
  // a pod without tolerations gets the shared list (stored lists are never modified)
  let tolerations: Toleration[] = spec.tolerations?.length ? spec.tolerations : DEFAULT_TOLERATIONS;
  for (const d of DEFAULT_TOLERATIONS) {
    const has = tolerations.some((t) => (t.operator === 'Exists' && !t.key) || (t.key === d.key && (!t.effect || t.effect === 'NoExecute')));
    if (!has) tolerations = tolerations.concat(d);
  }
  spec.tolerations = tolerations;
}
export const DEFAULT_TOLERATIONS: Toleration[] = deepFreeze(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].map(
  (key) => ({ effect: 'NoExecute', key, operator: 'Exists', tolerationSeconds: 300 }),
));

/** The PriorityClasses of a fresh cluster (the API server creates the two system classes). */
const PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** Priority admission: resolve priorityClassName; a hand-written priority is refused. Returns an error message, or undefined. */
// upstream: plugin/pkg/admission/priority/admission.go (*Plugin).admitPod
export function admitPriority(spec: Raw, podName: string): string | undefined {
  const className: string | undefined = spec.priorityClassName || undefined;
  let priority = 0;
  if (className !== undefined) {
    if (!(className in PRIORITY_CLASSES)) return `pods "${podName}" is forbidden: no PriorityClass with name ${className} was found`;
    priority = PRIORITY_CLASSES[className];
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    return `pods "${podName}" is forbidden: the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`;
  }
  spec.priority = priority;
  return undefined;
}

/** status.qosClass as the API server computes it on create. */
// upstream: pkg/apis/core/helper/qos/qos.go ComputePodQOS
export function computePodQOS(spec: PodSpec): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  let anyRequest = false;
  let guaranteed = true;
  const check = (c: Container): void => {
    const req = c.resources?.requests;
    const lim = c.resources?.limits;
    for (let i = 0; i < 2; i++) {
      const r = i ? 'memory' : 'cpu';
      const rq = req?.[r];
      const lm = lim?.[r];
      if ((rq !== undefined && nonZero(r, rq)) || (lm !== undefined && nonZero(r, lm))) anyRequest = true;
      if (lm === undefined || !nonZero(r, lm)) guaranteed = false;
      else if (rq !== undefined && quantityCmp(r, rq) !== quantityCmp(r, lm)) guaranteed = false;
    }
  };
  spec.initContainers?.forEach(check);
  spec.containers.forEach(check);
  if (!anyRequest) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function quantityCmp(resource: string, q: string): number {
  return resource === 'cpu' ? milliCPU(q) : intValue(q);
}
function nonZero(resource: string, q: string): boolean {
  return quantityCmp(resource, q) !== 0;
}
