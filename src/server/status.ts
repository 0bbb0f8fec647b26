// metav1.Status errors as the API server writes them, so kubectl prints its usual messages
// ("Error from server (NotFound): pods "x" not found"). The engine's own answers (NotFound,
// AlreadyExists, Invalid with field causes, BadRequest) pass through unchanged; this module adds the
// ones that belong to the HTTP layer (unknown path, verb, media type, malformed body).
// upstream: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewNotFound, NewMethodNotSupported,
// NewBadRequest, NewGenericServerResponse)

import type { ApiStatus } from '../sim/index.ts';

/** The Status object on the wire: the engine's ApiStatus plus the empty list metadata the server adds. */
export interface WireStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: ApiStatus['details'] & { group?: string };
  code: number;
}

/** An error the HTTP layer answers with: a code and the Status body. */
export class HttpError extends Error {
  readonly status: WireStatus;
  constructor(status: WireStatus) {
    super(status.message);
    this.status = status;
  }
}

export function toWire(s: ApiStatus): WireStatus {
  const { kind, apiVersion, status, message, reason, details, code } = s;
  return { kind, apiVersion, metadata: {}, status, message, reason, ...(details ? { details } : {}), code };
}

function failure(code: number, reason: string, message: string, details?: WireStatus['details']): HttpError {
  return new HttpError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

/** A path the server does not serve. */
export const pathNotFound = (): HttpError => failure(404, 'NotFound', 'the server could not find the requested resource', {});

/** A named object that does not exist: `pods "x" not found`. */
export const objectNotFound = (resource: string, name: string, group?: string): HttpError =>
  failure(404, 'NotFound', `${resource}${group ? `.${group}` : ''} ${JSON.stringify(name)} not found`, { name, ...(group ? { group } : {}), kind: resource });

/** A verb the resource does not support (POST to nodes, DELETE of events, ...). */
export const methodNotAllowed = (): HttpError =>
  failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export const badRequest = (message: string): HttpError => failure(400, 'BadRequest', message);

export const unsupportedMediaType = (accepted: string[]): HttpError =>
  failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);

export const notAcceptable = (accepted: string[]): HttpError =>
  failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);

/** 422 for a request parameter with a bad value (DeleteOptions, list options). */
export function invalidOptions(kind: string, field: string, value: unknown, detail: string): HttpError {
  // errors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: kind}, "", errs): the kind qualified by its group
  const message = `${field}: Unsupported value: ${JSON.stringify(value)}: ${detail}`;
  return failure(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${message}`, {
    group: 'meta.k8s.io',
    kind,
    causes: [{ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(value)}: ${detail}`, field }],
  });
}

/** What this simulation does not model, said plainly (400 rather than a silent no-op). */
export const notModelled = (what: string, instead?: string): HttpError =>
  failure(400, 'BadRequest', `podlife: ${what} is not supported by this simulation${instead ? `; ${instead}` : ''}`);

/** 409 for a failed precondition (DeleteOptions.preconditions). */
export const preconditionFailed = (resource: string, name: string, message: string): HttpError =>
  failure(409, 'Conflict', `Operation cannot be fulfilled on ${resource} ${JSON.stringify(name)}: ${message}`, { name, kind: resource });
