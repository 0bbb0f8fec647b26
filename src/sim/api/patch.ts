// The three patch types kubectl sends: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch
// (merge keys from the core/v1 struct tags for the fields the model covers).
// upstream: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go; gopkg.in/evanphx/json-patch.v4

import { clone } from '../core/clone.ts';
import { isJsonObject as isObj } from '../core/structural.ts';

// JSON merge patch has a module of its own: the engine always has it (kubectl patch --type=merge is the common
// one), while these larger two load only where a patch of their type can happen.
export { mergePatch } from './merge-patch.ts';
// a node's patches (kubectl label/annotate/cordon/uncordon/taint) come with the other patch types, and with them
// what reacts to a node update: the node lifecycle controller, the taint-eviction controller and the kubelet's node
// status loop
export { patchNode } from './node-patch.ts';
export { NodeLifecycleController } from '../controller/nodelifecycle.ts';
export { TaintEvictionController } from '../controller/tainteviction.ts';
// and the actions few runs send: the Eviction API (kubectl drain), CRI StopPodSandbox from the node's shell (crictl stopp)
export { evictPod } from './eviction.ts';
export { createWhenGone } from './recreate.ts';
export { stopPodSandbox } from '../runtime/stopp.ts';
export { execInContainer } from '../kubelet/exec.ts';
export { watchNodeSchedulable } from '../kubelet/nodestatus.ts';

type Json = unknown;
type Obj = Record<string, unknown>;


// JSON patch (RFC 6902): json-patch.ts, a port of the library both the API server and kubectl use
export { API_SERVER_COPY_LIMIT, jsonPatch, PatchDecodeError, PatchError } from './json-patch.ts';

/** Merge keys (patchMergeKey) of core/v1 list fields with patchStrategy "merge", by the field's path in a Pod. */
const MERGE_KEYS: Record<string, string> = {
  'spec.containers': 'name',
  'spec.initContainers': 'name',
  'spec.ephemeralContainers': 'name',
  'spec.volumes': 'name',
  'spec.containers.env': 'name',
  'spec.initContainers.env': 'name',
  'spec.containers.ports': 'containerPort',
  'spec.initContainers.ports': 'containerPort',
  'spec.containers.volumeMounts': 'mountPath',
  'spec.initContainers.volumeMounts': 'mountPath',
  'spec.containers.volumeDevices': 'devicePath',
  'spec.initContainers.volumeDevices': 'devicePath',
  'spec.imagePullSecrets': 'name',
  'spec.hostAliases': 'ip',
  'spec.topologySpreadConstraints': 'topologyKey',
  'spec.schedulingGates': 'name',
  'spec.resourceClaims': 'name',
  'status.conditions': 'type',
  'metadata.ownerReferences': 'uid',
};
/** Lists of scalars with patchStrategy "merge": a patch list is unioned in, never replaces. */
const MERGE_SCALAR_LISTS = new Set(['metadata.finalizers']);

/** Strategic merge patch, with $patch: replace|delete and $deleteFromPrimitiveList directives. */
export function strategicMergePatch(target: Json, patch: Json, path = ''): Json {
  if (!isObj(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return clone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch') continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const drop = new Set((Array.isArray(v) ? v : []).map((x) => JSON.stringify(x)));
      const cur = out[field];
      if (Array.isArray(cur)) out[field] = cur.filter((x) => !drop.has(JSON.stringify(x)));
      continue;
    }
    if (k.startsWith('$setElementOrder/')) continue;
    const childPath = path ? `${path}.${k}` : k;
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = out[k];
    if (Array.isArray(v)) {
      const key = MERGE_KEYS[childPath];
      if (key && Array.isArray(cur)) out[k] = mergeList(cur, v, key, childPath);
      else if (MERGE_SCALAR_LISTS.has(childPath) && Array.isArray(cur)) {
        const seen = new Set(cur.map((x) => JSON.stringify(x)));
        out[k] = [...cur, ...v.filter((x) => !seen.has(JSON.stringify(x)))];
      } else out[k] = clone(v);
      continue;
    }
    const merged = strategicMergePatch(cur, v, childPath);
    if (merged === undefined) delete out[k];
    else out[k] = merged;
  }
  return out;
}

