// GET pods/{name}/log: a container's log as the kubelet serves it, from the same model `kubectl logs` uses
// in podlife's console (which container ID a request means, and the kubelet's "waiting to start" errors).
// Query parameters map onto that model's flags: container, previous, tailLines, timestamps, sinceSeconds, sinceTime,
// limitBytes.
// `follow` returns what is there now (the stream does not stay open).
// upstream: pkg/registry/core/pod/rest/log.go (LogREST.Get: the options); pkg/kubelet/kubelet_pods.go
// (validateContainerLogStatus: the errors)

import type { ServerResponse } from 'node:http';
import type { ClusterState } from '../sim/index.ts';
import type { FlagValue } from '../sim/commands/flags.ts';
import { KubectlError } from '../sim/commands/kubectl/common.ts';
import { kubectlLogs } from '../sim/commands/kubectl/read.ts';
import { parseRFC3339 } from '../sim/commands/gotime.ts';
import { badRequest, objectNotFound } from './status.ts';

const SERVER_ERROR = /^Error from server \((\w+)\): /;

function nonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v)) throw badRequest(`${name}: Invalid value: ${JSON.stringify(v)}: must be a non-negative integer`);
  return Number(v);
}

export function serveLog(res: ServerResponse, state: ClusterState, namespace: string, name: string, query: URLSearchParams): void {
  const pod = state.pods.find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
  if (!pod) throw objectNotFound('pods', name);
  const flags = new Map<string, FlagValue>([['namespace', namespace]]);
  const container = query.get('container') ?? pod.spec.containers[0].name;
  // the API server's own check (kubectl checks first, with its list of the pod's containers)
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])];
  if (!all.some((c) => c.name === container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  flags.set('container', container);
  if (query.get('previous') === 'true') flags.set('previous', true);
  if (query.get('timestamps') === 'true') flags.set('timestamps', true);
  const tail = nonNegativeInt(query, 'tailLines');
  if (tail !== undefined) flags.set('tail', tail);
  const since = nonNegativeInt(query, 'sinceSeconds');
  if (since !== undefined) flags.set('since', since * 1000); // a duration flag's value, in milliseconds
  const limit = nonNegativeInt(query, 'limitBytes');
  if (limit !== undefined && limit > 0) flags.set('limit-bytes', limit);
  const sinceTime = query.get('sinceTime');
  if (sinceTime !== null) {
    // metav1.Time in a query: RFC 3339 in whole seconds
    if (!parseRFC3339(sinceTime).ok || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/.test(sinceTime)) {
      throw badRequest(`sinceTime: Invalid value: ${JSON.stringify(sinceTime)}: must be an RFC 3339 time in whole seconds`);
    }
    if (since !== undefined) throw badRequest('at most one of `sinceTime` or `sinceSeconds` may be specified');
    flags.set('since-time', sinceTime);
  }

  let text: string;
  try {
    const r = kubectlLogs({ flags, args: [name], argsLenAtDash: -1 }, { state, namespace });
    if (r.exitCode !== 0) throw new KubectlError(r.stderr.trimEnd());
    text = r.stdout;
  } catch (e) {
    if (!(e instanceof KubectlError)) throw e;
    throw badRequest(e.message.replace(SERVER_ERROR, ''));
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  res.end(text);
}
