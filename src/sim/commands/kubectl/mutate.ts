// The kubectl commands that change the cluster: run, apply, delete, patch. Each builds the request
// exactly as kubectl sends it and prints kubectl's answer.
// upstream: k8s.io/kubectl/pkg/cmd/run/run.go + pkg/generate/versioned/run.go (BasicPod);
// pkg/cmd/apply/apply.go; pkg/cmd/delete/delete.go (Complete, Validate, PrintObj); pkg/cmd/patch/patch.go

import { parseAllDocuments } from 'yaml';
import { goJson, sortedCopy } from '../../render/json.ts';
import { PatchError, createThreeWayMergePatch, jsonPatch, strategicMergePatch } from '../../api/patch.ts';
import { mergePatch } from '../../api/merge-patch.ts';
import { formatGoDuration } from '../../render/duration.ts';
import { deepEqual, isJsonObject } from '../../core/structural.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, duration, int, str } from '../flags.ts';
import { type CommandResult, type Write, fromWrites } from '../shell.ts';
import type { ExecContext } from '../context.ts';
import type { ApiStatus, ApplyResult, ClusterAction, ConfigObject, FieldValidation, PatchType, Pod } from '../../types.ts';
import type { Service } from '../../api/services.ts';
import {
  FILENAME_FLAGS, KubectlError, MISSING_RESOURCE, VisitErrors, apiErrorText, configMapsIn, namespaceOf, nodesIn, notFound, out, podsIn,
  secretsIn, servicesIn, singular, submit, typeAndNames, typeGroups, warningText,
} from './common.ts';
import { asList, fileReader, inStructOrder, OBJECT_META_ORDER, objectOutput, objectsOnlyOutput, type Order, type OutputFormat, PRINT_FLAGS, printObject } from './output.ts';
import { select } from './selectors.ts';
import { MANIFEST_KINDS, MANIFEST_RESOURCE, type Manifest, manifests, requireFilenames } from './files.ts';
import { notFoundStatus } from '../../api/fielderrors.ts';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

// ---------------------------------------------------------------------------------------------
// kubectl run
// ---------------------------------------------------------------------------------------------

export const RUN_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  { name: 'image', type: 'string' },
  { name: 'image-pull-policy', type: 'string' },
  { name: 'env', type: 'stringArray' },
  { name: 'port', type: 'string' },
  { name: 'labels', shorthand: 'l', type: 'string' },
  { name: 'restart', type: 'string' },
  { name: 'command', type: 'bool' },
  { name: 'annotations', type: 'stringArray' },
  { name: 'stdin', shorthand: 'i', type: 'bool' },
  { name: 'tty', shorthand: 't', type: 'bool' },
  { name: 'attach', type: 'bool' },
  { name: 'rm', type: 'bool' },
  { name: 'leave-stdin-open', type: 'bool' },
  { name: 'expose', type: 'bool' },
  { name: 'quiet', shorthand: 'q', type: 'bool' },
  { name: 'privileged', type: 'bool' },
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'overrides', type: 'string' },
  { name: 'override-type', type: 'string' },
  { name: 'pod-running-timeout', type: 'string' },
  { name: 'save-config', type: 'bool' },
  { name: 'field-manager', type: 'string' },
  { name: 'detach-keys', type: 'string' },
];

/** A docker image reference (distribution/reference ReferenceRegexp, simplified to its shape). */
export const IMAGE_REF =
  /^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?)\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$/;

const GO_BOOLS: Record<string, boolean> = { 1: true, t: true, T: true, TRUE: true, true: true, True: true, 0: false, f: false, F: false, FALSE: false, false: false, False: false };

/**
 * --dry-run: none, client or server, and the warning klog prints for the deprecated forms (a bare `--dry-run`,
 * which means client, and a Go boolean): its source line and message.
 */
// upstream: kubectl pkg/cmd/util/helpers.go GetDryRunStrategy (v0.36.2 L712; the warnings at L719, L733, L736)
export function dryRunStrategy(p: ParsedArgs): { mode: 'none' | 'client' | 'server'; warning?: { source: string; message: string } } {
  if (!p.flags.has('dry-run')) return { mode: 'none' };
  const v = str(p, 'dry-run');
  if (Object.hasOwn(GO_BOOLS, v)) {
    const mode = GO_BOOLS[v] ? 'client' : 'none';
    return { mode, warning: { source: `helpers.go:${GO_BOOLS[v] ? 733 : 736}`, message: `--dry-run=${v} is deprecated (boolean value) and can be replaced with --dry-run=${mode}.` } };
  }
  if (v === 'unchanged') return { mode: 'client', warning: { source: 'helpers.go:719', message: '--dry-run is deprecated and can be replaced with --dry-run=client.' } };
  if (v === 'client' || v === 'server' || v === 'none') return { mode: v };
  throw new KubectlError(`Invalid dry-run value (${v}). Must be "none", "server", or "client".`);
}

export function dryRun(p: ParsedArgs): 'none' | 'client' | 'server' {
  return dryRunStrategy(p).mode;
}

/** generate.ParseLabels: "a=b,c=d"; the first pair that is not KEY=VALUE, or has no key, is the error. */
function parseLabels(spec: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of spec.split(',')) {
    const kv = pair.split('=');
    if (kv.length !== 2) throw new KubectlError(`unexpected label spec: ${pair}`);
    if (kv[0] === '') throw new KubectlError('unexpected empty label key');
    labels[kv[0]] = kv[1];
  }
  return labels;
}

