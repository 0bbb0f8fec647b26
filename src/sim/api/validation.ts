// Pod validation as the API server runs it on create and update (ValidatePodCreate / ValidatePodUpdate), for the
// fields the simulation models, with the real messages and field paths.
// upstream: pkg/apis/core/validation/validation.go; staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go

import type { FieldError } from './fielderrors.ts';
import { QUANTITY_REGEXP, parseQuantity } from './quantity.ts';
import { clone } from '../core/clone.ts';
import { DEFAULT_TOLERATIONS } from './defaults.ts';

// field.Required, field.Invalid, ...: the field errors validation makes (fielderrors.ts formats them)
// upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go
export const required = (field: string, detail?: string): FieldError => ({ type: 'Required', field, detail });
export const invalid = (field: string, value: unknown, detail?: string): FieldError => ({ type: 'Invalid', field, value, detail });
export const forbidden = (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail });
export const duplicate = (field: string, value: unknown): FieldError => ({ type: 'Duplicate', field, value });
export const notFound = (field: string, value: unknown): FieldError => ({ type: 'NotFound', field, value });
export function notSupported(field: string, value: unknown, supported: string[]): FieldError {
  return { type: 'NotSupported', field, value, detail: `supported values: ${supported.map((s) => `"${s}"`).join(', ')}` };
}


type Raw = Record<string, any>;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

// upstream: validation.go IsDNS1123Label
// the strict decoding that comes before validation travels with it: a replay of requests that all passed needs neither
export { decodePatchedPod, decodePatchedUnder, decodePodUnder, objectMeta } from './schema.ts';
export { patchBodyError } from './patch-body.ts';

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(v)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

// upstream: validation.go IsDNS1123Subdomain
export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(v)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}

// upstream: validation.go hasChDirPrefix
function chDirPrefix(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  return v.startsWith('..') ? ["must not start with '..'"] : [];
}

// upstream: validation.go IsConfigMapKey (a ConfigMap's or a Secret's key; its length in bytes, as Go's len)
export function isConfigMapKey(v: string): string[] {
  const errs: string[] = [];
  if (new TextEncoder().encode(v).length > 253) errs.push('must be no more than 253 characters');
  if (!/^[-._a-zA-Z0-9]+$/.test(v)) {
    errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  }
  return [...errs, ...chDirPrefix(v)];
}

// upstream: validation.go IsEnvVarName (the strict rule, which kubectl's env files still use)
export function isEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (!/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(v)) {
    errs.push(
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
    );
  }
  return [...errs, ...chDirPrefix(v)];
}

// upstream: validation.go IsQualifiedName
export function isQualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name = v;
  if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (name.length && !QUALIFIED_NAME.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return errs;
}

// upstream: validation.go IsValidLabelValue
export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(v)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

/** One Invalid error per message; the field (path + suffix) is only built for an error. */
function each(errs: FieldError[], field: string, value: unknown, msgs: string[], suffix = ''): void {
  for (let i = 0; i < msgs.length; i++) errs.push(invalid(field + suffix, value, msgs[i]));
}

// upstream: pkg/apis/core/validation/validation.go ValidateObjectMeta (labels, annotations, finalizers)
export function validateMeta(meta: Raw, errs: FieldError[]): void {
  if (!meta.name && !meta.generateName) errs.push(required('metadata.name', 'name or generateName is required'));
  else if (meta.name) each(errs, 'metadata.name', meta.name, isDNS1123Subdomain(meta.name));
  if (meta.namespace) each(errs, 'metadata.namespace', meta.namespace, isDNS1123Label(meta.namespace));
  validateLabels(meta.labels, 'metadata.labels', errs);
  for (const k in meta.annotations) each(errs, 'metadata.annotations', k, isQualifiedName(k.toLowerCase()));
  meta.finalizers?.forEach((f: string, i: number) => {
    const field = `metadata.finalizers[${i}]`;
    const q = isQualifiedName(f);
    if (q.length) each(errs, field, f, q);
    else if (!f.includes('/') && !['kubernetes', 'orphan', 'foregroundDeletion'].includes(f)) errs.push(invalid(field, f, 'name is neither a standard finalizer name nor is it fully qualified'));
  });
}

