// The bodies that change a pod: PATCH (the three patch types kubectl sends, told apart by Content-Type),
// POST (a pod as kubectl run / kubectl apply send it) and DELETE (DeleteOptions). Each is decoded as the
// API server decodes it, with its error messages; applying them is the engine's job.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (PatchResource: the accepted
// patch types), create.go + rest.go (transformDecodeError, summarizeData), delete.go (DeleteResource:
// options from the query, then the body); staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation
// (ValidateDeleteOptions)

import { parse as parseYaml } from 'yaml';
import { GoJsonError, parseGoJson } from './gojson.ts';
import type { FieldValidation, PatchType } from '../sim/types.ts';
import { badRequest, invalidOptions, notModelled, unsupportedMediaType } from './status.ts';

const PATCH_TYPES: Record<string, PatchType> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
};

const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** The patch type of a PATCH request; server-side apply (apply-patch+yaml) is not modelled. */
export function patchTypeOf(contentType: string | undefined): PatchType {
  const m = mediaType(contentType);
  const type = PATCH_TYPES[m];
  if (type) return type;
  if (m === 'application/apply-patch+yaml' || m === 'application/apply-patch+cbor') {
    throw notModelled('server-side apply (kubectl apply --server-side)', 'use kubectl apply without --server-side');
  }
  throw unsupportedMediaType(Object.keys(PATCH_TYPES));
}

/** A JSON request body; one that is not JSON is a Bad Request with `invalid`, else with the decoder's message. */
export function parseJsonBody(body: string, invalid?: string): unknown {
  try {
    return parseGoJson(body);
  } catch (e) {
    if (e instanceof GoJsonError) throw badRequest(invalid ?? e.message);
    throw e;
  }
}

/**
 * A PATCH body: the handler checks it is JSON before anything else (before it looks the object up), with a message
 * of its own; how it decodes is the engine's (api/patch-body.ts), once the object is found.
 * upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go validateAndTranscodePatch (json.Valid)
 */
export const parsePatch = (body: string): unknown => parseJsonBody(body, 'invalid JSON patch');

/** rest.go summarizeData: how the server quotes a body it could not read. */
function summarizeData(body: Buffer, maxLength: number): string {
  if (body.length === 0) return '<empty>';
  if (body[0] === 0x7b) return body.length > maxLength ? `${body.subarray(0, maxLength).toString('latin1')} ...` : body.toString('latin1');
  return body.length > maxLength ? `${body.subarray(0, maxLength).toString('hex')} ...` : body.toString('hex');
}

/** The body of a create: JSON (what kubectl sends) or YAML. */
export function parseCreateBody(body: Buffer, contentType: string | undefined, kind: string): unknown {
  const m = mediaType(contentType);
  if (m === 'application/yaml') {
    try {
      return parseYaml(body.toString('utf8'));
    } catch (e) {
      throw badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; yaml parse error: ${(e as Error).message.split('\n')[0]} (${summarizeData(body, 30)})`);
    }
  }
  if (m !== 'application/json' && m !== '') throw unsupportedMediaType(['application/json', 'application/yaml']);
  try {
    return parseGoJson(body.toString('utf8'));
  } catch (e) {
    if (!(e instanceof GoJsonError)) throw e;
    throw badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${e.message} (${summarizeData(body, 30)})`);
  }
}

const FIELD_VALIDATION: FieldValidation[] = ['Ignore', 'Strict', 'Warn'];

/**
 * The request's `fieldValidation` (rest.go fieldValidation: none is Warn); any other value is refused as
 * ValidateFieldValidation refuses it, the options' kind named.
 */
export function fieldValidationOf(query: URLSearchParams, options: 'CreateOptions' | 'PatchOptions' | 'UpdateOptions'): FieldValidation {
  const v = query.get('fieldValidation') ?? '';
  if (v === '') return 'Warn';
  if (!(FIELD_VALIDATION as string[]).includes(v)) {
    throw invalidOptions(options, 'fieldValidation', v, `supported values: ${['', ...FIELD_VALIDATION].map((x) => `"${x}"`).join(', ')}`);
  }
  return v as FieldValidation;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
}

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** DeleteOptions from the query string and the body (the body wins), validated. */
export function parseDeleteOptions(query: URLSearchParams, body: Buffer): DeleteOptions {
  let fromBody: Record<string, unknown> = {};
  if (body.length > 0) {
    let parsed: unknown;
    try {
      parsed = parseGoJson(body.toString('utf8'));
    } catch (e) {
      if (e instanceof GoJsonError) throw badRequest(e.message);
      throw e;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw badRequest('json: cannot unmarshal non-object into Go value of type v1.DeleteOptions');
    }
    fromBody = parsed as Record<string, unknown>;
  }
  if (query.has('dryRun') || fromBody.dryRun !== undefined) throw notModelled('dry-run (--dry-run=server)', 'use --dry-run=client');
  const opts: DeleteOptions = {};
  const grace = fromBody.gracePeriodSeconds ?? (query.has('gracePeriodSeconds') ? query.get('gracePeriodSeconds') : undefined);
  if (grace !== undefined && grace !== null) {
    const n = typeof grace === 'number' ? grace : /^-?\d+$/.test(String(grace)) ? Number(grace) : NaN;
    if (!Number.isInteger(n)) throw badRequest(`gracePeriodSeconds: invalid value ${JSON.stringify(grace)}: expected an integer`);
    opts.gracePeriodSeconds = n;
  }
  const policy = fromBody.propagationPolicy ?? query.get('propagationPolicy') ?? undefined;
  if (policy !== undefined && policy !== null) {
    if (!POLICIES.includes(String(policy))) {
      throw invalidOptions('DeleteOptions', 'propagationPolicy', policy, `supported values: ${POLICIES.map((p) => `"${p}"`).join(', ')}`);
    }
    opts.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  }
  const pre = fromBody.preconditions as DeleteOptions['preconditions'] | undefined;
  if (pre && typeof pre === 'object') opts.preconditions = pre;
  return opts;
}