const CONTAINER_ORDER: Order = {
  keys: [
    'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'resizePolicy', 'restartPolicy',
    'restartPolicyRules', 'volumeMounts', 'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle',
    'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty',
  ],
  nested: {
    ports: { keys: ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'] },
    env: { keys: ['name', 'value', 'valueFrom'] },
    resources: { keys: ['limits', 'requests', 'claims'] },
  },
};
/** core/v1 Pod, ObjectMeta, PodSpec and Container, as k8s.io/api declares them (v0.36). */
const POD_ORDER: Order = {
  keys: ['kind', 'apiVersion', 'metadata', 'spec', 'status'],
  nested: {
    metadata: OBJECT_META_ORDER,
    spec: {
      keys: [
        'volumes', 'initContainers', 'containers', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds',
        'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken',
        'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'securityContext', 'imagePullSecrets', 'hostname',
        'subdomain', 'affinity', 'schedulerName', 'tolerations', 'hostAliases', 'priorityClassName', 'priority', 'dnsConfig',
        'readinessGates', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'overhead', 'topologySpreadConstraints',
        'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates', 'resourceClaims', 'resources',
      ],
      nested: { initContainers: CONTAINER_ORDER, containers: CONTAINER_ORDER, ephemeralContainers: CONTAINER_ORDER },
    },
  },
};


/**
 * --overrides: the generated object patched by an inline JSON merge patch (the default), strategic merge patch or
 * JSON patch, as kubectl's Overrider does before it sends the object.
 * upstream: pkg/cmd/util/override_options.go (Overrider.Apply), helpers.go Merge, StrategicMerge, JSONPatch
 */
function overridden(obj: Record<string, unknown>, overrides: string, type: string): Record<string, unknown> {
  if (!overrides) return obj;
  if (!['json', 'merge', 'strategic'].includes(type)) throw new KubectlError(`invalid override type: ${type}`);
  let patch: unknown;
  try {
    patch = JSON.parse(overrides);
  } catch {
    throw new KubectlError(type === 'merge' ? 'Invalid JSON Patch' : type === 'strategic' ? 'invalid JSON document' : 'invalid character in the JSON patch');
  }
  try {
    const out = (type === 'json' ? jsonPatch(obj, patch) : type === 'merge' ? mergePatch(obj, patch) : strategicMergePatch(obj, patch)) as Record<string, any>;
    // kubectl decodes the result into a typed Pod and encodes it again: struct fields come back even when empty (but a
    // zero creationTimestamp, omitted since apimachinery v0.34: kubernetes#130989)
    out.metadata = { ...out.metadata };
    out.status ??= {};
    for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
      for (const c of out.spec?.[list] ?? []) if (c && typeof c === 'object') c.resources ??= {};
    }
    return out;
  } catch (e) {
    if (e instanceof PatchError) throw new KubectlError(e.message);
    throw e;
  }
}

export function kubectlRun(p: ParsedArgs, ctx: ExecContext): CommandResult {
  const image = str(p, 'image');
  if (!p.flags.has('image')) throw new KubectlError('required flag(s) "image" not set');
  const argsBeforeDash = p.argsLenAtDash >= 0 ? p.args.slice(0, p.argsLenAtDash) : p.args;
  if (argsBeforeDash.length === 0) throw new KubectlError('NAME is required for run', 'run');
  const name = argsBeforeDash[0];
  if (!image) throw new KubectlError('--image is required');
  if (!IMAGE_REF.test(image)) throw new KubectlError(`Invalid image name ${JSON.stringify(image)}: invalid reference format`);
  if (bool(p, 'tty') && !bool(p, 'stdin')) throw new KubectlError('-i/--stdin is required for containers with -t/--tty=true', 'run');
  if (bool(p, 'expose') && !str(p, 'port')) throw new KubectlError('--port must be set when exposing a service', 'run');
  if (bool(p, 'expose')) throw new KubectlError('podlife: kubectl run --expose also creates a Service, which this simulation does not model; run without --expose');
  if (bool(p, 'rm') && !bool(p, 'attach') && !bool(p, 'stdin')) {
    throw new KubectlError('--rm should only be used for attached containers', 'run');
  }
  if (bool(p, 'stdin') || bool(p, 'attach') || bool(p, 'tty')) {
    throw new KubectlError('podlife: attaching to a container (-i, -t, --attach) is not supported by this simulation');
  }
  const mode = dryRun(p);
  const restart = str(p, 'restart', 'Always');
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) throw new KubectlError(`invalid restart policy: ${restart}`, 'run');
  const pullPolicy = str(p, 'image-pull-policy');
  if (pullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(pullPolicy)) {
    throw new KubectlError(`invalid image pull policy: ${pullPolicy}`, 'run');
  }
  const format = objectOutput(p, fileReader(ctx));

  const env = arr(p, 'env').map((e) => {
    const pos = e.indexOf('=');
    const envName = pos < 0 ? '' : e.slice(0, pos);
    if (pos < 0 || !/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(envName)) throw new KubectlError(`invalid env: ${e}`);
    return { name: envName, value: e.slice(pos + 1) };
  });
  const annotations: Record<string, string> = {};
  for (const a of arr(p, 'annotations')) {
    const pos = a.indexOf('=');
    if (pos < 0) throw new KubectlError(`invalid annotation spec: ${a}`);
    annotations[a.slice(0, pos)] = a.slice(pos + 1);
  }
  const port = str(p, 'port');
  if (port && !/^[+-]?\d+$/.test(port)) throw new KubectlError(`strconv.Atoi: parsing ${JSON.stringify(port)}: invalid syntax`);
  const labelsFlag = str(p, 'labels');
  const labels = labelsFlag ? parseLabels(labelsFlag) : { run: name };
  const args = p.argsLenAtDash >= 0 ? p.args.slice(p.argsLenAtDash) : p.args.slice(1);

  // The object kubectl's BasicPod generator builds, field by field.
  const container: Record<string, unknown> = { name, image, resources: {} };
  if (args.length > 0) container[bool(p, 'command') ? 'command' : 'args'] = args;
  if (env.length > 0) container.env = env;
  if (pullPolicy) container.imagePullPolicy = pullPolicy;
  if (port) container.ports = [{ containerPort: Number(port) }];
  // upstream: pkg/generate/versioned/run.go BasicPod (privileged: a security context with just that)
  if (bool(p, 'privileged')) container.securityContext = { privileged: true };
  // (no `creationTimestamp: null`: a zero timestamp is omitted since apimachinery v0.34, kubernetes#130989)
  const metadata: Record<string, unknown> = { labels, name };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (bool(p, 'save-config')) throw new KubectlError('podlife: kubectl run --save-config is not supported by this simulation (kubectl apply -f writes the annotation)');
  const generated = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: restart },
    status: {},
  };
  const pod = overridden(generated, str(p, 'overrides'), str(p, 'override-type', 'merge'));
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  if (mode === 'client') {
    // an explicit -n is set on the object kubectl prints (EnforceNamespace); the default one is not
    if (p.flags.has('namespace')) (pod as { metadata: Record<string, unknown> }).metadata.namespace = namespace;
    // a typed object never sent: -o json prints it in the Go structs' field order
    if (format?.kind === 'json') return out(`${goJson(inStructOrder(pod, POD_ORDER), '    ', false)}\n`);
    if (format && format.kind !== 'table') return out(printObject(pod, format, `pod/${name}`));
    return out(`pod/${name} created (dry run)\n`);
  }
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation');
  const result = submit(ctx, { type: 'create', namespace, obj: pod });
  if (!result.ok) return out('', apiErrorText(result.status), 1);
  if (format && format.kind !== 'table') return out(printObject(result.object, format, `pod/${name}`));
  return out(`pod/${name} created\n`);
}

