// `kubectl describe` and `kubectl logs`.
// upstream: k8s.io/kubectl/pkg/cmd/describe/describe.go; pkg/cmd/logs/logs.go; the kubelet's
// validateContainerLogStatus (pkg/kubelet/kubelet_pods.go) for the "waiting to start" errors.

import type { ContainerStatus, Node, Pod } from '../../types.ts';
import { describeNamespace, describePod } from '../../render/describe.ts';
import { type Namespace, clusterNamespaces } from '../../api/namespaces.ts';
import { describeNode } from '../../render/describe-node.ts';
import { rfc3339NanoLocal } from '../../render/clock.ts';
import { leaseRenewTime } from '../../kubelet/lease.ts';
import { parseGoDuration } from '../../render/duration.ts';
import { type FlagSpec, type ParsedArgs, bool, int, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { type ExecContext, nowOf, offsetOf } from '../context.ts';
import { KubectlError, byKey, clusterScoped, namespaceOf, notFound, out, podsIn, typeAndNames } from './common.ts';
import { filterByLabels } from './selectors.ts';

export const DESCRIBE_FLAGS: FlagSpec[] = [
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'show-events', type: 'bool' },
  { name: 'chunk-size', type: 'int' },
  { name: 'filename', shorthand: 'f', type: 'stringArray' },
  { name: 'kustomize', shorthand: 'k', type: 'string' },
  { name: 'recursive', shorthand: 'R', type: 'bool' },
];

