// PATCH nodes/{name}: what `kubectl label|annotate node`, `cordon`, `uncordon` and `taint` send. The node's
// status belongs to the kubelet and is kept (the main resource does not write it); of the rest, the model lets a
// patch change what those commands change: labels, annotations, spec.unschedulable and spec.taints. Loaded with
// the other patch types (patch.ts), only where a run patches a node.
// upstream: pkg/registry/core/node/strategy.go (nodeStrategy.PrepareForUpdate keeps the status);
//           pkg/apis/core/validation/validation.go ValidateNodeUpdate, validateNodeTaints, validateTaintEffect

import type { ApiStatus, FieldValidation, Node, PatchType, Taint } from '../types.ts';
import { API_SERVER_COPY_LIMIT, jsonPatch, PatchDecodeError, PatchError } from './json-patch.ts';
import { strategicMergePatch } from './patch.ts';
import { patchBodyError } from './patch-body.ts';
import type { FieldError } from './fielderrors.ts';
import type * as fielderrors from './fielderrors.ts';
import type * as validation from './validation.ts';
import type * as schema from './schema.ts';
import type { Schema } from './schema.ts';
import type { mergePatch } from './merge-patch.ts';

/**
 * What node patches use of the API server's own modules, handed over by the API server: imported here, they would
 * be split out of the page's engine bundle into a chunk of their own, which costs the player's first load.
 */
export type NodePatchDeps = Pick<typeof validation, 'isQualifiedName' | 'isValidLabelValue' | 'validateMeta'>
  & Pick<typeof fielderrors, 'badRequestStatus' | 'invalidStatus' | 'unprocessableStatus' | 'GoRepr'> & Pick<typeof schema, 'decodePatchedUnder' | 'objectMeta'>
  & { mergePatch: typeof mergePatch };

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

type Raw = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The patched node (`warnings`: the unknown fields a Warn decoding dropped), or the error status. */
export type NodePatchResult = { node: Node; unchanged?: boolean; warnings: string[] } | { status: ApiStatus };


const str: Schema = { t: 'string' };
const any: Schema = { t: 'any' };

/**
 * v1.Node for decoding (schema.ts's walker): the fields the model keeps, typed, and NodeSpec's others (so that
 * they reach the "not modelled" answer below). Type errors only: a node patch is not strict-decoded here.
 */
function nodeSchema(objectMeta: Schema): Schema {
  const taint: Schema = { t: 'object', go: 'Taint', fields: { key: str, value: str, effect: str, timeAdded: any } };
  const spec: Schema = {
    t: 'object', go: 'NodeSpec',
    fields: {
      podCIDR: str, podCIDRs: { t: 'array', go: '[]string', of: str }, providerID: str, unschedulable: { t: 'bool' },
      taints: { t: 'array', go: '[]v1.Taint', of: taint }, configSource: any, externalID: str,
    },
  };
  return { t: 'object', go: 'Node', fields: { apiVersion: str, kind: str, metadata: objectMeta, spec, status: any } };
}

/** Go's %#v of a core.Taint, as field.Duplicate prints it. */
function goTaint(t: Taint): string {
  return `core.Taint{Key:${JSON.stringify(t.key)}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(t.effect)}, TimeAdded:<nil>}`;
}

// upstream: validation.go validateNodeTaints (key as a label name, value as a label value, a supported effect,
// unique by key and effect)
function validateTaints(taints: Taint[], errs: FieldError[], d: NodePatchDeps): void {
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const f = `spec.taints[${i}]`;
    for (const detail of d.isQualifiedName(t.key ?? '')) errs.push({ type: 'Invalid', field: `${f}.key`, value: t.key ?? '', detail });
    for (const detail of d.isValidLabelValue(t.value ?? '')) errs.push({ type: 'Invalid', field: `${f}.value`, value: t.value ?? '', detail });
    if (!t.effect) errs.push({ type: 'Required', field: `${f}.effect` });
    else if (!EFFECTS.includes(t.effect)) {
      errs.push({ type: 'NotSupported', field: `${f}.effect`, value: t.effect, detail: `supported values: ${EFFECTS.map((e) => `"${e}"`).join(', ')}` });
    }
    const keys = seen.get(t.effect) ?? new Set<string>();
    if (keys.has(t.key)) errs.push({ type: 'Duplicate', field: f, value: new d.GoRepr(goTaint(t)), detail: 'taints must be unique by key and effect pair' });
    keys.add(t.key);
    seen.set(t.effect, keys);
  });
}

