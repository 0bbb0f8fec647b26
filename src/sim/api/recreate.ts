// The second half of `kubectl replace --force`: kubectl has deleted the pod, and waits until the API server no longer
// has one of that name (a GET every second, at once first; five minutes at most by default), then creates the pod of
// its file. The wait is the client's, so the model runs it as the client would, on the virtual clock; what it did
// is in the trace (PodCreated, or ReplaceTimedOut when the pod outlived the wait). Loaded with the patch module.
// upstream: k8s.io/kubectl v0.36.2 pkg/cmd/replace/replace.go forceReplace (wait.PollImmediate(1s, timeout), then
//           resource.NewHelper(...).Create)

import type { ApiServer } from './apiserver.ts';
import type { SimContext } from '../core/context.ts';
import type { ApplyResult, CreateWhenGoneAction } from '../types.ts';

export function createWhenGone(ctx: SimContext, api: ApiServer, a: CreateWhenGoneAction): ApplyResult {
  // gone already (a pod not yet scheduled goes at once): the create is the answer
  const waiting = api.getPod(a.namespace, a.name);
  if (!waiting) return api.createPod(a.namespace, a.obj, a.fieldValidation);
  const start = ctx.now;
  const poll = (): void => {
    if (api.getPod(a.namespace, a.name)) {
      if (ctx.now - start + 1000 > (a.timeoutMs ?? 300_000)) {
        ctx.emit('apiserver', 'ReplaceTimedOut', `pod/${a.namespace}/${a.name}`, 'kubectl replace --force: timed out waiting for the condition (the pod was not gone)');
        return;
      }
      ctx.loop.after(1000, poll);
      return;
    }
    api.createPod(a.namespace, a.obj, a.fieldValidation);
  };
  ctx.loop.after(1000, poll);
  return { ok: true, object: waiting };
}