// ---------------------------------------------------------------------------------------------
// kubectl apply -f
// ---------------------------------------------------------------------------------------------

export const APPLY_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  ...FILENAME_FLAGS,
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'server-side', type: 'bool' },
  { name: 'force-conflicts', type: 'bool' },
  { name: 'field-manager', type: 'string' },
  { name: 'validate', type: 'string', noOptDefault: 'strict' },
  { name: 'overwrite', type: 'bool' },
  { name: 'force', type: 'bool' },
  { name: 'grace-period', type: 'int' },
  { name: 'timeout', type: 'duration' },
  { name: 'wait', type: 'bool' },
  { name: 'prune', type: 'bool' },
  { name: 'all', type: 'bool' },
  { name: 'cascade', type: 'string', noOptDefault: 'background' },
  { name: 'openapi-patch', type: 'bool' },
];

export function kubectlApply(p: ParsedArgs, ctx: ExecContext, stdin: string): CommandResult {
  if (bool(p, 'force-conflicts') && !bool(p, 'server-side')) throw new KubectlError('--force-conflicts only works with --server-side');
  if (bool(p, 'server-side')) throw new KubectlError('podlife: server-side apply (--server-side) is not supported by this simulation; kubectl apply without it is');
  if (bool(p, 'prune')) throw new KubectlError('podlife: --prune is not supported by this simulation');
  const fieldValidation = validationDirective(p);
  requireFilenames(p);
  const mode = dryRun(p);
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation');
  const format = objectsOnlyOutput(p, fileReader(ctx));
  // with an object format the objects are printed together at the end (shouldPrintObject), as a List when several
  const objects: unknown[] = [];
  // a missing-annotation warning is printed as its object is applied, before its line; errors all at the end
  const writes: Write[] = [];
  const errors = new VisitErrors();
  const seenWarnings = new Set<string>();
  let count = 0;
  for (const m of manifests(p, ctx, stdin, 'applying', { kinds: MANIFEST_KINDS })) {
    if (typeof m === 'string') {
      errors.add(m);
      continue;
    }
    count++;
    const r = applyObject(m, ctx, mode === 'client', fieldValidation, seenWarnings);
    writes.push([2, r.warning]);
    if (r.error) errors.add(r.error);
    if (r.operation === undefined) continue;
    const shown = `${singular[MANIFEST_RESOURCE[m.kind]]}/${m.name}`;
    if (format?.kind === 'name') writes.push([1, `${shown}\n`]);
    else if (format) objects.push(r.object);
    else writes.push([1, `${shown} ${r.operation}${mode === 'client' ? ' (dry run)' : ''}\n`]);
  }
  if (format && format.kind !== 'name' && objects.length > 0) {
    writes.push([1, printObject(objects.length === 1 ? objects[0] : asList(objects), format, '')]);
  }
  if (count === 0 && errors.size === 0) throw new KubectlError('no objects passed to apply');
  writes.push([2, errors.text()]);
  return fromWrites(writes, errors.size ? 1 : 0);
}

/**
 * --validate: cmdutil.GetValidationDirective (true/strict, warn, false/ignore; anything else is refused), as the
 * fieldValidation kubectl sends with each request (the server validates; kubectl checks nothing itself).
 */
export function validationDirective(p: ParsedArgs): FieldValidation {
  const validate = str(p, 'validate', 'strict').toLowerCase();
  if (!['true', 'strict', 'false', 'ignore', 'warn'].includes(validate)) {
    throw new KubectlError(`invalid - validate option "${str(p, 'validate')}"; must be one of: strict (or true), warn, ignore (or false)`);
  }
  return validate === 'warn' ? 'Warn' : validate === 'false' || validate === 'ignore' ? 'Ignore' : 'Strict';
}

/** AddSourceToErr(verb, source, err): the server's message, prefixed with what was done and the file it came from. */
const sourceError = (status: ApiStatus, verb: string, source: string): ApiStatus => ({ ...status, message: `error when ${verb} ${JSON.stringify(source)}: ${status.message}` });

const WARNING_NO_LAST_APPLIED = (objectName: string) =>
  `Warning: resource ${objectName} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`;

// upstream: k8s.io/kubectl/pkg/cmd/apply/apply.go applyOneObject; pkg/cmd/apply/patcher.go calculatePatch;
//           pkg/util/apply.go GetModifiedConfiguration; pkg/cmd/util/helpers.go AddSourceToErr
interface Applied {
  /** The missing-annotation warning, printed as the object is applied, or ''. */
  warning: string;
  /** The server's refusal, with what was being done (AddSourceToErr), or podlife's. */
  error?: ApiStatus | string;
  /** What kubectl prints for an -o format: the object the server answered, or the locally made one of a dry run. */
  object?: unknown;
  /** created, configured or unchanged (the name printer's operation). */
  operation?: string;
}