function validateLabels(labels: Record<string, string> | undefined, field: string, errs: FieldError[]): void {
  for (const k in labels) {
    each(errs, field, k, isQualifiedName(k));
    each(errs, field, labels[k], isValidLabelValue(labels[k]));
  }
}

// upstream: validation.go validateHandler / validateProbe
function validateHandler(h: Raw, field: string, errs: FieldError[], allowSleep: boolean): void {
  const kinds = ['exec', 'httpGet', 'tcpSocket', ...(allowSleep ? ['sleep'] : ['grpc'])].filter((k) => h[k] !== undefined);
  if (kinds.length === 0) {
    errs.push(required(field, 'must specify a handler type'));
    return;
  }
  if (kinds.length > 1) errs.push(forbidden(`${field}.${kinds[1]}`, 'may not specify more than 1 handler type'));
  if (h.exec && !(h.exec.command?.length > 0)) errs.push(required(`${field}.exec.command`));
  for (const k of ['httpGet', 'tcpSocket'] as const) {
    if (!h[k]) continue;
    const port = h[k].port;
    if (port === undefined || port === '') errs.push(required(`${field}.${k}.port`));
    else if (typeof port === 'number' && (port < 1 || port > 65535)) errs.push(invalid(`${field}.${k}.port`, port, 'must be between 1 and 65535, inclusive'));
    else if (typeof port === 'string' && !/^[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/.test(port)) {
      errs.push(invalid(`${field}.${k}.port`, port, 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'));
    }
  }
  if (h.httpGet?.scheme && !['HTTP', 'HTTPS'].includes(h.httpGet.scheme)) errs.push(notSupported(`${field}.httpGet.scheme`, h.httpGet.scheme, ['HTTP', 'HTTPS']));
  if (h.sleep && (h.sleep.seconds ?? -1) < 0) errs.push(invalid(`${field}.sleep.seconds`, h.sleep.seconds, 'must be non-negative'));
}

function validateProbe(p: Raw, field: string, kind: 'liveness' | 'readiness' | 'startup', errs: FieldError[]): void {
  validateHandler(p, field, errs, false);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (p[k] !== undefined && p[k] < 0) errs.push(invalid(`${field}.${k}`, p[k], 'must be greater than or equal to 0'));
  }
  if (kind !== 'readiness' && p.successThreshold !== undefined && p.successThreshold !== 1) {
    errs.push(invalid(`${field}.successThreshold`, p.successThreshold, 'must be 1'));
  }
  if (p.terminationGracePeriodSeconds !== undefined) {
    if (kind === 'readiness') errs.push(invalid(`${field}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    else if (p.terminationGracePeriodSeconds <= 0) errs.push(invalid(`${field}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
}

const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

// upstream: validation.go ValidateResourceRequirements
function validateResources(r: Raw | undefined, field: string, errs: FieldError[]): void {
  if (!r) return;
  for (let p = 0; p < 2; p++) {
    const part = p ? 'requests' : 'limits';
    const list: Record<string, string | number> | undefined = r[part];
    for (const name in list) {
      const q = list[name];
      const f = (): string => `${field}.${part}[${name}]`;
      if (!STANDARD_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.includes('/')) {
        errs.push(invalid(f(), name, 'must be a standard resource type or fully qualified'));
        continue;
      }
      const v = parseQuantity(q);
      if (v === undefined) errs.push(invalid(f(), String(q), `quantities must match the regular expression '${QUANTITY_REGEXP}'`));
      else if (v < 0) errs.push(invalid(f(), String(q), 'must be greater than or equal to 0'));
    }
  }
  const requests: Record<string, string | number> | undefined = r.requests;
  for (const name in requests) {
    const q = requests[name];
    const lim = r.limits?.[name];
    if (lim === undefined) continue;
    const rv = parseQuantity(q);
    const lv = parseQuantity(lim);
    if (rv !== undefined && lv !== undefined && rv > lv) {
      errs.push(invalid(`${field}.requests`, String(q), `must be less than or equal to ${name} limit of ${String(lim)}`));
    }
  }
}

type ContainerKind = 'containers' | 'initContainers' | 'ephemeralContainers';

function validateContainer(c: Raw, field: string, kind: ContainerKind, volumes: Set<string>, errs: FieldError[]): void {
  if (!c.name) errs.push(required(`${field}.name`));
  else each(errs, field, c.name, isDNS1123Label(c.name), '.name');
  if (!c.image) errs.push(required(`${field}.image`));
  else if (c.image.trim() !== c.image) errs.push(invalid(`${field}.image`, c.image, 'must not have leading or trailing whitespace'));
  if (!['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy)) {
    errs.push(notSupported(`${field}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
  }
  if (!['File', 'FallbackToLogsOnError'].includes(c.terminationMessagePolicy)) {
    errs.push(notSupported(`${field}.terminationMessagePolicy`, c.terminationMessagePolicy, ['File', 'FallbackToLogsOnError']));
  }
  c.ports?.forEach((p: Raw, i: number) => {
    const pf = `${field}.ports[${i}]`;
    if (!p.containerPort) errs.push(required(`${pf}.containerPort`));
    else if (p.containerPort < 1 || p.containerPort > 65535) errs.push(invalid(`${pf}.containerPort`, p.containerPort, 'must be between 1 and 65535, inclusive'));
    if (!['SCTP', 'TCP', 'UDP'].includes(p.protocol)) errs.push(notSupported(`${pf}.protocol`, p.protocol, ['SCTP', 'TCP', 'UDP']));
  });
  c.env?.forEach((e: Raw, i: number) => {
    const ef = `${field}.env[${i}].name`;
    if (!e.name) errs.push(required(ef));
    else if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(e.name)) {
      errs.push(invalid(ef, e.name, "a valid environment variable name must consist only of printable ASCII characters other than '='"));
    }
  });
  validateResources(c.resources, `${field}.resources`, errs);
  c.volumeMounts?.forEach((m: Raw, i: number) => {
    const mf = (): string => `${field}.volumeMounts[${i}]`;
    if (!m.name) errs.push(required(`${mf()}.name`));
    else if (!volumes.has(m.name)) errs.push(notFound(`${mf()}.name`, m.name));
    if (!m.mountPath) errs.push(required(`${mf()}.mountPath`));
  });
  // ephemeral containers: no probe, hook or restartPolicy checks, the allow-list in validateEphemeral forbids them
  if (kind === 'ephemeralContainers') return;
  const sidecar = kind === 'initContainers' && c.restartPolicy === 'Always';
  if (c.restartPolicy !== undefined) {
    if (kind === 'initContainers') {
      if (c.restartPolicy !== 'Always') errs.push(notSupported(`${field}.restartPolicy`, c.restartPolicy, ['Always']));
    } else {
      errs.push(forbidden(`${field}.restartPolicy`, 'may not be set for non-init containers'));
    }
  }
  if (kind === 'initContainers' && !sidecar) {
    for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (c[k]) errs.push(forbidden(`${field}.${k}`, 'may not be set for init containers without restartPolicy=Always'));
    }
  } else {
    // (the paths are built for what is there)
    if (c.livenessProbe) validateProbe(c.livenessProbe, `${field}.livenessProbe`, 'liveness', errs);
    if (c.readinessProbe) validateProbe(c.readinessProbe, `${field}.readinessProbe`, 'readiness', errs);
    if (c.startupProbe) validateProbe(c.startupProbe, `${field}.startupProbe`, 'startup', errs);
    const hooks = c.lifecycle;
    if (hooks?.postStart) validateHandler(hooks.postStart, `${field}.lifecycle.postStart`, errs, true);
    if (hooks?.preStop) validateHandler(hooks.preStop, `${field}.lifecycle.preStop`, errs, true);
  }
}

const EC = 'cannot be set for an Ephemeral Container';
// EphemeralContainerCommon's fields that allowedEphemeralContainerFields leaves out, in the struct's order
const EC_FORBIDDEN = 'ports resources resizePolicy restartPolicy restartPolicyRules livenessProbe readinessProbe startupProbe lifecycle'.split(' ');

// upstream: validation.go validateEphemeralContainers (the target, validateFieldAllowList, no subPath)
function validateEphemeral(c: Raw, f: string, others: Set<string>, errs: FieldError[]): void {
  if (c.targetContainerName && !others.has(c.targetContainerName)) errs.push(notFound(`${f}.targetContainerName`, c.targetContainerName));
  // set = not Go's zero value: an empty string, list or object is (these fields are strings, lists and objects)
  for (const k of EC_FORBIDDEN) if (c[k] && JSON.stringify(c[k]).length > 2) errs.push(forbidden(`${f}.${k}`, EC));
  c.volumeMounts?.forEach((m: Raw, i: number) => {
    for (const k of ['subPath', 'subPathExpr']) if (m[k]) errs.push(forbidden(`${f}.volumeMounts[${i}].${k}`, EC));
  });
}

// upstream: validation.go ValidatePodSpec
export function validatePodSpec(spec: Raw, errs: FieldError[]): void {
  const volumes = new Set<string>();
  spec.volumes?.forEach((v: Raw, i: number) => {
    const f = (): string => `spec.volumes[${i}]`;
    if (!v.name) errs.push(required(`${f()}.name`));
    else {
      each(errs, f(), v.name, isDNS1123Label(v.name), '.name');
      if (volumes.has(v.name)) errs.push(duplicate(`${f()}.name`, v.name));
      volumes.add(v.name);
    }
    // the volume sources: the fields other than name (the second one named in the error)
    let sources = 0;
    let second = '';
    for (const k in v) if (k !== 'name' && ++sources === 2) second = k;
    if (sources === 0) errs.push(required(f(), 'must specify a volume type'));
    else if (sources > 1) errs.push(forbidden(`${f()}.${second}`, 'may not specify more than 1 volume type'));
  });

  const names = new Set<string>();
  // the init and regular containers' names, once the ephemeral containers are checked
  let others: Set<string> | undefined;
  const checkAll = (list: Raw[] | undefined, kind: ContainerKind): void => {
    list?.forEach((c, i) => {
      const f = `spec.${kind}[${i}]`;
      validateContainer(c, f, kind, volumes, errs);
      if (c.name) {
        if (names.has(c.name)) errs.push(duplicate(`${f}.name`, c.name));
        names.add(c.name);
      }
      if (others) validateEphemeral(c, f, others, errs);
    });
  };
  checkAll(spec.initContainers, 'initContainers');
  if (!spec.containers?.length) errs.push(required('spec.containers'));
  checkAll(spec.containers, 'containers');
  if (spec.ephemeralContainers) {
    others = new Set(names);
    checkAll(spec.ephemeralContainers, 'ephemeralContainers');
  }

  if (!['Always', 'OnFailure', 'Never'].includes(spec.restartPolicy)) {
    errs.push(notSupported('spec.restartPolicy', spec.restartPolicy, ['Always', 'OnFailure', 'Never']));
  }
  if (!['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(spec.dnsPolicy)) {
    errs.push(notSupported('spec.dnsPolicy', spec.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    errs.push(invalid('spec.terminationGracePeriodSeconds', spec.terminationGracePeriodSeconds, 'must be greater than or equal to 0'));
  }
  if (spec.activeDeadlineSeconds !== undefined && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > 2147483647)) {
    errs.push(invalid('spec.activeDeadlineSeconds', spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  if (spec.nodeName) each(errs, 'spec.nodeName', spec.nodeName, isDNS1123Subdomain(spec.nodeName));
  validateLabels(spec.nodeSelector, 'spec.nodeSelector', errs);
  if (spec.serviceAccountName) each(errs, 'spec.serviceAccountName', spec.serviceAccountName, isDNS1123Subdomain(spec.serviceAccountName));
  if (spec.schedulerName) each(errs, 'spec.schedulerName', spec.schedulerName, isDNS1123Subdomain(spec.schedulerName));
  if (!['Never', 'PreemptLowerPriority'].includes(spec.preemptionPolicy)) {
    errs.push(notSupported('spec.preemptionPolicy', spec.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
  spec.tolerations?.forEach((t: Raw, i: number) => {
    if (DEFAULT_TOLERATIONS.includes(t)) return; // DefaultTolerationSeconds' own, valid
    const f = `spec.tolerations[${i}]`;
    if (t.key) each(errs, f, t.key, isQualifiedName(t.key), '.key');
    const op = t.operator || 'Equal';
    if (!['Equal', 'Exists'].includes(op)) errs.push(notSupported(`${f}.operator`, t.operator, ['Equal', 'Exists']));
    if (op === 'Exists' && t.value) errs.push(invalid(`${f}.operator`, t.operator, "value must be empty when `operator` is 'Exists'"));
    if (!t.key && op !== 'Exists') errs.push(invalid(`${f}.operator`, t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      errs.push(notSupported(`${f}.effect`, t.effect, ['NoExecute', 'NoSchedule', 'PreferNoSchedule']));
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(invalid(`${f}.effect`, t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
  });
  spec.readinessGates?.forEach((g: Raw, i: number) => {
    each(errs, `spec.readinessGates[${i}].conditionType`, g.conditionType, isQualifiedName(g.conditionType ?? ''));
  });
}

/**
 * The RuntimeClass admission plugin, on create: a pod that names a RuntimeClass the cluster does not have is refused
 * (403). The model's cluster, like a kubeadm one, has none. Loaded with the validation: a recorded run that had a
 * request refused replays with this module.
 */
// upstream: plugin/pkg/admission/runtimeclass/admission.go (*RuntimeClass).prepareObjects
export function admitRuntimeClass(spec: Raw, podName: string): string | undefined {
  const name = spec.runtimeClassName;
  return name == null ? undefined : `pods ${JSON.stringify(podName)} is forbidden: pod rejected: RuntimeClass ${JSON.stringify(String(name))} not found`;
}

/** Everything ValidatePodCreate checks that the model covers. */
export function validatePodCreate(pod: Raw): FieldError[] {
  const errs: FieldError[] = [];
  validateMeta(pod.metadata ?? {}, errs);
  validatePodSpec(pod.spec ?? {}, errs);
  if (pod.spec?.ephemeralContainers?.length) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}

/**
 * The pods/ephemeralcontainers subresource: the whole spec is valid, and existing ephemeral containers are neither
 * removed nor changed. (Upstream appends the cmp.Diff of a changed container to its message; the model does not.)
 */
// upstream: validation.go ValidatePodEphemeralContainersUpdate
export function validatePodEphemeralContainersUpdate(next: Raw, old: Raw): FieldError[] {
  const errs: FieldError[] = [];
  validatePodSpec(next.spec, errs);
  for (const o of old.spec.ephemeralContainers ?? []) {
    const n = JSON.stringify(next.spec.ephemeralContainers?.find((c: Raw) => c.name === o.name));
    if (n !== JSON.stringify(o)) errs.push(forbidden('spec.ephemeralContainers', `existing ephemeral containers "${o.name}" may not be ${n ? 'changed' : 'removed'}\n`));
  }
  return errs;
}

const MUTABLE_SPEC =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidatePodUpdate: metadata rules plus the immutable spec (only images, activeDeadlineSeconds and added tolerations may change). */
// upstream: validation.go ValidatePodUpdate
export function validatePodUpdate(next: Raw, old: Raw): FieldError[] {
  const errs: FieldError[] = [];
  validateMeta(next.metadata ?? {}, errs);
  if (next.metadata?.name !== old.metadata?.name) errs.push(invalid('metadata.name', next.metadata?.name, 'field is immutable'));
  if (next.metadata?.uid !== old.metadata?.uid) errs.push(invalid('metadata.uid', next.metadata?.uid, 'field is immutable'));
  validatePodSpec(next.spec ?? {}, errs);
  // compare the spec with the mutable fields masked out
  const mask = (spec: Raw): string => {
    const s = clone(spec);
    for (const c of s.containers ?? []) delete c.image;
    for (const c of s.initContainers ?? []) delete c.image;
    delete s.activeDeadlineSeconds;
    delete s.tolerations;
    return JSON.stringify(s, Object.keys(flatKeys(s)).sort());
  };
  if (mask(next.spec ?? {}) !== mask(old.spec ?? {})) errs.push(forbidden('spec', MUTABLE_SPEC));
  const oldTol = JSON.stringify(old.spec?.tolerations ?? []);
  const newTol: Raw[] = next.spec?.tolerations ?? [];
  if (!(old.spec?.tolerations ?? []).every((t: Raw) => newTol.some((n) => JSON.stringify(n) === JSON.stringify(t))) && oldTol !== '[]') {
    errs.push(forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));
  }
  return errs;
}

function flatKeys(v: unknown, out: Record<string, true> = {}): Record<string, true> {
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out[k] = true;
      flatKeys(x, out);
    }
  }
  return out;
}

