// field.Error and field.ErrorList: the validation errors the API server returns, with their exact wording, and the
// API's failure Statuses. The engine's API server needs them on its first load; validation.ts makes the errors.
// upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go

import type { ApiStatus } from '../types.ts';

export type FieldErrorType = 'Required' | 'Invalid' | 'NotSupported' | 'Duplicate' | 'NotFound' | 'Forbidden' | 'TooLong';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail?: string;
}

/** A value field errors print as Go wrote it (a struct's %#v), not as JSON. */
export class GoRepr {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** How field errors print a value: strings quoted (%q), numbers and booleans bare. */
export function formatValue(v: unknown): string {
  if (v instanceof GoRepr) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  return JSON.stringify(v);
}

// upstream: field/errors.go (*Error).ErrorBody
export function errorBody(e: FieldError): string {
  switch (e.type) {
    case 'Required':
      return `Required value${e.detail ? `: ${e.detail}` : ''}`;
    case 'Forbidden':
      return `Forbidden${e.detail ? `: ${e.detail}` : ''}`;
    case 'Invalid':
      return `Invalid value: ${formatValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'NotSupported':
      return `Unsupported value: ${formatValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'Duplicate':
      return `Duplicate value: ${formatValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'NotFound':
      return `Not found: ${formatValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'TooLong':
      return `Too long: ${e.detail ?? ''}`;
  }
}

export function errorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/** errors.NewInvalid: 422 with one cause per field error (each cause's reason is the error type: "FieldValue" + type). */
// upstream: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go NewInvalid
export function invalidStatus(kind: string, name: string, errs: FieldError[]): ApiStatus {
  const agg = errs.length === 1 ? errorString(errs[0]) : `[${errs.map(errorString).join(', ')}]`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: `${kind} "${name}" is invalid: ${agg}`,
    reason: 'Invalid',
    // StatusDetails' name and kind are omitempty
    details: { ...(name ? { name } : {}), ...(kind ? { kind } : {}), causes: errs.map((e) => ({ reason: `FieldValue${e.type}`, message: errorBody(e), field: e.field })) },
    code: 422,
  };
}

/**
 * errors.NewGenericServerResponse(422, ...) without a resource: how the API server answers a patch that does not apply
 * (json-patch's error, a strategic merge patch's list-of-lists). The library's message is not in it: kubectl prints
 * "The request is invalid: " and this message (its details name nothing and list no causes).
 */
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyJSPatch, interpretStrategicMergePatchError
export function unprocessableStatus(): ApiStatus {
  return {
    kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid', details: {}, code: 422,
  };
}

// upstream: errors.go NewNotFound / NewAlreadyExists / NewBadRequest
export function notFoundStatus(resource: string, name: string): ApiStatus {
  return {
    kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `${resource} "${name}" not found`, reason: 'NotFound',
    details: { name, kind: resource }, code: 404,
  };
}
export function alreadyExistsStatus(resource: string, name: string): ApiStatus {
  return {
    kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `${resource} "${name}" already exists`, reason: 'AlreadyExists',
    details: { name, kind: resource }, code: 409,
  };
}
export function badRequestStatus(message: string): ApiStatus {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'BadRequest', code: 400 };
}

/** A patched object renamed: the patch handler's checkName refuses it (a Bad Request), before any validation. */
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go checkName
export function renamedStatus(objectName: unknown, name: string): ApiStatus {
  return badRequestStatus(`the name of the object (${String(objectName ?? '')}) does not match the name on the URL (${name})`);
}