/**
 * Client-side apply of one object (a Pod, a ConfigMap or a Secret): create it (with the last-applied annotation), or
 * send the three-way patch of the existing one ("configured"; an empty one is not sent: "unchanged"), computed and
 * applied locally with --dry-run=client.
 */
// upstream: kubectl pkg/cmd/apply/apply.go applyOneObject (v0.36.2), patcher.go Patch / PatchLocal
function applyObject({ obj: manifest, kind, name, namespace, source }: Manifest, ctx: ExecContext, dry: boolean, fieldValidation: FieldValidation, seen: Set<string>): Applied {
  const meta = { ...((manifest.metadata ?? {}) as Record<string, unknown>) };
  const resource = MANIFEST_RESOURCE[kind];
  // GetModifiedConfiguration: the manifest (namespace filled in) is encoded without the annotation, and that
  // encoding (compact JSON, sorted keys, a trailing newline) becomes the annotation of the object sent
  const modified = withLastApplied({ ...manifest, metadata: { ...meta, namespace } });
  const live: (Pod | ConfigObject)[] = kind === 'Pod' ? podsIn(ctx, namespace) : kind === 'ConfigMap' ? configMapsIn(ctx, namespace) : secretsIn(ctx, namespace);
  const existing = live.find((x) => x.metadata.name === name);
  if (!existing) {
    if (dry) return { warning: '', object: modified, operation: 'created' };
    const create: ClusterAction = kind === 'Pod' ? { type: 'create', namespace, obj: modified, fieldValidation } : { type: 'config', verb: 'create', namespace, obj: modified, fieldValidation };
    const r = submit(ctx, create);
    if (!r.ok) return { warning: '', error: sourceError(r.status, 'creating', source) };
    return { warning: warningText(r, seen), object: r.object, operation: 'created' };
  }
  // the three-way strategic merge patch from the last-applied configuration, the live object and the manifest
  const current = JSON.parse(JSON.stringify(existing)) as Record<string, unknown>;
  const previous = existing.metadata.annotations?.[LAST_APPLIED];
  const warning = previous === undefined ? WARNING_NO_LAST_APPLIED(`${resource}/${name}`) : '';
  let original: Record<string, unknown> | undefined;
  if (previous) {
    try {
      original = JSON.parse(previous) as Record<string, unknown>;
    } catch {
      original = undefined;
    }
  }
  const patch = createThreeWayMergePatch(original, JSON.parse(JSON.stringify(modified)) as Record<string, unknown>, current);
  if (Object.keys(patch).length === 0) return { warning, object: existing, operation: 'unchanged' };
  // PatchLocal: the patch applied to the live object here, nothing sent
  if (dry) return { warning, object: strategicMergePatch(current as never, patch as never), operation: 'configured' };
  const send: ClusterAction = kind === 'Pod'
    ? { type: 'patch', kind, namespace, name, patchType: 'strategic', patch, fieldValidation }
    : { type: 'config', verb: 'patch', kind, namespace, name, patchType: 'strategic', patch, fieldValidation };
  const r = submit(ctx, send);
  if (!r.ok) {
    // AddSourceToErr: the status message is prefixed with what was being done (an Invalid one prints its causes instead)
    const info = `Resource: "/v1, Resource=${resource}", GroupVersionKind: "/v1, Kind=${kind}"\nName: ${JSON.stringify(name)}, Namespace: ${JSON.stringify(namespace)}`;
    return { warning, error: sourceError(r.status, `applying patch:\n${goJson(sortedCopy(patch))}\nto:\n${info}\nfor:`, source) };
  }
  return { warning: warning + warningText(r, seen), object: r.object, operation: 'configured' };
}

// ---------------------------------------------------------------------------------------------
// kubectl create -f
// ---------------------------------------------------------------------------------------------

export const CREATE_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  ...FILENAME_FLAGS,
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'validate', type: 'string', noOptDefault: 'strict' },
  { name: 'save-config', type: 'bool' },
  { name: 'edit', type: 'bool' },
  { name: 'windows-line-endings', type: 'bool' },
  { name: 'raw', type: 'string' },
  { name: 'field-manager', type: 'string' },
  { name: 'record', type: 'bool' },
];

/**
 * kubectl create's subcommands (and their aliases): configmap and secret (generic) are run (configs.ts); each other
 * makes a kind this simulation does not model.
 */
export const CREATE_SUBCOMMANDS = [
  'namespace', 'ns', 'quota', 'resourcequota', 'secret', 'configmap', 'cm', 'serviceaccount', 'sa', 'service', 'svc',
  'deployment', 'deploy', 'clusterrole', 'clusterrolebinding', 'role', 'rolebinding', 'poddisruptionbudget', 'pdb',
  'priorityclass', 'pc', 'job', 'cronjob', 'cj', 'ingress', 'ing', 'token',
];

/**
 * `kubectl create -f`: each Pod of the files is sent as it is (POST), with the last-applied annotation under
 * --save-config; the server's object is printed, or "pod/<name> created". A name taken is the server's
 * AlreadyExists, with the file it came from; the objects after it are still sent (ContinueOnError).
 */
// upstream: kubectl pkg/cmd/create/create.go (v0.36.2) Complete, Validate, RunCreate; pkg/util/apply.go
//           CreateOrUpdateAnnotation; pkg/cmd/util/helpers.go AddSourceToErr
/**
 * `create -f` and `replace -f`: each object of the files sent as it is, with the namespace the builder sets on it and
 * the last-applied annotation under --save-config (replace also brings one it already has up to date:
 * CreateOrUpdateAnnotation); what kubectl prints for each, the server's warnings and the errors named with their file.
 */
