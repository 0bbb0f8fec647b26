// kubectl's shared plumbing: global flags, resource type names, and how errors print
// (k8s.io/kubectl/pkg/cmd/util/helpers.go CheckErr / StandardErrorMessage / MultilineError).

import type { ApiStatus, ClusterAction, ConfigAction, ConfigObject, ApplyResult, KubeEvent, Node, NodePatchAction, Pod } from '../../types.ts';
import type { FlagSpec } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import type { ExecContext } from '../context.ts';
import { type Service, clusterServices } from '../../api/services.ts';
import { clusterConfigMaps, clusterSecrets } from '../../api/namespaces.ts';

/** genericclioptions.FileNameFlags: the -f, -k and -R of every command that reads objects from files. */
export const FILENAME_FLAGS: FlagSpec[] = [
  { name: 'filename', shorthand: 'f', type: 'stringArray' },
  { name: 'kustomize', shorthand: 'k', type: 'string' },
  { name: 'recursive', shorthand: 'R', type: 'bool' },
];

/** Global flags every kubectl command accepts (k8s.io/cli-runtime genericclioptions.ConfigFlags). */
export const GLOBAL_FLAGS: FlagSpec[] = [
  { name: 'namespace', shorthand: 'n', type: 'string' },
  { name: 'kubeconfig', type: 'string' },
  { name: 'context', type: 'string' },
  { name: 'cluster', type: 'string' },
  { name: 'user', type: 'string' },
  { name: 'server', shorthand: 's', type: 'string' },
  { name: 'request-timeout', type: 'string' },
  { name: 'v', shorthand: 'v', type: 'int' },
  { name: 'insecure-skip-tls-verify', type: 'bool' },
  { name: 'token', type: 'string' },
  { name: 'as', type: 'string' },
  { name: 'as-group', type: 'stringArray' },
  { name: 'as-uid', type: 'string' },
  { name: 'certificate-authority', type: 'string' },
  { name: 'client-certificate', type: 'string' },
  { name: 'client-key', type: 'string' },
  { name: 'tls-server-name', type: 'string' },
  { name: 'cache-dir', type: 'string' },
  { name: 'match-server-version', type: 'bool' },
  { name: 'warnings-as-errors', type: 'bool' },
  { name: 'disable-compression', type: 'bool' },
  { name: 'password', type: 'string' },
  { name: 'username', type: 'string' },
  { name: 'profile', type: 'string' },
  { name: 'profile-output', type: 'string' },
  { name: 'log-flush-frequency', type: 'string' },
  { name: 'kuberc', type: 'string' },
  { name: 'help', shorthand: 'h', type: 'bool' },
];

/** A failure kubectl reports through CheckErr (stderr, exit code 1). */
export class KubectlError extends Error {
  /** Set for cmdutil.UsageErrorf: adds "See 'kubectl <verb> -h' for help and examples". */
  readonly usageOf?: string;
  /** What the command wrote to stdout before it failed (a Go template's output and its debugging text). */
  stdout = '';
  constructor(message: string, usageOf?: string) {
    super(message);
    this.usageOf = usageOf;
  }
}

