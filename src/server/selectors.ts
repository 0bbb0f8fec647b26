// labelSelector and fieldSelector query parameters, evaluated as the API server does (src/sim/api/selectors.ts:
// labels.Parse and fields.ParseSelector, with the resources' selectable fields); a selector it cannot read is
// 400 BadRequest with the parser's message.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go (DecodeParameters → NewBadRequest)

import { SelectorError, type SelectableResource, fieldMatcher as fields, labelMatcher as labels } from '../sim/api/selectors.ts';
import { badRequest } from './status.ts';

type Obj = { metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

export type Matcher = (o: Obj) => boolean;

function orBadRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof SelectorError) throw badRequest(e.message);
    throw e;
  }
}

/** A labelSelector query parameter as a predicate. */
export function labelMatcher(selector: string | null): Matcher {
  const matches = orBadRequest(() => labels(selector));
  return (o) => matches(o.metadata.labels);
}

/** A fieldSelector query parameter as a predicate over objects of `resource`. */
export function fieldMatcher(resource: string, selector: string | null): Matcher {
  return orBadRequest(() => fields(resource as SelectableResource, selector));
}