function sendManifests(
  p: ParsedArgs, ctx: ExecContext, stdin: string, verb: 'creating' | 'replacing', done: string, format: OutputFormat | undefined, dry: boolean,
  send: (m: Manifest, obj: Record<string, unknown>) => ApplyResult<Pod | ConfigObject>,
): { writes: Write[]; errors: VisitErrors; count: number } {
  const writes: Write[] = [];
  const errors = new VisitErrors();
  const seenWarnings = new Set<string>();
  let count = 0;
  for (const m of manifests(p, ctx, stdin, verb, { kinds: MANIFEST_KINDS })) {
    if (typeof m === 'string') {
      errors.add(m);
      continue;
    }
    let obj: Record<string, unknown> = { ...m.obj, metadata: { ...(m.obj.metadata as Record<string, unknown>), namespace: m.namespace } };
    const annotations = (obj.metadata as { annotations?: Record<string, string> }).annotations;
    if (bool(p, 'save-config') || (verb === 'replacing' && annotations?.[LAST_APPLIED] !== undefined)) obj = withLastApplied(obj);
    let sent: unknown = obj;
    if (!dry) {
      const r = send(m, obj);
      if (!r.ok) {
        errors.add(sourceError(r.status, verb, m.source));
        continue;
      }
      writes.push([2, warningText(r, seenWarnings)]);
      sent = r.object;
    }
    writes.push([1, manifestPrinted(m, sent, format, ++count, `${done}${dry ? ' (dry run)' : ''}`)]);
  }
  return { writes, errors, count };
}

/** What kubectl prints for an object it sent: `kind/name <done>`, or the object in the -o format (one printer for every
 * object: the YAML printer starts each document after its first with ---). */
function manifestPrinted(m: Manifest, obj: unknown, format: OutputFormat | undefined, count: number, done: string): string {
  const shown = `${singular[MANIFEST_RESOURCE[m.kind]]}/${m.name}`;
  if (format?.kind === 'name') return `${shown}\n`;
  if (format) return (format.kind === 'yaml' && count > 1 ? '---\n' : '') + printObject(obj, format, '');
  return `${shown} ${done}\n`;
}

export function kubectlCreate(p: ParsedArgs, ctx: ExecContext, stdin: string): CommandResult {
  if (p.args.length > 0) throw new KubectlError(`Unexpected args: [${p.args.join(' ')}]\nSee 'kubectl create -h' for help and examples`);
  const mode = dryRun(p);
  const fieldValidation = validationDirective(p);
  const format = objectsOnlyOutput(p, fileReader(ctx));
  if (bool(p, 'edit')) throw new KubectlError('podlife: kubectl create --edit opens an editor, which a transcript does not have; create from the file as it is');
  requireFilenames(p);
  if (str(p, 'raw')) throw new KubectlError('podlife: kubectl create --raw is not supported by this simulation');
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation');
  const { writes, errors, count } = sendManifests(p, ctx, stdin, 'creating', 'created', format, mode === 'client', (m, obj) => m.kind === 'Pod'
    ? submit(ctx, { type: 'create', namespace: m.namespace, obj, fieldValidation })
    : submit(ctx, { type: 'config', verb: 'create', namespace: m.namespace, obj, fieldValidation }));
  if (errors.size) return fromWrites([...writes, [2, errors.text()]], 1);
  if (count === 0) throw new KubectlError('no objects passed to create');
  return fromWrites(writes, 0);
}

/** The object with the last-applied annotation: its own encoding without that annotation (GetModifiedConfiguration). */
function withLastApplied(obj: Record<string, unknown>): Record<string, unknown> {
  const meta = obj.metadata as Record<string, unknown>;
  const annotations = { ...((meta.annotations ?? {}) as Record<string, string>) };
  delete annotations[LAST_APPLIED];
  const encoded = `${goJson(sortedCopy({ ...obj, metadata: { ...meta, annotations } }))}\n`;
  return { ...obj, metadata: { ...meta, annotations: { ...annotations, [LAST_APPLIED]: encoded } } };
}

// ---------------------------------------------------------------------------------------------
// kubectl replace
// ---------------------------------------------------------------------------------------------

export const REPLACE_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  ...FILENAME_FLAGS,
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'validate', type: 'string', noOptDefault: 'strict' },
  { name: 'save-config', type: 'bool' },
  { name: 'force', type: 'bool' },
  { name: 'grace-period', type: 'int' },
  { name: 'timeout', type: 'duration' },
  { name: 'cascade', type: 'string', noOptDefault: 'background' },
  { name: 'wait', type: 'bool' },
  { name: 'raw', type: 'string' },
  { name: 'subresource', type: 'string' },
  { name: 'field-manager', type: 'string' },
];

/**
 * `kubectl replace -f`: each Pod, ConfigMap and Secret of the files PUT in place of the stored one, as it is in the
 * file (the last-applied annotation brought up to date where it is, or with --save-config). A pod's spec may change
 * only as an update may (its image, say), so replace is how `kubectl get -o yaml`, edited, goes back.
 */
// upstream: k8s.io/kubectl v0.36.2 pkg/cmd/replace/replace.go (Complete, Validate, Run); util.CreateOrUpdateAnnotation
export function kubectlReplace(p: ParsedArgs, ctx: ExecContext, stdin: string): CommandResult {
  const force = bool(p, 'force');
  if (int(p, 'grace-period', -1) >= 0 && !force) throw new KubectlError('--grace-period must have --force specified');
  if (p.flags.has('timeout') && !force) throw new KubectlError('--timeout must have --force specified');
  requireFilenames(p);
  if (str(p, 'raw') || str(p, 'subresource')) throw new KubectlError('podlife: kubectl replace --raw and --subresource are not supported by this simulation');
  const mode = dryRun(p);
  if (force && mode !== 'none') throw new KubectlError('--dry-run can not be used when --force is set');
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation');
  const fieldValidation = validationDirective(p);
  if (force) return forceReplace(p, ctx, stdin, fieldValidation);
  const format = objectsOnlyOutput(p, fileReader(ctx));
  const { writes, errors } = sendManifests(p, ctx, stdin, 'replacing', 'replaced', format, mode === 'client', (m, obj) => m.kind === 'Pod'
    ? submit(ctx, { type: 'patch', kind: 'Pod', namespace: m.namespace, name: m.name, patchType: 'put', patch: obj, fieldValidation })
    : submit(ctx, { type: 'config', verb: 'patch', kind: m.kind, namespace: m.namespace, name: m.name, patchType: 'put', patch: obj, fieldValidation }));
  return fromWrites([...writes, [2, errors.text()]], errors.size ? 1 : 0);
}

