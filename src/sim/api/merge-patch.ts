// JSON merge patch (RFC 7386), the patch type `kubectl patch --type=merge` sends. Small, so the engine always
// carries it; JSON patch and strategic merge patch (patch.ts) are loaded where they can be used.
// upstream: github.com/evanphx/json-patch MergePatch

import { clone } from '../core/clone.ts';
import { isJsonObject as isObj } from '../core/structural.ts';

type Json = unknown;
type Obj = Record<string, unknown>;


/** RFC 7386: objects merge recursively, null deletes, everything else (arrays included) replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return clone(patch);
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
