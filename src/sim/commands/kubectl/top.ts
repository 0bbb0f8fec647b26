// `kubectl top`.

import type { FlagSpec, ParsedArgs } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { KubectlError, out } from './common.ts';

export const TOP_FLAGS: FlagSpec[] = [
  { name: 'containers', type: 'bool' },
  { name: 'sort-by', type: 'string' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'field-selector', type: 'string' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'no-headers', type: 'bool' },
  { name: 'sum', type: 'bool' },
  { name: 'use-protocol-buffers', type: 'bool' },
  { name: 'show-capacity', type: 'bool' },
];

/**
 * `kubectl top pod|node`: usage comes from the Metrics API (metrics-server), which the article's cluster — and so
 * the simulated one — does not run; kubectl says so. upstream: k8s.io/kubectl/pkg/cmd/top/top.go, top_pod.go
 */
export function kubectlTop(p: ParsedArgs): CommandResult {
  const sub = p.args[0];
  if (sub === undefined) {
    // the real kubectl prints top's usage (a long text in v1.36) and exits 1
    throw new KubectlError('podlife: "kubectl top" needs a resource: pod or node (and this cluster runs no Metrics Server)');
  }
  if (!['pod', 'pods', 'po', 'node', 'nodes', 'no'].includes(sub)) {
    return out('', `error: unknown command ${JSON.stringify(sub)}\nSee 'kubectl top -h' for help and examples\n`, 1);
  }
  return out('', 'error: Metrics API not available\n', 1);
}
