// `kubectl describe` and `kubectl logs`.
// upstream: k8s.io/kubectl/pkg/cmd/describe/describe.go; pkg/cmd/logs/logs.go; the kubelet's
// validateContainerLogStatus (pkg/kubelet/kubelet_pods.go) for the "waiting to start" errors.

import type { ConfigObject, ContainerStatus, Node, Pod } from '../../types.ts';
import { describeNamespace, describePod, describeService } from '../../render/describe.ts';
import type { Namespace } from '../../api/namespaces.ts';
import type { Service } from '../../api/services.ts';
import { describeNode } from '../../render/describe-node.ts';
import { describeConfigMap, describeSecret } from '../../render/config.ts';
import { logStamps } from '../../render/localtime.ts';
import { leaseRenewTime } from '../../kubelet/lease.ts';
import { parseRFC3339 } from '../gotime.ts';
import { type FlagSpec, type ParsedArgs, bool, duration, int, str } from '../flags.ts';
import { type CommandResult, fromWrites } from '../shell.ts';
import { type ExecContext, nowOf, offsetOf } from '../context.ts';
import { FILENAME_FLAGS, KubectlError, allContainerNames, checkNames, defaultContainer, hasContainer, podArgument, clusterScoped, errorText, namespaceOf, notFound, out, podsIn, typeGroups } from './common.ts';
import { listOf } from './get.ts';
import { select } from './selectors.ts';
import { type Followed, containerStatusOf, followLogs, noFuture, runningContainer } from '../follow.ts';

export const DESCRIBE_FLAGS: FlagSpec[] = [
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'show-events', type: 'bool' },
  { name: 'chunk-size', type: 'int' },
  ...FILENAME_FLAGS,
];

type Described = Pod | Node | Namespace | Service | ConfigObject;

