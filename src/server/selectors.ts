// labelSelector and fieldSelector query parameters, evaluated as the API server does: label selectors
// with =, ==, !=, in, notin, exists and !exists; field selectors with =, == and != over the fields each
// resource registers as selectable (anything else is 400 "field label not supported").
// upstream: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Parse); pkg/fields/selector.go
// (ParseSelector, escaping); pkg/registry/core/pod/strategy.go PodToSelectableFields; pkg/registry/core/event/
// strategy.go ToSelectableFields; pkg/registry/core/node/strategy.go; pkg/registry/core/namespace/strategy.go

import { badRequest } from './status.ts';

type Obj = { metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

export type Matcher = (o: Obj) => boolean;

interface LabelRequirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists' | 'gt' | 'lt';
  values: string[];
}

/** Split on commas that are not inside parentheses. */
function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts;
}

function parseLabelRequirement(raw: string, selector: string): LabelRequirement {
  const s = raw.trim();
  let m: RegExpExecArray | null;
  if ((m = /^!\s*([^\s=!(),<>]+)$/.exec(s))) return { key: m[1], op: '!exists', values: [] };
  if ((m = /^([^\s=!(),<>]+)$/.exec(s))) return { key: m[1], op: 'exists', values: [] };
  if ((m = /^([^\s=!(),<>]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(s))) {
    return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]] };
  }
  if ((m = /^([^\s=!(),<>]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(s))) {
    return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((v) => v.trim()) };
  }
  if ((m = /^([^\s=!(),<>]+)\s*([<>])\s*(-?\d+)$/.exec(s))) return { key: m[1], op: m[2] === '>' ? 'gt' : 'lt', values: [m[3]] };
  throw badRequest(`unable to parse requirement: found '${s}' in label selector ${JSON.stringify(selector)}`);
}

/** A labelSelector query parameter as a predicate. */
export function labelMatcher(selector: string | null): Matcher {
  if (!selector || selector.trim() === '') return () => true;
  const reqs = splitTop(selector).map((r) => parseLabelRequirement(r, selector));
  return (o) =>
    reqs.every((r) => {
      const v = o.metadata.labels?.[r.key];
      switch (r.op) {
        case 'exists':
          return v !== undefined;
        case '!exists':
          return v === undefined;
        case 'in':
          return v !== undefined && r.values.includes(v);
        case 'notin':
          return v === undefined || !r.values.includes(v);
        case 'gt':
          return v !== undefined && Number(v) > Number(r.values[0]);
        case 'lt':
          return v !== undefined && Number(v) < Number(r.values[0]);
      }
    });
}

/** The selectable fields of each resource, as strings (booleans as "true"/"false"). */
type FieldSet = (o: any) => Record<string, string>;

const meta = (o: Obj, namespaced: boolean): Record<string, string> => ({
  'metadata.name': o.metadata.name,
  ...(namespaced ? { 'metadata.namespace': o.metadata.namespace ?? '' } : {}),
});

const FIELDS: Record<string, FieldSet> = {
  pods: (p) => ({
    ...meta(p, true),
    'spec.nodeName': p.spec.nodeName ?? '',
    'spec.restartPolicy': p.spec.restartPolicy ?? '',
    'spec.schedulerName': p.spec.schedulerName ?? '',
    'spec.serviceAccountName': p.spec.serviceAccountName ?? '',
    'spec.hostNetwork': String(p.spec.hostNetwork ?? false),
    'status.phase': p.status?.phase ?? '',
    'status.podIP': p.status?.podIP ?? '',
    'status.nominatedNodeName': p.status?.nominatedNodeName ?? '',
  }),
  events: (e) => ({
    ...meta(e, true),
    'involvedObject.kind': e.involvedObject.kind ?? '',
    'involvedObject.namespace': e.involvedObject.namespace ?? '',
    'involvedObject.name': e.involvedObject.name ?? '',
    'involvedObject.uid': e.involvedObject.uid ?? '',
    'involvedObject.apiVersion': e.involvedObject.apiVersion ?? '',
    'involvedObject.resourceVersion': e.involvedObject.resourceVersion ?? '',
    'involvedObject.fieldPath': e.involvedObject.fieldPath ?? '',
    reason: e.reason ?? '',
    reportingComponent: e.reportingComponent ?? '',
    source: e.source?.component ?? '',
    type: e.type ?? '',
  }),
  nodes: (n) => ({ ...meta(n, false), 'spec.unschedulable': String(n.spec?.unschedulable ?? false) }),
  namespaces: (n) => ({ ...meta(n, false), 'status.phase': n.status?.phase ?? '' }),
};

/** An object with every part the field sets read, to learn which field labels a resource supports. */
const EMPTY = { metadata: { name: '' }, spec: {}, status: {}, involvedObject: {}, source: {} };

/** Split a field selector on unescaped commas and unescape `\,` `\=` `\\` (fields.ParseSelector). */
function splitFields(s: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[++i];
    } else if (c === ',') {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  return parts.filter((p) => p !== '');
}

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

/** A fieldSelector query parameter as a predicate over objects of `resource`. */
export function fieldMatcher(resource: string, selector: string | null): Matcher {
  if (!selector || selector.trim() === '') return () => true;
  const fields = FIELDS[resource];
  const reqs = splitFields(selector).map((part) => {
    const m = /^(.*?)(!=|==|=)(.*)$/.exec(part);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    return { key: unescape(m[1]), neg: m[2] === '!=', value: unescape(m[3]) };
  });
  const supported = fields(EMPTY);
  for (const r of reqs) if (!(r.key in supported)) throw badRequest(`field label not supported: ${r.key}`);
  return (o) => {
    const values = fields(o);
    return reqs.every((r) => (r.neg ? values[r.key] !== r.value : values[r.key] === r.value));
  };
}
