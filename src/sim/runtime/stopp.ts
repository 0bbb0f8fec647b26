// CRI StopPodSandbox from a client on the node (`crictl stopp`), not through the API server: the runtime kills the
// sandbox's containers and stops it, and the kubelet finds out at its next relist. Loaded with the patch module,
// as only a few runs (`crictl stopp` in a scenario or the console) send it.
// upstream: cri-tools cmd/crictl/sandbox.go stopPodSandbox; containerd's StopPodSandbox

import type { ApiServer } from '../api/apiserver.ts';
import type { SimContext } from '../core/context.ts';
import type { ApplyResult } from '../types.ts';
import type { ContainerRuntime } from './cri.ts';

export function stopPodSandbox(ctx: SimContext, api: ApiServer, runtime: ContainerRuntime | undefined, node: string, id: string): ApplyResult {
  const sb = runtime?.findSandbox(id);
  const pod = sb && api.getPod(sb.namespace, sb.name);
  if (!sb) {
    const message = `an error occurred when try to find sandbox ${JSON.stringify(id)}: not found`;
    return { ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'NotFound', code: 404 } };
  }
  if (!pod || pod.metadata.uid !== sb.podUid) {
    // the result names the sandbox's pod; a sandbox whose pod the API server no longer has is left alone
    const message = `podlife: sandbox ${sb.id} belongs to a pod the API server no longer has; this simulation only stops sandboxes of existing pods`;
    return { ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'BadRequest', code: 400 } };
  }
  runtime!.requestStopPodSandbox(sb);
  ctx.emit('runtime', 'SandboxStopRequested', `sandbox/${sb.id}`, `StopPodSandbox from a CRI client on ${node}: its containers are killed, then the sandbox stops`);
  return { ok: true, object: pod };
}
