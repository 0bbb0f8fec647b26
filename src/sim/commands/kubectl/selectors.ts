// Label selectors (-l) and field selectors (--field-selector), evaluated the way the API server
// does for pods and events.
// upstream: k8s.io/apimachinery/pkg/labels selector.go (Parse); pkg/registry/core/pod/strategy.go
// PodToSelectableFields; pkg/registry/core/event/strategy.go ToSelectableFields

import type { Namespace } from '../../api/namespaces.ts';
import type { KubeEvent, Node, Pod } from '../../types.ts';
import { KubectlError, type ResourceKind } from './common.ts';

type Obj = Pod | KubeEvent | Node | Namespace;

interface Requirement {
  key: string;
  op: '=' | '!=' | 'exists' | '!exists';
  value: string;
}

function parseRequirements(selector: string, allowExists: boolean): Requirement[] {
  if (selector.trim() === '') return [];
  return selector.split(',').map((part) => {
    const s = part.trim();
    let m: RegExpExecArray | null;
    if ((m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(s))) {
      return { key: m[1], op: m[2] === '!=' ? '!=' : '=', value: m[3] };
    }
    if (allowExists && (m = /^!\s*([^=!\s]+)$/.exec(s))) return { key: m[1], op: '!exists', value: '' };
    if (allowExists && /^[^=!\s]+$/.test(s)) return { key: s, op: 'exists', value: '' };
    throw new KubectlError(`unable to parse requirement: found '${s}', expected: '=', '!=', '==', 'in', notin'`);
  });
}

const matches = (r: Requirement, value: string | undefined) =>
  r.op === '=' ? value === r.value
  : r.op === '!=' ? value !== r.value
  : r.op === 'exists' ? value !== undefined
  : value === undefined;

export function filterByLabels<T extends Obj>(items: T[], selector: string): T[] {
  const reqs = parseRequirements(selector, true);
  return items.filter((o) => reqs.every((r) => matches(r, o.metadata.labels?.[r.key])));
}

function podField(p: Pod, key: string): string | undefined {
  const fields: Record<string, string> = {
    'metadata.name': p.metadata.name,
    'metadata.namespace': p.metadata.namespace ?? 'default',
    'spec.nodeName': p.spec.nodeName ?? '',
    'spec.restartPolicy': p.spec.restartPolicy,
    'spec.schedulerName': p.spec.schedulerName,
    'spec.serviceAccountName': p.spec.serviceAccountName,
    'spec.hostNetwork': String(p.spec.hostNetwork ?? false),
    'status.phase': p.status.phase,
    'status.podIP': p.status.podIP ?? '',
    'status.nominatedNodeName': p.status.nominatedNodeName ?? '',
  };
  return fields[key];
}

function eventField(e: KubeEvent, key: string): string | undefined {
  const o = e.involvedObject;
  const fields: Record<string, string> = {
    'metadata.name': e.metadata.name,
    'metadata.namespace': e.metadata.namespace ?? 'default',
    'involvedObject.kind': o.kind,
    'involvedObject.namespace': o.namespace ?? '',
    'involvedObject.name': o.name,
    'involvedObject.uid': o.uid ?? '',
    'involvedObject.apiVersion': o.apiVersion ?? '',
    'involvedObject.resourceVersion': o.resourceVersion ?? '',
    'involvedObject.fieldPath': o.fieldPath ?? '',
    reason: e.reason,
    reportingComponent: e.reportingComponent,
    source: e.source.component,
    type: e.type,
  };
  return fields[key];
}

function nodeField(n: Node, key: string): string | undefined {
  const fields: Record<string, string> = {
    'metadata.name': n.metadata.name,
    'spec.unschedulable': String(n.spec.unschedulable ?? false),
  };
  return fields[key];
}

// upstream: pkg/registry/core/namespace/strategy.go NamespaceToSelectableFields
function namespaceField(n: Namespace, key: string): string | undefined {
  const fields: Record<string, string> = { 'metadata.name': n.metadata.name, 'status.phase': n.status.phase };
  return fields[key];
}

export function filterByFields<T extends Obj>(items: T[], kind: ResourceKind, selector: string): T[] {
  const reqs = parseRequirements(selector, false);
  const get = (o: Obj, key: string) =>
    kind === 'pods' ? podField(o as Pod, key)
    : kind === 'events' ? eventField(o as KubeEvent, key)
    : kind === 'nodes' ? nodeField(o as Node, key)
    : namespaceField(o as Namespace, key);
  const probe = items[0];
  for (const r of reqs) {
    const known = probe ? get(probe, r.key) !== undefined : get(sample(kind), r.key) !== undefined;
    if (!known) {
      const resource = kind === 'pods' ? 'pods' : kind;
      throw new KubectlError(
        `Error from server (BadRequest): Unable to find "/v1, Resource=${resource}" that match label selector "", field selector ${JSON.stringify(selector)}: field label not supported: ${r.key}`,
      );
    }
  }
  return items.filter((o) => reqs.every((r) => matches(r, get(o, r.key))));
}

/** A minimal object of each kind, to tell a supported field from an unsupported one. */
function sample(kind: ResourceKind): Obj {
  const metadata = { name: '', uid: '', resourceVersion: '', creationTimestamp: '' };
  if (kind === 'pods') {
    return { metadata, spec: { containers: [] }, status: { phase: 'Pending' } } as unknown as Pod;
  }
  if (kind === 'events') {
    return { metadata, involvedObject: { kind: '', name: '' }, source: { component: '' } } as unknown as KubeEvent;
  }
  if (kind === 'namespaces') return { metadata, spec: {}, status: { phase: 'Active' } } as unknown as Namespace;
  return { metadata, spec: {} } as unknown as Node;
}