/** The text CheckErr prints for an error message (adds "error: " unless already there). */
export function errorText(err: KubectlError): string {
  const bare = err.message.startsWith('error: ') || err.message.startsWith('Error from server');
  const msg = bare ? err.message : `error: ${err.message}`;
  const usage = err.usageOf ? `\nSee 'kubectl ${err.usageOf} -h' for help and examples` : '';
  const text = `${msg}${usage}`;
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** How kubectl prints an API error (StandardErrorMessage, or the Invalid special case). */
export function apiErrorText(status: ApiStatus): string {
  if (status.reason === 'Invalid') {
    // upstream: kubectl/pkg/cmd/util/helpers.go checkErr: the server's message follows when nothing else says more
    // (no details, or details without kind, name and causes: the generic 422 of a patch that does not apply)
    const d = status.details;
    const causes = d?.causes ?? [];
    const named = d !== undefined && Boolean(d.kind || d.name);
    const prefix = named ? `The ${d!.kind ?? ''} ${JSON.stringify(d!.name ?? '')} is invalid` : 'The request is invalid';
    if (!named && causes.length === 0) return status.message ? `${prefix}: ${status.message}\n` : `${prefix}\n`;
    if (causes.length === 0) return `${prefix}\n`;
    const text = (c: { field: string; message: string }) => (c.field ? `${c.field}: ${c.message}` : c.message);
    if (causes.length === 1) return `${prefix}: ${text(causes[0])}\n`;
    return `${prefix}: \n${causes.map((c) => `* ${text(c)}\n`).join('')}`;
  }
  return status.reason ? `Error from server (${status.reason}): ${status.message}\n` : `Error from server: ${status.message}\n`;
}

/**
 * The errors of a visit that goes on after an error (the builder's ContinueOnError), printed as CheckErr prints their
 * aggregate: one alone as that error (errorText, apiErrorText); several one per line (MultipleErrors), a Status as
 * StandardErrorMessage ("Error from server (Reason): message", an Invalid one too) and anything else as its bare text.
 * An entry is the server's Status, or the text of a client-side error.
 */
// upstream: kubectl pkg/cmd/util/helpers.go checkErr, MultipleErrors, StandardErrorMessage
export class VisitErrors {
  readonly #errors: (ApiStatus | string)[] = [];

  add(error: ApiStatus | string): void {
    this.#errors.push(error);
  }

  get size(): number {
    return this.#errors.length;
  }

  text(): string {
    const errs = this.#errors;
    if (errs.length === 1) return typeof errs[0] === 'string' ? errorText(new KubectlError(errs[0])) : apiErrorText(errs[0]);
    return errs.map((e) => (typeof e === 'string' ? `${e}\n` : e.reason ? `Error from server (${e.reason}): ${e.message}\n` : `Error from server: ${e.message}\n`)).join('');
  }
}

export function notFound(kind: ResourceKind, name: string): string {
  return `Error from server (NotFound): ${kind} ${JSON.stringify(name)} not found\n`;
}

export const out = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });

export type ResourceKind = 'pods' | 'events' | 'nodes' | 'namespaces' | 'services' | 'configmaps' | 'secrets';

const ALIASES: Record<string, ResourceKind> = {
  pod: 'pods', pods: 'pods', po: 'pods',
  event: 'events', events: 'events', ev: 'events',
  node: 'nodes', nodes: 'nodes', no: 'nodes',
  namespace: 'namespaces', namespaces: 'namespaces', ns: 'namespaces',
  service: 'services', services: 'services', svc: 'services',
  configmap: 'configmaps', configmaps: 'configmaps', cm: 'configmaps',
  secret: 'secrets', secrets: 'secrets',
};

/** Kinds that live outside any namespace. */
export const clusterScoped = (kind: ResourceKind): boolean => kind === 'nodes' || kind === 'namespaces';

/** Resource types a real cluster serves that this simulation does not model. */
const UNMODELLED = new Set([
  'deployment', 'deployments', 'deploy', 'replicaset', 'replicasets', 'rs', 'daemonset', 'daemonsets', 'ds',
  'statefulset', 'statefulsets', 'sts', 'job', 'jobs', 'cronjob', 'cronjobs', 'cj', 'serviceaccount', 'serviceaccounts',
  'sa', 'endpoints', 'ep', 'persistentvolumeclaims', 'pvc', 'persistentvolumes', 'pv', 'ingress', 'ingresses', 'ing',
]);

/**
 * Categories: a name that stands for every resource whose discovery lists it. Of the resources modelled here, pods
 * and services are in "all", in discovery's order (`podlife serve` says so too); a real cluster's "all" also has
 * deployments and the other workloads, which this simulation does not model.
 */
// upstream: k8s.io/cli-runtime/pkg/resource/builder.go replaceAliases (categoryExpander.Expand), exact names only
const CATEGORIES: Record<string, ResourceKind[]> = { all: ['pods', 'services'] };

export function resolveKind(type: string): ResourceKind {
  const t = type.toLowerCase().split('.')[0];
  const kind = ALIASES[t];
  if (kind) return kind;
  if (UNMODELLED.has(t)) {
    throw new KubectlError(`podlife: "${type}" is not modelled by this simulation (it models pods, events, nodes, namespaces, configmaps, secrets and the cluster's two services)`);
  }
  throw new KubectlError(`the server doesn't have a resource type ${JSON.stringify(type)}`);
}

/** The resource builder's error when no resource is named (builder.go missingResourceError). */
export const MISSING_RESOURCE =
  "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/** Singular kind name as kubectl prints it ("pod/nginx"). */