function mergeList(cur: Json[], patch: Json[], key: string, path: string): Json[] {
  const out = cur.map((x) => x);
  for (const item of patch) {
    if (!isObj(item)) continue;
    const idx = out.findIndex((x) => isObj(x) && x[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = strategicMergePatch(out[idx], item, path);
    else out.push(strategicMergePatch(undefined, item, path));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The three-way strategic merge patch kubectl apply sends (client side).
// upstream: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go CreateThreeWayMergePatch, diffMaps,
//           handleMapDiff, handleSliceDiff, diffLists, diffListsOfMaps, diffListsOfScalars, normalizeSliceOrder,
//           mergeMap; patch metadata from the core/v1 struct tags (MERGE_KEYS, MERGE_SCALAR_LISTS)

interface DiffOptions {
  ignoreDeletions: boolean;
  ignoreChangesAndAdditions: boolean;
}

/** reflect.TypeOf of a JSON value decoded into interface{} (nil has no type). */
function goType(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  return typeof v;
}

/** reflect.DeepEqual of two JSON values. */
function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (goType(a) !== goType(b) || typeof a !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqualJson(x, bb[i]));
  }
  const ka = Object.keys(a as Obj);
  const kb = Object.keys(b as Obj);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b as Obj, k) && deepEqualJson((a as Obj)[k], (b as Obj)[k]));
}

/** fmt.Sprintf("%v") of a merge key or scalar: how the lists are sorted and matched. */
const keyString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const byKeyString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function diffMaps(original: Obj, modified: Obj, path: string, o: DiffOptions): Obj {
  const patch: Obj = {};
  for (const [k, mv] of Object.entries(modified)) {
    const childPath = path ? `${path}.${k}` : k;
    if (!Object.hasOwn(original, k)) {
      if (!o.ignoreChangesAndAdditions) patch[k] = mv;
      continue;
    }
    const ov = original[k];
    if (goType(ov) !== goType(mv)) {
      if (!o.ignoreChangesAndAdditions) patch[k] = mv;
      continue;
    }
    if (isObj(ov)) {
      const sub = diffMaps(ov, mv as Obj, childPath, o);
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (Array.isArray(ov)) {
      handleSliceDiff(k, ov, mv as Json[], patch, childPath, o);
    } else if (!o.ignoreChangesAndAdditions && !deepEqualJson(ov, mv)) {
      patch[k] = mv;
    }
  }
  // updatePatchIfMissing: a key the modified object dropped is deleted
  if (!o.ignoreDeletions) {
    for (const k of Object.keys(original)) if (!Object.hasOwn(modified, k)) patch[k] = null;
  }
  return patch;
}

function handleSliceDiff(key: string, original: Json[], modified: Json[], patch: Obj, path: string, o: DiffOptions): void {
  const mergeKey = MERGE_KEYS[path];
  if (!mergeKey && !MERGE_SCALAR_LISTS.has(path)) {
    // no merge strategy: the list is replaced when it differs
    if (!o.ignoreChangesAndAdditions && !deepEqualJson(original, modified)) patch[key] = modified;
    return;
  }
  const { add, del, order } = mergeKey ? diffListsOfMaps(original, modified, mergeKey, path, o) : diffListsOfScalars(original, modified, o);
  if (add.length > 0) patch[key] = add;
  if (del.length > 0) patch[`$deleteFromPrimitiveList/${key}`] = del;
  if (order.length > 0) patch[`$setElementOrder/${key}`] = order;
}

function diffListsOfMaps(original: Json[], modified: Json[], mergeKey: string, path: string, o: DiffOptions): { add: Json[]; del: Json[]; order: Json[] } {
  const sorted = (list: Json[]) => [...list].filter(isObj).sort((a, b) => byKeyString(keyString(a[mergeKey]), keyString(b[mergeKey])));
  const orig = sorted(original);
  const mod = sorted(modified);
  let patch: Obj[] = [];
  const deletions: Obj[] = [];
  let i = 0;
  let j = 0;
  while (i < orig.length || j < mod.length) {
    const ok = i < orig.length ? keyString(orig[i][mergeKey]) : undefined;
    const mk = j < mod.length ? keyString(mod[j][mergeKey]) : undefined;
    if (ok !== undefined && mk !== undefined && ok === mk) {
      const sub = diffMaps(orig[i], mod[j], path, o);
      if (Object.keys(sub).length > 0) patch.push({ ...sub, [mergeKey]: mod[j][mergeKey] });
      i++;
      j++;
    } else if (ok === undefined || (mk !== undefined && mk < ok)) {
      if (!o.ignoreChangesAndAdditions) patch.push(mod[j]);
      j++;
    } else {
      if (!o.ignoreDeletions) deletions.push({ $patch: 'delete', [mergeKey]: orig[i][mergeKey] });
      i++;
    }
  }
  // normalizeSliceOrder: the patch follows the modified list's order; deletions go last
  const position = new Map(modified.filter(isObj).map((x, n) => [keyString(x[mergeKey]), n]));
  patch = patch.sort((a, b) => (position.get(keyString(a[mergeKey])) ?? 0) - (position.get(keyString(b[mergeKey])) ?? 0));
  const all: Obj[] = [...patch, ...deletions];
  const orderSame = original.length === modified.length && original.every((x, n) => isObj(x) && isObj(modified[n]) && keyString(x[mergeKey]) === keyString((modified[n] as Obj)[mergeKey]));
  const setOrder = (!o.ignoreChangesAndAdditions && (all.length > 0 || !orderSame)) || (!o.ignoreDeletions && all.length > 0);
  return { add: all, del: [], order: setOrder ? modified.filter(isObj).map((x) => ({ [mergeKey]: x[mergeKey] })) : [] };
}

function diffListsOfScalars(original: Json[], modified: Json[], o: DiffOptions): { add: Json[]; del: Json[]; order: Json[] } {
  const orig = [...original].sort((a, b) => byKeyString(keyString(a), keyString(b)));
  const mod = [...modified].sort((a, b) => byKeyString(keyString(a), keyString(b)));
  const add: Json[] = [];
  const del: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < orig.length || j < mod.length) {
    const os = i < orig.length ? keyString(orig[i]) : undefined;
    const ms = j < mod.length ? keyString(mod[j]) : undefined;
    if (os !== undefined && ms !== undefined && os === ms) {
      i++;
      j++;
    } else if (os === undefined || (ms !== undefined && ms < os)) {
      if (!o.ignoreChangesAndAdditions) add.push(mod[j]);
      j++;
    } else {
      if (!o.ignoreDeletions && !del.some((d) => keyString(d) === os)) del.push(orig[i]);
      i++;
    }
  }
  const position = new Map(modified.map((x, n) => [keyString(x), n]));
  add.sort((a, b) => (position.get(keyString(a)) ?? 0) - (position.get(keyString(b)) ?? 0));
  const setOrder = (!o.ignoreDeletions && del.length > 0) || (!o.ignoreChangesAndAdditions && !deepEqualJson(original, modified));
  return { add, del, order: setOrder ? modified : [] };
}

