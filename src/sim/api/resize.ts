// The API server's side of in-place pod resize: the pods/{name}/resize subresource's strategy and validation.
// Loaded with the resize support (src/sim/resize.ts).
// upstream: pkg/registry/core/pod/strategy.go (podResizeStrategy); pkg/apis/core/validation/validation.go

import type { Pod } from '../types.ts';
import type { FieldError } from './fielderrors.ts';
import { forbidden, invalid, validatePodSpec } from './validation.ts';
import { computePodQOS } from './defaults.ts';
import { clone } from '../core/clone.ts';

type Raw = Record<string, any>;

/**
 * The resize subresource keeps the stored pod and takes only each container's resources and resizePolicy from the
 * patched one, position by position; everything else the patch changed is dropped, not rejected. The names come
 * along, so that validation sees containers renamed or reordered.
 */
// upstream: pkg/registry/core/pod/strategy.go podResizeStrategy.PrepareForUpdate, dropNonResizeUpdates
export function dropNonResizeUpdates(next: Raw, pod: Pod): Raw {
  const out = clone(pod) as Raw;
  for (const list of ['containers', 'initContainers'] as const) {
    next.spec[list]?.forEach((c: Raw, i: number) => {
      const o = out.spec[list]?.[i];
      if (!o) return;
      o.name = c.name;
      o.resources = c.resources;
      if (c.resizePolicy) o.resizePolicy = c.resizePolicy;
      else delete o.resizePolicy;
    });
  }
  return out;
}

/**
 * ValidatePodResize: the new spec is valid, the QoS class stays, containers keep their names and order, no
 * request or limit is removed, and only cpu and memory change. (The resize strategy already dropped every change
 * but container resources and resizePolicy.)
 */
// upstream: validation.go ValidatePodResize, validateContainerResize, validatePodResizeContainerOrdering
export function validatePodResize(next: Raw, old: Raw): FieldError[] {
  const errs: FieldError[] = [];
  validatePodSpec(next.spec, errs);
  if (computePodQOS(next.spec) !== old.status?.qosClass) errs.push(invalid('spec', next.status?.qosClass, 'Pod QOS Class may not change as a result of resizing'));
  const containers: Raw[] = next.spec.containers;
  const olds: Raw[] = old.spec.containers;
  let reordered = containers.length !== olds.length;
  containers.forEach((c, i) => {
    if (c.name !== olds[i]?.name) {
      errs.push(forbidden(`spec.containers[${i}].name`, 'containers may not be renamed or reordered on resize'));
      reordered = true;
    }
  });
  if (reordered) return errs;
  // regular containers and sidecars: no request or limit removed, only cpu and memory changed; other init
  // containers: nothing changed
  const mutable = (x: Raw | undefined): string => JSON.stringify(Object.entries(x ?? {}).filter(([k]) => k !== 'cpu' && k !== 'memory').sort());
  let onlyCpuMemory = true;
  for (const list of ['containers', 'initContainers'] as const) {
    old.spec[list]?.forEach((o: Raw, i: number) => {
      const n = next.spec[list][i].resources ?? {};
      const resizable = list === 'containers' || o.restartPolicy === 'Always';
      for (const kind of ['requests', 'limits'] as const) {
        const before = o.resources?.[kind];
        if (!resizable) {
          if (JSON.stringify(n[kind]) !== JSON.stringify(before)) onlyCpuMemory = false;
          continue;
        }
        for (const r of Object.keys(before ?? {})) {
          if (n[kind]?.[r] === undefined) errs.push(forbidden(`spec.${list}[${i}].resources.${kind}[${r}]`, `resource ${kind} cannot be removed`));
        }
        if (mutable(n[kind]) !== mutable(before)) onlyCpuMemory = false;
      }
    });
  }
  if (!onlyCpuMemory) errs.push(forbidden('spec', 'only cpu and memory resources are mutable'));
  return errs;
}
