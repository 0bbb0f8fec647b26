// The three patch types kubectl sends: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch
// (merge keys from the core/v1 struct tags for the fields the model covers).
// upstream: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go; github.com/evanphx/json-patch

import { clone } from '../core/clone.ts';

type Json = unknown;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export class PatchError extends Error {}

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

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`invalid JSON pointer "${path}"`);
  return path.slice(1).split('/').map(unescape);
}

function getAt(doc: Json, tokens: string[]): { found: boolean; value?: Json } {
  let cur: Json = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      const i = Number(t);
      if (!/^\d+$/.test(t) || i >= cur.length) return { found: false };
      cur = cur[i];
    } else if (isObj(cur)) {
      if (!Object.hasOwn(cur, t)) return { found: false };
      cur = cur[t];
    } else return { found: false };
  }
  return { found: true, value: cur };
}

/** RFC 6902 operations add, remove, replace, move, copy, test; messages as evanphx/json-patch words them. */
export function jsonPatch(doc: Json, ops: Json): Json {
  if (!Array.isArray(ops)) throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let out = clone(doc);
  for (const raw of ops) {
    if (!isObj(raw) || typeof raw.op !== 'string') throw new PatchError('Unexpected kind: <nil>');
    const op = raw.op;
    const path = String(raw.path ?? '');
    const tokens = parsePointer(path);
    const parentOf = (toks: string[], opName: string): { parent: Json; key: string } => {
      const parent = getAt(out, toks.slice(0, -1));
      if (!parent.found || toks.length === 0) throw new PatchError(`${opName} operation does not apply: doc is missing path: "${path}": missing value`);
      return { parent: parent.value, key: toks[toks.length - 1] };
    };
    const remove = (toks: string[], opName: string): Json => {
      const { parent, key } = parentOf(toks, opName);
      if (Array.isArray(parent)) {
        const i = Number(key);
        if (!/^\d+$/.test(key) || i >= parent.length) throw new PatchError(`${opName} operation does not apply: doc is missing path: "${path}": missing value`);
        return parent.splice(i, 1)[0];
      }
      if (!isObj(parent) || !Object.hasOwn(parent, key)) throw new PatchError(`${opName} operation does not apply: doc is missing path: "${path}": missing value`);
      const v = parent[key];
      delete parent[key];
      return v;
    };
    const add = (toks: string[], value: Json, opName: string): void => {
      if (toks.length === 0) {
        out = value;
        return;
      }
      const { parent, key } = parentOf(toks, opName);
      if (Array.isArray(parent)) {
        if (key === '-') parent.push(value);
        else {
          const i = Number(key);
          if (!/^\d+$/.test(key) || i > parent.length) throw new PatchError(`${opName} operation does not apply: doc is missing path: "${path}": missing value`);
          parent.splice(i, 0, value);
        }
      } else if (isObj(parent)) parent[key] = value;
      else throw new PatchError(`${opName} operation does not apply: doc is missing path: "${path}": missing value`);
    };
    switch (op) {
      case 'add':
        add(tokens, clone(raw.value), 'add');
        break;
      case 'remove':
        remove(tokens, 'remove');
        break;
      case 'replace': {
        if (!getAt(out, tokens).found) throw new PatchError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
        remove(tokens, 'replace');
        add(tokens, clone(raw.value), 'replace');
        break;
      }
      case 'move': {
        const from = parsePointer(String(raw.from ?? ''));
        const v = remove(from, 'move');
        add(tokens, v, 'move');
        break;
      }
      case 'copy': {
        const src = getAt(out, parsePointer(String(raw.from ?? '')));
        if (!src.found) throw new PatchError(`copy operation does not apply: doc is missing from path: ${String(raw.from)}: missing value`);
        add(tokens, clone(src.value), 'copy');
        break;
      }
      case 'test': {
        const cur = getAt(out, tokens);
        if (!cur.found || JSON.stringify(cur.value) !== JSON.stringify(raw.value)) throw new PatchError(`testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new PatchError(`Unexpected kind: ${op}`);
    }
  }
  return out;
}

/** Merge keys (patchMergeKey) of core/v1 list fields, by the field name's path in a Pod. */
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
  'spec.imagePullSecrets': 'name',
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