/**
 * `kubectl replace --force`: every object of the files deleted (as `kubectl delete` would, with --grace-period; one
 * that is not there is skipped), then, once each is gone, created from its file. A pod goes when the kubelet has
 * stopped it, so kubectl waits: the model's client waits on the virtual clock (the createWhenGone action), and the
 * timeline does not wait for it. A pod with finalizers is refused: it goes only when they are removed, which kubectl
 * would wait for up to --timeout (5 minutes) and a transcript cannot show.
 */
// upstream: replace.go (*ReplaceOptions).forceReplace; Complete (--grace-period=0 becomes 1; IgnoreNotFound)
function forceReplace(p: ParsedArgs, ctx: ExecContext, stdin: string, fieldValidation: FieldValidation): CommandResult {
  let grace = int(p, 'grace-period', -1);
  if (grace === 0) grace = 1;
  const timeoutMs = p.flags.has('timeout') ? duration(p, 'timeout', 0) : 0;
  const format = objectsOnlyOutput(p, fileReader(ctx));
  const all = [...manifests(p, ctx, stdin, 'replacing', { kinds: MANIFEST_KINDS })];
  const errors = new VisitErrors();
  for (const m of all) if (typeof m === 'string') errors.add(m);
  if (errors.size) return fromWrites([[2, errors.text()]], 1);
  const objects = all as Manifest[];
  // the transcript prints what kubectl prints once it is done: a pod that may outlast the wait is refused
  const waitMs = timeoutMs || 300_000;
  for (const m of objects) {
    const live = m.kind === 'Pod' ? podsIn(ctx, m.namespace).find((x) => x.metadata.name === m.name) : undefined;
    if (live?.metadata.finalizers?.length) {
      throw new KubectlError(`podlife: pod ${JSON.stringify(m.name)} has finalizers (${live.metadata.finalizers.join(', ')}): kubectl replace --force would wait up to --timeout (${formatGoDuration(waitMs)}) for them to be removed, which a transcript cannot show; remove them first, or kubectl delete and kubectl create -f`);
    }
    // its grace period, and a few seconds for the kubelet to see the deletion and report the pod stopped
    const graceS = grace >= 0 ? grace : live?.spec.terminationGracePeriodSeconds ?? 30;
    if (live?.spec.nodeName && graceS * 1000 + 5000 > waitMs) {
      throw new KubectlError(`podlife: pod ${JSON.stringify(m.name)} may take its grace period (${graceS}s) to stop, longer than --timeout (${formatGoDuration(waitMs)}): whether kubectl replace --force times out is more than a transcript can tell; give a longer --timeout`);
    }
  }
  let stdout = '';
  // DeleteResult: each object deleted in turn (one not found is skipped)
  for (const m of objects) {
    const r = m.kind === 'Pod'
      ? submit(ctx, { type: 'delete', kind: 'Pod', namespace: m.namespace, name: m.name, ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}) })
      : submit(ctx, { type: 'config', verb: 'delete', kind: m.kind, namespace: m.namespace, name: m.name });
    if (r.ok) stdout += `${singular[MANIFEST_RESOURCE[m.kind]]} "${m.name}" deleted from ${m.namespace} namespace\n`;
    else if (r.status.reason !== 'NotFound') errors.add(sourceError(r.status, 'deleting', m.source));
  }
  if (errors.size) return fromWrites([[1, stdout], [2, errors.text()]], 1);
  // then each created once it is gone
  let count = 0;
  for (const m of objects) {
    const obj = { ...m.obj, metadata: { ...(m.obj.metadata as Record<string, unknown>), namespace: m.namespace } };
    const r = m.kind === 'Pod'
      ? submit(ctx, { type: 'createWhenGone', namespace: m.namespace, name: m.name, obj, fieldValidation, ...(timeoutMs > 0 ? { timeoutMs } : {}) })
      : submit(ctx, { type: 'config', verb: 'create', namespace: m.namespace, obj, fieldValidation });
    if (!r.ok) {
      errors.add(r.status);
      return fromWrites([[1, stdout], [2, errors.text()]], 1);
    }
    stdout += manifestPrinted(m, r.object, format, ++count, 'replaced');
  }
  return fromWrites([[1, stdout]], 0);
}

// ---------------------------------------------------------------------------------------------
// kubectl delete
// ---------------------------------------------------------------------------------------------

export const DELETE_FLAGS: FlagSpec[] = [
  ...FILENAME_FLAGS,
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'field-selector', type: 'string' },
  { name: 'all', type: 'bool' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'force', type: 'bool' },
  { name: 'cascade', type: 'string', noOptDefault: 'background' },
  { name: 'now', type: 'bool' },
  { name: 'grace-period', type: 'int' },
  { name: 'timeout', type: 'duration' },
  { name: 'ignore-not-found', type: 'bool' },
  { name: 'wait', type: 'bool' },
  { name: 'output', shorthand: 'o', type: 'string' },
  { name: 'raw', type: 'string' },
  { name: 'interactive', shorthand: 'i', type: 'bool' },
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
];