export function kubectlDescribe(p: ParsedArgs, ctx: ExecContext): CommandResult {
  if (p.args.length === 0) {
    throw new KubectlError(
      'You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  }
  const { kind, names } = typeAndNames(p.args)!;
  if (kind === 'events') throw new KubectlError('podlife: describing events is not supported (describe pods, nodes or namespaces)');
  const allNamespaces = bool(p, 'all-namespaces');
  const namespace = clusterScoped(kind) || allNamespaces ? undefined : namespaceOf(ctx, str(p, 'namespace'));
  const all: (Pod | Node | Namespace)[] =
    kind === 'nodes' ? [...ctx.state.nodes].sort((a, b) => byKey(a.metadata.name, b.metadata.name))
    : kind === 'namespaces' ? clusterNamespaces(ctx.state.nodes)
    : podsIn(ctx, namespace);
  const objects = filterByLabels(all, str(p, 'selector'));
  let chosen: (Pod | Node | Namespace)[] = [];
  let errors = '';
  if (names.length === 0) chosen = objects;
  for (const name of names) {
    // An exact name, or else every object whose name starts with it (describe's NAME_PREFIX).
    const exact = objects.filter((x) => x.metadata.name === name);
    const found = exact.length > 0 ? exact : objects.filter((x) => x.metadata.name.startsWith(name));
    if (found.length === 0) errors += notFound(kind, name);
    chosen.push(...found);
  }
  if (chosen.length === 0 && names.length === 0) {
    return out('', namespace === undefined ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`);
  }
  const now = nowOf(ctx);
  const showEvents = bool(p, 'show-events', true);
  const texts = chosen.map((o) =>
    o.kind === 'Node'
      ? describeNode(o, { now, utcOffsetMinutes: offsetOf(ctx), pods: podsIn(ctx, undefined), events: ctx.state.events, leaseRenewTime: leaseRenewTime(o, now), showEvents })
      : o.kind === 'Namespace'
        ? describeNamespace(o)
        : describePod(o, { now, utcOffsetMinutes: offsetOf(ctx), events: ctx.state.events, showEvents }),
  );
  return out(texts.join('\n\n'), errors, errors ? 1 : 0);
}


export const LOGS_FLAGS: FlagSpec[] = [
  { name: 'container', shorthand: 'c', type: 'string' },
  { name: 'previous', shorthand: 'p', type: 'bool' },
  { name: 'tail', type: 'int' },
  { name: 'timestamps', type: 'bool' },
  { name: 'follow', shorthand: 'f', type: 'bool' },
  { name: 'since', type: 'string' },
  { name: 'since-time', type: 'string' },
  { name: 'all-containers', type: 'bool' },
  { name: 'limit-bytes', type: 'int' },
  { name: 'prefix', type: 'bool' },
  { name: 'pod-running-timeout', type: 'string' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'max-log-requests', type: 'int' },
  { name: 'ignore-errors', type: 'bool' },
  { name: 'insecure-skip-tls-verify-backend', type: 'bool' },
];

const badRequest = (msg: string) => new KubectlError(`Error from server (BadRequest): ${msg}`);

export function kubectlLogs(p: ParsedArgs, ctx: ExecContext): CommandResult {
  if (p.args.length === 0 || p.args.length > 2) {
    throw new KubectlError(
      "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command",
      'logs',
    );
  }
  let podName = p.args[0];
  if (podName.includes('/')) {
    const [type, name] = podName.split('/', 2);
    if (!['pod', 'pods', 'po'].includes(type)) throw new KubectlError(`podlife: logs of ${type} are not supported (logs of pods are)`);
    podName = name;
  }
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  const pod = podsIn(ctx, namespace).find((x) => x.metadata.name === podName);
  if (!pod) return out('', notFound('pods', podName), 1);
  let stderr = '';
  let container = str(p, 'container') || p.args[1] || '';
  const ephemeral = pod.spec.ephemeralContainers ?? [];
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...ephemeral];
  if (!container) {
    const dflt = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
    container = dflt ?? pod.spec.containers[0].name;
    // upstream: polymorphichelpers/logsforobject.go (v0.36.2 L110), podcmd.AllContainerNames
    if (!dflt && (pod.spec.containers.length > 1 || all.length > pod.spec.containers.length)) {
      const names = [
        ...pod.spec.containers.map((c) => c.name), ...ephemeral.map((c) => `${c.name} (ephem)`),
        ...(pod.spec.initContainers ?? []).map((c) => `${c.name} (init)`),
      ];
      stderr += `Defaulted container ${JSON.stringify(container)} out of: ${names.join(', ')}\n`;
    }
  }
  if (!all.some((c) => c.name === container)) {
    throw badRequest(
      `container ${container} is not valid for pod ${podName}`,
    );
  }
  if (!pod.spec.nodeName) return out('', stderr);
  const statuses = [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? []), ...(pod.status.ephemeralContainerStatuses ?? [])];
  const status = statuses.find((s) => s.name === container);
  const id = containerIdForLogs(podName, container, status, bool(p, 'previous'));
  const raw = id.replace(/^\w+:\/\//, '');
  let lines = ctx.state.containerLogs.filter((l) => l.containerId === raw && l.t <= ctx.state.t);
  const since = str(p, 'since');
  if (since) {
    const d = parseGoDuration(since);
    if (!d.ok) throw new KubectlError(`invalid argument ${JSON.stringify(since)} for "--since" flag: ${d.error}`);
    lines = lines.filter((l) => l.t >= ctx.state.t - d.ms);
  }
  if (str(p, 'since-time')) throw new KubectlError('podlife: --since-time is not supported; use --since');
  // -f prints what is there now: a recorded moment has no future to follow.
  const tail = int(p, 'tail', -1);
  if (tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
  const ts = bool(p, 'timestamps');
  const text = lines
    // The container runtime's log file stamps each line in UTC with nanoseconds.
    .map((l) => `${ts ? `${rfc3339NanoLocal(ctx.state.epoch + l.t, 0)} ` : ''}${l.text}\n`)
    .join('');
  return out(text, stderr);
}

/** upstream: pkg/kubelet/kubelet_pods.go validateContainerLogStatus */
function containerIdForLogs(
  podName: string,
  name: string,
  status: ContainerStatus | undefined,
  previous: boolean,
): string {
  const q = JSON.stringify;
  if (!status) throw badRequest(`container ${q(name)} in pod ${q(podName)} is waiting to start: ContainerCreating`);
  const { waiting, running, terminated } = status.state;
  const lastTerminated = status.lastState?.terminated;
  if (previous) {
    if (!lastTerminated?.containerID) throw badRequest(`previous terminated container ${q(name)} in pod ${q(podName)} not found`);
    return lastTerminated.containerID;
  }
  if (running) return status.containerID ?? '';
  if (terminated) {
    if (terminated.containerID) return terminated.containerID;
    if (lastTerminated?.containerID) return lastTerminated.containerID;
    throw badRequest(`container ${q(name)} in pod ${q(podName)} is terminated`);
  }
  if (lastTerminated) {
    if (!lastTerminated.containerID) throw badRequest(`container ${q(name)} in pod ${q(podName)} is terminated`);
    return lastTerminated.containerID;
  }
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') throw badRequest(`container ${q(name)} in pod ${q(podName)} is waiting to start: image can't be pulled`);
    if (waiting.reason === 'ImagePullBackOff') throw badRequest(`container ${q(name)} in pod ${q(podName)} is waiting to start: trying and failing to pull image`);
    throw badRequest(`container ${q(name)} in pod ${q(podName)} is waiting to start: ${waiting.reason ?? ''}`);
  }
  throw badRequest(`container ${q(name)} in pod ${q(podName)} is waiting to start - no logs yet`);
}