export const singular: Record<ResourceKind, string> = {
  pods: 'pod', events: 'event', nodes: 'node', namespaces: 'namespace', services: 'service', configmaps: 'configmap', secrets: 'secret',
};

const RESOURCE_NAME_FORM =
  "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

/**
 * Split `TYPE[,TYPE...] NAME...` or `TYPE/NAME...` arguments into the resource types asked for, in order, each with
 * its names (none: all of that type). A type named twice (`pods,po`) counts once; in resource/name form, consecutive
 * names of one type form one group, as the builder's infos do.
 */
// upstream: k8s.io/cli-runtime/pkg/resource/builder.go ResourceTypeOrNameArgs, normalizeMultipleResourcesArgs,
// visitByName, resourceTupleMappings
export function typeGroups(args: string[]): { kind: ResourceKind; names: string[] }[] {
  if (args.length === 0) return [];
  if (args[0].includes('/')) {
    const groups: { kind: ResourceKind; names: string[] }[] = [];
    for (const a of args) {
      const slash = a.indexOf('/');
      if (slash < 0) throw new KubectlError(RESOURCE_NAME_FORM);
      const kind = resolveKind(a.slice(0, slash));
      const last = groups[groups.length - 1];
      if (last?.kind === kind) last.names.push(a.slice(slash + 1));
      else groups.push({ kind, names: [a.slice(slash + 1)] });
    }
    return groups;
  }
  if (args.slice(1).some((a) => a.includes('/'))) throw new KubectlError(RESOURCE_NAME_FORM);
  const names = args.slice(1);
  // with names, a list of types is their cross product in resource/name form (normalizeMultipleResourcesArgs), where a
  // category is not a type; a category alone stands for its types, and names need exactly one (visitByName)
  const types = args[0].split(',');
  if (names.length > 0 && types.length === 1 && Object.hasOwn(CATEGORIES, types[0]) && CATEGORIES[types[0]].length > 1) {
    throw new KubectlError('you must specify only one resource');
  }
  const kinds: ResourceKind[] = [];
  for (const t of types) {
    const expand = Object.hasOwn(CATEGORIES, t) && (names.length === 0 || types.length === 1);
    for (const kind of expand ? CATEGORIES[t] : [resolveKind(t)]) if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds.map((kind) => ({ kind, names }));
}

/**
 * The builder's refusals of names it cannot look up: beside a label or field selector (visitBySelector), or across
 * all namespaces for a namespaced type (visitByName, visitByResource).
 */
// upstream: k8s.io/cli-runtime/pkg/resource/builder.go visitorResult, visitBySelector, visitByName
export function checkNames(groups: { kind: ResourceKind; names: string[] }[], o: { selector: string; fieldSelector?: string; allNamespaces: boolean }): void {
  const named = groups.filter((g) => g.names.length > 0);
  if (named.length === 0) return;
  if (o.selector || o.fieldSelector) throw new KubectlError('name cannot be provided when a selector is specified');
  if (o.allNamespaces && named.some((g) => !clusterScoped(g.kind))) throw new KubectlError('a resource cannot be retrieved by name across all namespaces');
}

/** `TYPE NAME...` or `TYPE/NAME...` of one resource type, for the verbs that take one (describe, delete, logs). */
export function typeAndNames(args: string[]): { kind: ResourceKind; names: string[] } | undefined {
  if (args.length === 0) return undefined;
  const groups = typeGroups(args);
  if (groups.length > 1) {
    throw new KubectlError(
      args[0].includes('/') ? 'podlife: mixing resource types in one command is not supported' : 'podlife: listing several resource types at once is not supported',
    );
  }
  return groups[0];
}

export function namespaceOf(ctx: ExecContext, flag: string): string {
  return flag || ctx.namespace || 'default';
}

export function podsIn(ctx: ExecContext, namespace: string | undefined): Pod[] {
  return ctx.state.pods
    .filter((p) => namespace === undefined || (p.metadata.namespace ?? 'default') === namespace)
    .sort((a, b) => byKey(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || byKey(a.metadata.name, b.metadata.name));
}

export const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The events of a namespace (all with undefined), in etcd key order: namespace, then name. */
export function eventsIn(ctx: ExecContext, namespace: string | undefined): KubeEvent[] {
  return ctx.state.events
    .filter((e) => namespace === undefined || (e.metadata.namespace ?? 'default') === namespace)
    .sort((a, b) => byKey(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || byKey(a.metadata.name, b.metadata.name));
}

/** The cluster's services in a namespace (all with undefined), in the API server's order. */
export function servicesIn(ctx: ExecContext, namespace: string | undefined): Service[] {
  return clusterServices(ctx.state.nodes).filter((s) => namespace === undefined || s.metadata.namespace === namespace);
}

/** The ConfigMaps of a namespace (all with undefined), each namespace's kube-root-ca.crt among them, in the API server's order. */
export function configMapsIn(ctx: ExecContext, namespace: string | undefined): ConfigObject[] {
  return clusterConfigMaps(ctx.state, namespace);
}

/** The Secrets of a namespace (all with undefined), in the API server's order. */
export function secretsIn(ctx: ExecContext, namespace: string | undefined): ConfigObject[] {
  return clusterSecrets(ctx.state, namespace);
}

/** The nodes, by name (as the API server lists them). */
export function nodesIn(ctx: ExecContext): Node[] {
  return [...ctx.state.nodes].sort((a, b) => byKey(a.metadata.name, b.metadata.name));
}

/** Submit an action, or fail clearly when this console cannot change the cluster. */
export function submit(ctx: ExecContext, action: NodePatchAction): ApplyResult<Node>;
export function submit(ctx: ExecContext, action: ConfigAction): ApplyResult<ConfigObject>;
export function submit(ctx: ExecContext, action: Exclude<ClusterAction, NodePatchAction | ConfigAction>): ApplyResult;
export function submit(ctx: ExecContext, action: ClusterAction): ApplyResult<Pod | Node | ConfigObject>;
export function submit(ctx: ExecContext, action: ClusterAction): ApplyResult<Pod | Node | ConfigObject> {
  if (!ctx.apply) {
    throw new KubectlError('podlife: this console shows a recorded moment and cannot change the cluster');
  }
  return ctx.apply(action) as ApplyResult<Pod & Node>; // the engine answers a node patch with the node, a config action with its object, else a pod
}

/**
 * The API server's warnings as kubectl prints them on stderr when the response arrives ("Warning: …", each once:
 * client-go's warning writer, deduplicated). upstream: staging/src/k8s.io/client-go/rest/warnings.go
 */
export function warningText(r: ApplyResult<Pod | Node | ConfigObject>, seen = new Set<string>()): string {
  if (!r.ok || !r.warnings) return '';
  let text = '';
  for (const w of r.warnings) {
    if (seen.has(w)) continue;
    seen.add(w);
    text += `Warning: ${w}\n`;
  }
  return text;
}

/** podcmd.AllContainerNames: "app, debugger (ephem), setup (init)". */
export function allContainerNames(pod: Pod): string {
  return [
    ...pod.spec.containers.map((c) => c.name), ...(pod.spec.ephemeralContainers ?? []).map((c) => `${c.name} (ephem)`),
    ...(pod.spec.initContainers ?? []).map((c) => `${c.name} (init)`),
  ].join(', ');
}

/** Whether the pod has a container (init, regular or ephemeral) of this name. */
export const hasContainer = (pod: Pod, name: string): boolean =>
  [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])].some((c) => c.name === name);

/**
 * podcmd.FindOrDefaultContainerByName with no name given: the container the kubectl.kubernetes.io/default-container
 * annotation names, else the first, and what kubectl says about it on stderr (the choice, unless `quiet`).
 */
export function defaultContainer(pod: Pod, quiet: boolean): { container: string; stderr: string } {
  const dflt = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (dflt && hasContainer(pod, dflt)) return { container: dflt, stderr: '' };
  let stderr = dflt ? `Default container name ${JSON.stringify(dflt)} not found in pod ${pod.metadata.name}\n` : '';
  const container = pod.spec.containers[0].name;
  const several = pod.spec.containers.length > 1 || (pod.spec.initContainers ?? []).length > 0 || (pod.spec.ephemeralContainers ?? []).length > 0;
  if (!quiet && several) stderr += `Defaulted container ${JSON.stringify(container)} out of: ${allContainerNames(pod)}\n`;
  return { container, stderr };
}

/** A pod named as POD or TYPE/NAME (pod, pods, po); another type is refused with `refusal(type)`. */
export function podArgument(arg: string, refusal: (type: string) => string): string {
  if (!arg.includes('/')) return arg;
  const [type, name] = arg.split('/', 2);
  if (!['pod', 'pods', 'po'].includes(type)) throw new KubectlError(refusal(type));
  return name;
}