export function kubectlDelete(p: ParsedArgs, ctx: ExecContext, stdin: string): CommandResult {
  if (bool(p, 'interactive')) throw new KubectlError('podlife: kubectl delete -i asks on a terminal, which a transcript does not have; delete without -i');
  const fromFiles = arr(p, 'filename').length > 0 || str(p, 'kustomize') !== '';
  if (p.args.length === 0 && !fromFiles) throw new KubectlError(MISSING_RESOURCE);
  const output = str(p, 'output');
  if (output !== '' && output !== 'name') throw new KubectlError(`unexpected -o output mode: ${output}. We only support '-o name'`);
  let grace = int(p, 'grace-period', -1);
  const force = bool(p, 'force');
  if (bool(p, 'now')) {
    if (grace !== -1) throw new KubectlError('--now and --grace-period cannot be specified together');
    grace = 1;
  }
  // kubectl turns --grace-period=0 into 1 unless --force is given, and --force alone into 0.
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  // the warning comes first (RunDelete prints it before it deletes); errors come after the deletions
  let warning = '';
  if (grace === 0 && force) {
    warning =
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
  } else if (grace > 0 && force) {
    throw new KubectlError('--force and --grace-period greater than 0 cannot be specified together');
  }
  const mode = dryRun(p);
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation');
  // each type in turn (`delete all` is pods, then services), or the objects of the files: the cluster's services are
  // fixed, so they can be deleted only in a client-side dry run
  const targets = fromFiles ? filedTargets(p, ctx, stdin) : namedTargets(p, ctx);
  if (targets.length === 0) return fromWrites([[2, warning], [1, 'No resources found\n']], 0);
  let stdout = '';
  const errors = new VisitErrors();
  const operation = (namespace: string) => `${grace === 0 ? 'force deleted' : 'deleted'} from ${namespace} namespace${mode === 'client' ? ' (dry run)' : ''}`;
  for (const t of targets) {
    if (typeof t === 'string') {
      errors.add(t);
      continue;
    }
    const { kind, name, namespace, source } = t;
    const one = singular[kind];
    // --dry-run=client: nothing is sent, and a name is not looked up (the builder's RequireObject(false)): every
    // name is printed, found or not
    if (mode === 'client') {
      stdout += output === 'name' ? `${one}/${name}\n` : `${one} "${name}" ${operation(namespace)}\n`;
      continue;
    }
    if (kind === 'services') {
      const exists = servicesIn(ctx, namespace).some((x) => x.metadata.name === name);
      if (!exists && bool(p, 'ignore-not-found')) continue;
      errors.add(!exists ? notFoundStatus(kind, name) : `podlife: the cluster's services are fixed and cannot be deleted (service ${JSON.stringify(name)}); --dry-run=client shows what would be sent`);
      continue;
    }
    // a ConfigMap or a Secret goes at once (no graceful deletion: the grace period is the pods')
    const r = kind === 'pods'
      ? submit(ctx, {
        type: 'delete',
        kind: 'Pod',
        namespace,
        name,
        ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}),
        ...(force ? { force: true } : {}),
      })
      : submit(ctx, { type: 'config', verb: 'delete', kind: kind === 'configmaps' ? 'ConfigMap' : 'Secret', namespace, name });
    if (!r.ok) {
      if (r.status.reason === 'NotFound' && bool(p, 'ignore-not-found')) continue;
      // an object read from a file: AddSourceToErr("deleting", ...)
      errors.add(source === undefined ? r.status : sourceError(r.status, 'deleting', source));
      continue;
    }
    stdout += output === 'name' ? `${one}/${name}\n` : `${one} "${name}" ${operation(namespace)}\n`;
  }
  return fromWrites([[2, warning], [1, stdout], [2, errors.text()]], errors.size ? 1 : 0);
}

type Deletable = 'pods' | 'services' | 'configmaps' | 'secrets';

interface DeleteTarget {
  kind: Deletable;
  name: string;
  namespace: string;
  /** The file the object was read from (-f). */
  source?: string;
}

/** `delete TYPE NAME...`, `delete TYPE -l ...|--all`: the names, each type in turn. */
function namedTargets(p: ParsedArgs, ctx: ExecContext): DeleteTarget[] {
  const groups = typeGroups(p.args);
  for (const { kind } of groups) {
    if (kind !== 'pods' && kind !== 'services' && kind !== 'configmaps' && kind !== 'secrets') {
      throw new KubectlError(`podlife: deleting ${kind} is not supported (delete pods, configmaps or secrets)`);
    }
  }
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  return groups.flatMap(({ kind, names }) => {
    const k = kind as Deletable;
    if (names.length > 0) return names.map((name) => ({ kind: k, name, namespace }));
    if (!bool(p, 'all') && !str(p, 'selector')) throw new KubectlError('resource(s) were provided, but no name was specified');
    const all: (Pod | Service | ConfigObject)[] = k === 'pods' ? podsIn(ctx, namespace)
      : k === 'services' ? servicesIn(ctx, namespace)
      : k === 'configmaps' ? configMapsIn(ctx, namespace)
      : secretsIn(ctx, namespace);
    return select(all, k, str(p, 'selector')).map((x) => ({ kind: k, name: x.metadata.name, namespace }));
  });
}

/** `delete -f FILE`: the pods of the files (not looked up first: RequireObject(false)), or an object's error. */
function filedTargets(p: ParsedArgs, ctx: ExecContext, stdin: string): (DeleteTarget | string)[] {
  if (p.args.length > 0) throw new KubectlError('when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well');
  requireFilenames(p);
  return [...manifests(p, ctx, stdin, 'deleting', { kinds: MANIFEST_KINDS })].map((m) =>
    typeof m === 'string' ? m : { kind: MANIFEST_RESOURCE[m.kind] as Deletable, name: m.name, namespace: m.namespace, source: m.source },
  );
}

// ---------------------------------------------------------------------------------------------
// kubectl patch
// ---------------------------------------------------------------------------------------------

export const PATCH_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  { name: 'patch', shorthand: 'p', type: 'string' },
  { name: 'patch-file', type: 'string' },
  { name: 'type', type: 'string' },
  { name: 'local', type: 'bool' },
  { name: 'subresource', type: 'string' },
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'field-manager', type: 'string' },
  ...FILENAME_FLAGS,
];