export function kubectlDescribe(p: ParsedArgs, ctx: ExecContext): CommandResult {
  if (p.args.length === 0) {
    throw new KubectlError(
      'You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  }
  // several types (`describe all`, `describe pods,nodes`): each type's objects in turn, as the builder lists them
  const groups = typeGroups(p.args);
  if (groups.some((g) => g.kind === 'events')) throw new KubectlError('podlife: describing events is not supported (describe pods, nodes, namespaces, services, configmaps or secrets)');
  const allNamespaces = bool(p, 'all-namespaces');
  checkNames(groups, { selector: str(p, 'selector'), allNamespaces });
  const listed = groups.map(({ kind }) => {
    const namespace = clusterScoped(kind) || allNamespaces ? undefined : namespaceOf(ctx, str(p, 'namespace'));
    // events were refused above: what is left is pods, nodes, namespaces, services, configmaps or secrets
    return select(listOf(ctx, kind, namespace) as Described[], kind, str(p, 'selector'));
  });
  const chosen: Described[] = [];
  let errors = '';
  groups.forEach(({ kind, names }, i) => {
    if (names.length === 0) chosen.push(...listed[i]);
    for (const name of names) {
      const o = listed[i].find((x) => x.metadata.name === name);
      if (o) chosen.push(o);
      else errors += notFound(kind, name);
    }
  });
  if (chosen.length === 0 && groups.every((g) => g.names.length === 0)) {
    // as get says it: the namespace, unless -A or a cluster-scoped type is among those listed
    const namespaced = !allNamespaces && !groups.some((g) => clusterScoped(g.kind));
    return out('', namespaced ? `No resources found in ${namespaceOf(ctx, str(p, 'namespace'))} namespace.\n` : 'No resources found\n');
  }
  const now = nowOf(ctx);
  // kubectl 1.36: more than one object, or an error (a name not found), and the events are left out, unless
  // --show-events was given (kubectl 1.32–1.35 always showed them)
  // upstream: k8s.io/kubectl/pkg/cmd/describe/describe.go Run (ShowEventsExplicitlySet)
  const several = chosen.length > 1 || errors !== '';
  const showEvents = bool(p, 'show-events', true) && (!several || p.flags.has('show-events'));
  const describe = (o: Described): string => {
    switch (o.kind) {
      case 'Node':
        return describeNode(o, { now, utcOffsetMinutes: offsetOf(ctx), pods: podsIn(ctx, undefined), events: ctx.state.events, leaseRenewTime: leaseRenewTime(o, now), showEvents });
      case 'Namespace':
        return describeNamespace(o);
      case 'Service':
        return describeService(o, showEvents);
      case 'ConfigMap':
        return describeConfigMap(o, { now, events: ctx.state.events, showEvents });
      case 'Secret':
        return describeSecret(o);
      default:
        return describePod(o, { now, utcOffsetMinutes: offsetOf(ctx), events: ctx.state.events, showEvents });
    }
  };
  // `describe TYPE NAME` with NAME not found: every object of the type whose name starts with it, each printed with a
  // newline after it (DescribeMatchingResources, which takes a single type); none, and the not-found error stands
  if (errors && p.args.length === 2 && !p.args[0].includes('/')) {
    if (groups.length > 1) throw new KubectlError('you may only specify a single resource type');
    const prefix = p.args[1];
    const matching = listed.flat().filter((o) => o.metadata.name.startsWith(prefix));
    if (matching.length > 0) return out(matching.map((o) => `${describe(o)}\n`).join(''));
  }
  return out(chosen.map(describe).join('\n\n'), errors, errors ? 1 : 0);
}


export const LOGS_FLAGS: FlagSpec[] = [
  { name: 'container', shorthand: 'c', type: 'string' },
  { name: 'previous', shorthand: 'p', type: 'bool' },
  { name: 'tail', type: 'int' },
  { name: 'timestamps', type: 'bool' },
  { name: 'follow', shorthand: 'f', type: 'bool' },
  { name: 'since', type: 'duration' },
  { name: 'since-time', type: 'string' },
  { name: 'all-containers', type: 'bool' },
  { name: 'all-pods', type: 'bool' },
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
  const selector = str(p, 'selector');
  // upstream: logs.go Complete (the argument forms), Validate
  if ((p.args.length === 0 && !selector) || p.args.length > 2) {
    throw new KubectlError(
      "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command",
      'logs',
    );
  }
  if (p.args.length === 1 && selector) throw new KubectlError('only a selector (-l) or a POD name is allowed', 'logs');
  const allContainers = bool(p, 'all-containers');
  const named = str(p, 'container');
  if (named && p.args.length === 2) throw new KubectlError('only one of -c or an inline [CONTAINER] arg is allowed');
  const asked = named || p.args[1] || '';
  if (allContainers && asked) throw new KubectlError(`--all-containers=true should not be specified with container name ${asked}`);
  const limitBytes = int(p, 'limit-bytes', 0);
  if (limitBytes < 0) throw new KubectlError('--limit-bytes must be greater than 0');
  // a Duration flag: a bad value is pflag's error, with the usage hint
  const sinceMs = p.flags.has('since') ? { ok: true as const, ms: duration(p, 'since', 0) } : undefined;
  // --since-time: parsed as kubectl parses it (RFC 3339, with or without a fraction), sent in whole seconds
  // (metav1.Time's query form); the kubelet keeps the lines stamped at or after it
  const sinceTime = str(p, 'since-time');
  let sinceWall: number | undefined;
  if (sinceTime) {
    const parsed = parseRFC3339(sinceTime);
    if (!parsed.ok) throw new KubectlError(parsed.error);
    sinceWall = Math.floor(parsed.ms / 1000) * 1000;
    if (sinceMs?.ok && sinceMs.ms !== 0) throw new KubectlError('at most one of `sinceTime` or `sinceSeconds` may be specified');
  }
  // a selector shows the last 10 lines of each container unless --tail says otherwise
  const tail = int(p, 'tail', selector ? 10 : -1);
  if (tail < -1) throw new KubectlError('--tail must be greater than or equal to -1');
  const prefix = bool(p, 'prefix') || bool(p, 'all-pods');

  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  let pods: Pod[];
  if (selector) {
    pods = select(podsIn(ctx, namespace), 'pods', selector);
    if (pods.length === 0) return out('', `No resources found in ${namespace} namespace.\n`);
  } else {
    const podName = podArgument(p.args[0], (type) => `podlife: logs of ${type} are not supported (logs of pods are)`);
    const pod = podsIn(ctx, namespace).find((x) => x.metadata.name === podName);
    // logs.go Complete: the builder's NotFound, wrapped
    if (!pod) return out('', `error: error from server (NotFound): pods ${JSON.stringify(podName)} not found in namespace ${JSON.stringify(namespace)}\n`, 1);
    pods = [pod];
  }

  // the log streams to read: (pod, container), in the order logsForObject finds them
  // upstream: polymorphichelpers/logsforobject.go logsForObjectWithClient (v0.36.2)
  let stderr = '';
  const streams: { pod: Pod; container: string }[] = [];
  for (const pod of pods) {
    if (allContainers) {
      for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])]) streams.push({ pod, container: c.name });
      continue;
    }
    let container = asked;
    if (!container) {
      const d = defaultContainer(pod, bool(p, 'all-pods'));
      container = d.container;
      stderr += d.stderr;
    }
    if (!hasContainer(pod, container)) {
      return out('', `${stderr}error: container ${container} is not valid for pod ${pod.metadata.name} out of: ${allContainerNames(pod)}\n`, 1);
    }
    streams.push({ pod, container });
  }

  const max = int(p, 'max-log-requests', 5);
  if (bool(p, 'follow') && streams.length > 1 && streams.length > max) {
    throw new KubectlError(`you are attempting to follow ${streams.length} log streams, but maximum allowed concurrency is ${max}, use --max-log-requests to increase the limit`);
  }
  let text = '';
  // what kubectl says about the containers it chose is written as it builds the requests, before any log streams
  // upstream: podcmd.FindOrDefaultContainerByName (its warning to ErrOut), then logs.go parallelConsumeRequest
  const done = (tail: string, code = 0): CommandResult => fromWrites([[2, stderr], [1, text], [2, tail]], code);
  // -f: the streams whose container is running now, followed into the cluster's future below
  const followed: Followed[] = [];
  for (const { pod, container } of streams) {
    try {
      const o = { previous: bool(p, 'previous'), sinceMs: sinceMs?.ok ? sinceMs.ms : undefined, sinceWall, tail, timestamps: bool(p, 'timestamps') };
      let chunk = logsOf(ctx, pod, container, o);
      if (limitBytes > 0) chunk = truncateBytes(chunk, limitBytes);
      // upstream: logs.go addPrefixIfNeeded ("[pod/<name>/<container>] " before each line)
      const linePrefix = prefix ? `[pod/${pod.metadata.name}/${container}] ` : '';
      if (prefix) chunk = chunk.replace(/^(?=.)/gms, linePrefix);
      text += chunk;
      const raw = bool(p, 'follow') && !o.previous && limitBytes === 0 ? runningContainer(ctx.state, pod, container) : undefined;
      if (raw) followed.push({ raw, prefix: linePrefix, seen: ctx.state.containerLogs.filter((l) => l.containerId === raw && l.t <= ctx.state.t).length, timestamps: o.timestamps });
    } catch (e) {
      if (!(e instanceof KubectlError)) throw e;
      // the first stream that fails ends the command (what came before stays printed); --ignore-errors goes on
      if (!bool(p, 'ignore-errors')) return done(errorText(e), 1);
      // written where the logs go (logs.go consumeWithRetry's internalErrOut is the output)
      text += `error: ${e.message.replace(/^Error from server \(BadRequest\): /, '')}\n`;
    }
  }
  if (followed.length === 0) return done('');
  const future = ctx.future?.();
  if (!future) return done(noFuture('following (-f)', 'the log so far is above'));
  const f = followLogs(ctx, future, followed, 'kubectl');
  text += f.lines.map((l) => l.text).join('');
  return done(f.note);
}