/** mergeMap(deletions, delta): the two halves of the three-way patch, as one patch. */
function mergePatchMaps(a: Obj, b: Obj, path: string): Obj {
  const out: Obj = { ...a };
  for (const [k, bv] of Object.entries(b)) {
    const av = out[k];
    const childPath = path ? `${path}.${k}` : k;
    if (!Object.hasOwn(out, k)) out[k] = bv;
    else if (isObj(av) && isObj(bv)) out[k] = mergePatchMaps(av, bv, childPath);
    else if (Array.isArray(av) && Array.isArray(bv) && MERGE_KEYS[childPath]) {
      // mergeSlice: the patch's items (merged with the same key's), then the others, by mergeSortedSlice
      const key = MERGE_KEYS[childPath];
      const keyOf = (x: Json): string => (isObj(x) ? keyString(x[key]) : JSON.stringify(x));
      const inB = new Set(bv.map(keyOf));
      const right = bv.map((item) => {
        const same = av.find((x) => keyOf(x) === keyOf(item));
        return same !== undefined && isObj(same) && isObj(item) ? mergePatchMaps(same, item, childPath) : item;
      });
      const left = av.filter((x) => !inB.has(keyOf(x)));
      const serverIndex = (x: Json): number => av.findIndex((y) => keyOf(y) === keyOf(x));
      const merged: Json[] = [];
      let i = 0;
      let j = 0;
      while (i < left.length || j < right.length) {
        if (i >= left.length) merged.push(right[j++]);
        else if (j >= right.length) merged.push(left[i++]);
        else {
          const li = serverIndex(left[i]);
          const ri = serverIndex(right[j]);
          if (li >= 0 && ri >= 0 && li < ri) merged.push(left[i++]);
          else merged.push(right[j++]);
        }
      }
      out[k] = merged;
    } else if (Array.isArray(av) && Array.isArray(bv) && k.startsWith('$deleteFromPrimitiveList/')) {
      out[k] = [...av, ...bv.filter((x) => !av.some((y) => deepEqualJson(x, y)))];
    } else out[k] = bv;
  }
  return out;
}

/**
 * The patch `kubectl apply` sends: what changed from current to modified (no deletions), plus what was deleted
 * from original (the last-applied configuration) to modified. `{}` means there is nothing to change.
 */
// upstream: strategicpatch/patch.go CreateThreeWayMergePatch (overwrite: kubectl apply's default --overwrite=true)
export function createThreeWayMergePatch(original: Obj | undefined, modified: Obj, current: Obj): Obj {
  const delta = diffMaps(current, modified, '', { ignoreDeletions: true, ignoreChangesAndAdditions: false });
  const deletions = diffMaps(original ?? {}, modified, '', { ignoreDeletions: false, ignoreChangesAndAdditions: true });
  return mergePatchMaps(deletions, delta, '');
}