/** The node a patch makes of `node`, validated as the API server validates a node update; or the error status. */
export function patchNode(
  node: Node, patchType: PatchType, patch: unknown, d: NodePatchDeps, fieldValidation: FieldValidation = 'Warn',
): NodePatchResult {
  const badRequest = (message: string) => ({ status: d.badRequestStatus(message) });
  const name = node.metadata.name;
  const undecodable = patchBodyError(patchType, patch);
  if (undecodable !== undefined) return badRequest(undecodable);
  let next: Raw;
  try {
    if (patchType === 'json') next = jsonPatch(node, patch, API_SERVER_COPY_LIMIT);
    // a strategic merge patch of null decodes to no map: nothing changes
    else next = patchType === 'merge' ? d.mergePatch(node, patch) : strategicMergePatch(node, (patch ?? {}) as Raw);
  } catch (e) {
    if (e instanceof PatchDecodeError) return badRequest(e.message);
    if (e instanceof PatchError) return { status: d.unprocessableStatus() };
    throw e;
  }
  if (typeof next !== 'object' || next === null || Array.isArray(next)) return badRequest('the patch produced an invalid object');
  const decoded = d.decodePatchedUnder(next, nodeSchema(d.objectMeta), 'Node', fieldValidation, patchType, patch);
  if (!decoded.ok) return { status: decoded.status };
  next = decoded.object;
  const warnings = decoded.warnings;
  // (copies: the patch shares what it left alone with the stored node, which is never written to)
  next = { ...next, metadata: { ...next.metadata }, spec: { ...next.spec } };
  const m = next.metadata;
  if (m.resourceVersion !== undefined && m.resourceVersion !== node.metadata.resourceVersion) {
    return {
      status: {
        kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', details: { name, kind: 'nodes' }, code: 409,
        message: `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      },
    };
  }
  // fields the server owns, and the status, which only the status subresource writes
  for (const k of ['name', 'uid', 'creationTimestamp', 'resourceVersion'] as const) m[k] = node.metadata[k];
  if (m.labels === null) delete m.labels;
  if (m.annotations === null) delete m.annotations;
  next.apiVersion = 'v1';
  next.kind = 'Node';
  next.status = node.status;
  const spec = next.spec;
  for (const k of ['taints', 'unschedulable'] as const) if (spec[k] === null) delete spec[k];
  if (spec.unschedulable === false) delete spec.unschedulable;
  if (Array.isArray(spec.taints) && spec.taints.length === 0) delete spec.taints;
  // the model keeps the node's other fields as the kubelet registered them
  for (const k of new Set([...Object.keys(spec), ...Object.keys(node.spec)])) {
    if (k === 'taints' || k === 'unschedulable' || JSON.stringify(spec[k]) === JSON.stringify((node.spec as Raw)[k])) continue;
    if (k === 'podCIDR' || k === 'podCIDRs') {
      return { status: d.invalidStatus('Node', name, [{ type: 'Forbidden', field: 'spec.podCIDRs', detail: 'node updates may not change podCIDR except from "" to valid' }]) };
    }
    return badRequest(`podlife: a node patch here may change metadata.labels, metadata.annotations, spec.unschedulable and spec.taints; spec.${k} is not modelled`);
  }
  const errs: FieldError[] = [];
  d.validateMeta(m, errs);
  if (spec.taints) validateTaints(spec.taints, errs, d);
  if (errs.length) return { status: d.invalidStatus('Node', name, errs) };
  if (JSON.stringify(next) === JSON.stringify(node)) return { node, unchanged: true, warnings };
  return { node: next as Node, warnings };
}