export function kubectlPatch(p: ParsedArgs, ctx: ExecContext): CommandResult {
  if (bool(p, 'local')) throw new KubectlError('podlife: kubectl patch --local (a file patched without the server) is not supported by this simulation');
  // upstream: patch.go Validate, then RunPatch reads the file before anything else
  const inline = str(p, 'patch');
  const patchFile = str(p, 'patch-file');
  if (inline && patchFile) throw new KubectlError('cannot specify --patch and --patch-file together');
  if (!inline && !patchFile) {
    throw new KubectlError('must specify --patch or --patch-file containing the contents of the patch');
  }
  const type = str(p, 'type', 'strategic');
  if (!['json', 'merge', 'strategic'].includes(type)) {
    throw new KubectlError(`--type must be one of [json merge strategic], not ${JSON.stringify(type)}`);
  }
  let patchText = inline;
  if (patchFile) {
    const read = fileReader(ctx);
    if (!read) throw new KubectlError("podlife: --patch-file reads a file, which this console has none of (give the patch inline: -p '...')");
    const text = read(patchFile);
    if (text === undefined) throw new KubectlError(`unable to read patch file: open ${patchFile}: no such file or directory`);
    patchText = text;
  }
  if (p.args.length === 0) {
    throw new KubectlError(MISSING_RESOURCE);
  }
  const { kind, names } = typeAndNames(p.args)!;
  if (kind !== 'pods' && kind !== 'nodes' && kind !== 'configmaps' && kind !== 'secrets') {
    throw new KubectlError(`podlife: patching ${kind} is not supported (patch pods, nodes, configmaps or secrets)`);
  }
  if (names.length !== 1) throw new KubectlError('resource(s) were provided, but no name was specified');
  let patch: unknown;
  try {
    const doc = parseAllDocuments(patchText)[0];
    if (!doc || doc.errors.length > 0) throw new Error(doc?.errors[0]?.message.split('\n')[0] ?? 'empty patch');
    patch = doc.toJS();
  } catch (e) {
    // the message quotes -p's text, empty when the patch came from a file
    throw new KubectlError(`unable to parse ${JSON.stringify(inline)}: yaml: ${(e as Error).message}`);
  }
  const mode = dryRun(p);
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation');
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  const name = names[0];
  const shown = `${singular[kind]}/${name}`;
  // pods serve the status and resize subresources, nodes the status one; kubectl GETs the object through the
  // subresource first
  const subresource = str(p, 'subresource');
  const config = kind === 'configmaps' || kind === 'secrets';
  if (subresource === 'status' && !config) throw new KubectlError(`podlife: patching the status subresource is not supported (the ${kind === 'pods' ? 'kubelet' : 'node\'s kubelet'} owns the status)`);
  if (subresource && (subresource !== 'resize' || kind !== 'pods')) return out('', 'Error from server (NotFound): the server could not find the requested resource\n', 1);
  const patchType = type as PatchType;
  const format = objectOutput(p, fileReader(ctx));
  if (mode === 'client') {
    // --dry-run=client: the object as fetched, patched locally (getPatchedJSON), nothing sent; the line says
    // "patched" without "(dry run)", as ToPrinter's operation replaces the one PrintFlagsWithDryRunStrategy completed
    const live: { metadata: { name: string } }[] = kind === 'pods' ? podsIn(ctx, namespace) : kind === 'nodes' ? nodesIn(ctx) : kind === 'configmaps' ? configMapsIn(ctx, namespace) : secretsIn(ctx, namespace);
    const current = live.find((x) => x.metadata.name === name);
    if (!current) return out('', notFound(kind, name), 1);
    const next = patchedLocally(current, patchType, patch);
    if (format && format.kind !== 'table') return out(printObject(next, format, shown));
    return out(`${shown} patched${deepEqual(next, current) ? ' (no change)' : ''}\n`);
  }
  const r = kind === 'pods'
    ? submit(ctx, { type: 'patch', kind: 'Pod', namespace, name, patchType, patch, ...(subresource ? { subresource: 'resize' as const } : {}) })
    : config
      ? submit(ctx, { type: 'config', verb: 'patch', kind: kind === 'configmaps' ? 'ConfigMap' : 'Secret', namespace, name, patchType, patch })
      : submit(ctx, { type: 'patch', kind: 'Node', name, patchType, patch });
  if (!r.ok) return out('', r.status.reason === 'NotFound' ? notFound(kind, name) : apiErrorText(r.status), 1);
  // the server's warnings (unknown fields it dropped) come with its answer, before kubectl prints the result
  const printedResult = format && format.kind !== 'table' ? printObject(r.object, format, shown) : `${shown} patched${r.unchanged ? ' (no change)' : ''}\n`;
  return fromWrites([[2, warningText(r)], [1, printedResult]], 0);
}

/**
 * kubectl's own patching of a fetched object (--dry-run=client), with the libraries' errors: a merge patch that is
 * not an object is json-patch's ErrBadJSONPatch (an array replaces the document, which then does not decode), a
 * strategic one strategicpatch's ErrBadJSONDoc; null changes nothing but for a merge patch.
 * upstream: staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go getPatchedJSON (checked against kubectl v1.32's
 * `kubectl patch --local`)
 */
function patchedLocally(current: unknown, patchType: PatchType, patch: unknown): unknown {
  const isMap = isJsonObject(patch);
  if (patchType === 'merge' && !isMap) {
    throw new KubectlError(Array.isArray(patch) ? 'json: cannot unmarshal array into Go value of type unstructured.detector' : 'Invalid JSON Patch');
  }
  if (patchType === 'strategic' && !isMap && patch !== null) throw new KubectlError('invalid JSON document');
  try {
    return patchType === 'json'
      ? jsonPatch(current, patch)
      : patchType === 'merge' ? mergePatch(current as never, patch as never) : strategicMergePatch(current as never, (patch ?? {}) as never);
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    // getPatchedJSON rewords json-patch's "doc is missing key" ("This is pretty hacky")
    const at = e.message.indexOf('key:');
    throw new KubectlError(patchType === 'json' && e.message.includes('doc is missing key') ? `Object to be patched is missing field (${e.message.slice(at + 5)})` : e.message);
  }
}
