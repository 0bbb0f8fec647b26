// How the API server decodes a patch body before it applies it, once it has the object: with the field validation
// kubectl patch leaves to the server (it sends no fieldValidation, which the server reads as Warn), a JSON or merge
// patch is first decoded strictly into the Go type it must fit, and a strategic merge patch into a map.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatcher.applyJSPatch: kjson.UnmarshalStrict
// into []jsonPatchOp or map[string]any, "error decoding patch: %v"; strategicPatchObject: UnmarshalStrict into
// map[string]interface{}; rest.go fieldValidation: "" is Warn); gopkg.in/evanphx/json-patch.v4 merge.go (MergePatch:
// a null patch is ErrBadJSONPatch, "Invalid JSON Patch")

import type { PatchType } from '../types.ts';
import { isJsonObject as isObj } from '../core/structural.ts';

/** What Go's encoding/json calls the JSON value that did not fit. */
export function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

const unmarshal = (v: unknown, into: string): string => `json: cannot unmarshal ${goJsonType(v)} into Go value of type ${into}`;

/** jsonPatchOp's string fields (value is interface{}: anything fits). The strict decoder matches keys exactly. */
const OP_STRING_FIELDS = new Set(['op', 'path', 'from']);

/**
 * The Bad Request message the server answers a patch body with when it does not decode (the first type error, in
 * document order, as encoding/json keeps the first), or undefined when it decodes. `null` decodes for a JSON patch
 * (no operations) and a strategic merge patch (no change); a merge patch of `null` is json-patch's ErrBadJSONPatch.
 */
export function patchBodyError(type: PatchType, patch: unknown): string | undefined {
  if (type === 'json') {
    if (patch === null) return undefined;
    if (!Array.isArray(patch)) return `error decoding patch: ${unmarshal(patch, '[]handlers.jsonPatchOp')}`;
    for (const op of patch) {
      if (op === null) continue;
      if (!isObj(op)) return `error decoding patch: ${unmarshal(op, 'handlers.jsonPatchOp')}`;
      for (const [k, v] of Object.entries(op)) {
        if (OP_STRING_FIELDS.has(k) && v !== null && typeof v !== 'string') {
          return `error decoding patch: json: cannot unmarshal ${goJsonType(v)} into Go struct field jsonPatchOp.${k} of type string`;
        }
      }
    }
    return undefined;
  }
  if (patch === null) return type === 'merge' ? 'Invalid JSON Patch' : undefined;
  if (!isObj(patch)) return `${type === 'merge' ? 'error decoding patch: ' : ''}${unmarshal(patch, 'map[string]interface {}')}`;
  return undefined;
}
