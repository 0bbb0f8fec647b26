// POST pods/{name}/eviction, the Eviction API (policy/v1) that `kubectl drain` calls for each pod. The model has no
// PodDisruptionBudgets, so every eviction is allowed: the API server adds the DisruptionTarget condition
// (EvictionByEvictionAPI) and deletes the pod as DELETE would, with the eviction's grace period or the pod's own; the
// kubelet does the rest. Loaded with the patch module (only a few runs evict).
// upstream: pkg/registry/core/pod/storage/eviction.go (EvictionREST.Create, canIgnorePDB, addConditionAndDeletePod)

import type { ApiServer } from './apiserver.ts';
import type { SimContext } from '../core/context.ts';
import type { ApplyResult, PodCondition } from '../types.ts';

export function evictPod(ctx: SimContext, api: ApiServer, namespace: string, name: string, gracePeriodSeconds?: number): ApplyResult {
  const pod = api.getPod(namespace, name);
  if (!pod) return api.deletePod(namespace, name); // the API server's NotFound
  const conditions = pod.status.conditions ?? [];
  const condition: PodCondition = {
    type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: ctx.rfc3339(),
    reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting',
  };
  // podutil.UpdatePodCondition: a condition that says the same keeps its transition time
  const same = conditions.find((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === condition.reason && c.message === condition.message);
  if (!same) api.updatePodStatus(namespace, name, pod.metadata.uid, { ...pod.status, conditions: [...conditions.filter((c) => c.type !== 'DisruptionTarget'), condition] });
  ctx.emit('apiserver', 'PodEvicted', `pod/${namespace}/${name}`, 'Eviction API: no PodDisruptionBudget stands in the way; the pod is deleted');
  return api.deletePod(namespace, name, gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds });
}