/** One container's log as the kubelet serves it: its current (or --previous) instance, --since, --tail, --timestamps. */
function logsOf(ctx: ExecContext, pod: Pod, container: string, o: { previous: boolean; sinceMs: number | undefined; sinceWall?: number; tail: number; timestamps: boolean }): string {
  if (!pod.spec.nodeName) return '';
  const status = containerStatusOf(pod, container);
  const id = containerIdForLogs(pod.metadata.name, container, status, o.previous);
  const raw = id.replace(/^\w+:\/\//, '');
  // GetContainerLogs asks the runtime for the container first: one the kubelet has removed since (its garbage
  // collection of exited containers) has no logs left
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go (*kubeGenericRuntimeManager).GetContainerLogs
  const runtime = ctx.state.runtimes.find((r) => r.node === pod.spec.nodeName);
  if (runtime && !runtime.containers.some((c) => c.id === raw)) throw badRequest(`unable to retrieve container logs for ${id}`);
  const all = ctx.state.containerLogs.filter((l) => l.containerId === raw && l.t <= ctx.state.t);
  // The container runtime's log file stamps each line in UTC with nanoseconds.
  const stamps = o.timestamps ? logStamps(all, raw, ctx.state.epoch) : [];
  let lines = all.map((l, i) => `${o.timestamps ? `${stamps[i]} ` : ''}${l.text}\n`);
  if (o.sinceMs !== undefined) lines = lines.filter((_, i) => all[i].t >= ctx.state.t - o.sinceMs!);
  if (o.sinceWall !== undefined) lines = lines.filter((_, i) => ctx.state.epoch + all[i].t >= o.sinceWall!);
  if (o.tail >= 0) lines = o.tail === 0 ? [] : lines.slice(-o.tail);
  return lines.join('');
}

/** The first `n` bytes of a text in UTF-8 (--limit-bytes: the kubelet cuts the stream, even inside a character). */
function truncateBytes(text: string, n: number): string {
  const bytes = new TextEncoder().encode(text);
  return bytes.length <= n ? text : new TextDecoder().decode(bytes.slice(0, n));
}

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
