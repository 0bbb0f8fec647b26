// Label selectors (-l) and field selectors (--field-selector) for podlife's kubectl: evaluated as the API server
// evaluates a list's labelSelector and fieldSelector (src/sim/api/selectors.ts, shared with `podlife serve`), and a
// selector the server refuses printed as kubectl prints that list error.
// upstream: k8s.io/cli-runtime pkg/resource/helper.go EnhanceListError

import { SelectorError, fieldMatcher, labelMatcher } from '../../api/selectors.ts';
import { KubectlError, type ResourceKind } from './common.ts';

/**
 * The items of `kind` that match both selectors (either may be empty). A selector the API server cannot read is
 * its 400 BadRequest, with the message EnhanceListError gives it.
 */
export function select<T extends { metadata: { labels?: Record<string, string> } }>(items: T[], kind: ResourceKind, labelSelector: string, fieldSelector = ''): T[] {
  let labels: (l: Record<string, string> | undefined) => boolean;
  let fields: (o: unknown) => boolean;
  try {
    labels = labelMatcher(labelSelector);
    fields = fieldMatcher(kind, fieldSelector);
  } catch (e) {
    if (!(e instanceof SelectorError)) throw e;
    throw new KubectlError(
      `Error from server (BadRequest): Unable to find "/v1, Resource=${kind}" that match label selector ${JSON.stringify(labelSelector)}, field selector ${JSON.stringify(fieldSelector)}: ${e.message}`,
    );
  }
  if (!labelSelector && !fieldSelector) return items;
  return items.filter((o) => labels(o.metadata.labels) && fields(o));
}
