// `kubectl get pods|events|nodes|namespaces|services|configmaps|secrets` with -o wide|yaml|json|name|jsonpath=...|
// custom-columns=..., --sort-by, -A, --field-selector, -l, -L, --show-labels, --show-kind, --no-headers.
// upstream: k8s.io/kubectl/pkg/cmd/get/get.go, sorter.go; server-side printing via
// pkg/printers/internalversion/printers.go (the rows come from ../../render/table.ts)

import type { ConfigObject, KubeEvent, Node, Pod } from '../../types.ts';
import { type Namespace, clusterNamespaces } from '../../api/namespaces.ts';
import type { Service } from '../../api/services.ts';
import { HEALTH_PATHS } from '../../api/resources.ts';
import { JsonPath, relaxedJsonPathExpression } from '../../render/jsonpath.ts';
import { sortedCopy } from '../../render/json.ts';
import { EVENT_COLUMNS, EVENT_WIDE_COLUMNS, POD_COLUMNS, POD_WIDE_COLUMNS, printEvent, printPod } from '../../render/table.ts';
import { NAMESPACE_COLUMNS, NODE_COLUMNS, NODE_WIDE_COLUMNS, printNamespace, printNode } from '../../render/cluster-table.ts';
import { SERVICE_COLUMNS, SERVICE_WIDE_COLUMNS, printService } from '../../render/service.ts';
import { CONFIGMAP_COLUMNS, SECRET_COLUMNS, printConfigMap, printSecret } from '../../render/config.ts';
import { formatLabels } from '../../render/describe.ts';
import { KUBECTL_TABLE, tabulate } from '../../render/tabwriter.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { type ExecContext, nowOf } from '../context.ts';
import {
  FILENAME_FLAGS, KubectlError, type ResourceKind, VisitErrors, checkNames, clusterScoped, configMapsIn, eventsIn, namespaceOf, nodesIn, notFound, out, podsIn,
  secretsIn, servicesIn, singular, typeGroups,
} from './common.ts';
import { asList, fileReader, parseOutput, PRINT_FLAGS, printObject } from './output.ts';
import { select } from './selectors.ts';
import { MANIFEST_KINDS, MANIFEST_RESOURCE, type ManifestKind, manifests, requireFilenames } from './files.ts';
import { getWatch } from './watch.ts';

export const GET_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  { name: 'watch', shorthand: 'w', type: 'bool' },
  { name: 'watch-only', type: 'bool' },
  { name: 'output-watch-events', type: 'bool' },
  { name: 'ignore-not-found', type: 'bool' },
  { name: 'label-columns', shorthand: 'L', type: 'stringArray' },
  { name: 'show-kind', type: 'bool' },
  { name: 'show-labels', type: 'bool' },
  { name: 'sort-by', type: 'string' },
  { name: 'field-selector', type: 'string' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'no-headers', type: 'bool' },
  { name: 'chunk-size', type: 'int' },
  { name: 'raw', type: 'string' },
  { name: 'server-print', type: 'bool' },
  { name: 'subresource', type: 'string' },
  ...FILENAME_FLAGS,
];

type Obj = Pod | KubeEvent | Node | Namespace | Service | ConfigObject;


/** The objects of one resource type in a namespace (all namespaces: undefined), as the API lists them. */
export function listOf(ctx: ExecContext, kind: ResourceKind, namespace: string | undefined): Obj[] {
  if (kind === 'pods') return podsIn(ctx, namespace);
  if (kind === 'nodes') return nodesIn(ctx);
  if (kind === 'namespaces') return clusterNamespaces(ctx.state.nodes);
  if (kind === 'services') return servicesIn(ctx, namespace);
  if (kind === 'configmaps') return configMapsIn(ctx, namespace);
  if (kind === 'secrets') return secretsIn(ctx, namespace);
  return eventsIn(ctx, namespace);
}

export function kubectlGet(p: ParsedArgs, ctx: ExecContext, stdin = ''): CommandResult {
  // upstream: get.go Complete (--raw returns before anything else is required) and Validate; rawhttp.RawGet
  const raw = str(p, 'raw');
  if (raw) return rawGet(p, raw);
  if (p.args.length === 0 && arr(p, 'filename').length === 0 && !str(p, 'kustomize')) {
    return out(
      '',
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n' +
        'error: Required resource not specified.\n' +
        'Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
        "See 'kubectl get -h' for help and examples\n",
      1,
    );
  }
  // upstream: get.go (*GetOptions).Validate
  const output = str(p, 'output');
  if (bool(p, 'show-labels') && output !== '' && output !== 'wide') throw new KubectlError(`--show-labels option cannot be used with ${output} printer`);
  if (bool(p, 'output-watch-events') && !bool(p, 'watch') && !bool(p, 'watch-only')) {
    throw new KubectlError('--output-watch-events option can only be used with --watch or --watch-only');
  }
  const watching = bool(p, 'watch') || bool(p, 'watch-only');
  if (str(p, 'subresource')) throw new KubectlError('podlife: kubectl get --subresource is not supported; -o yaml shows the whole pod');
  if (!bool(p, 'server-print', true)) throw new KubectlError("podlife: --server-print=false is not supported (the tables are the server's)");
  if (arr(p, 'filename').length > 0 || str(p, 'kustomize')) return getFromFiles(p, ctx, stdin, watching);
  const format = parseOutput(str(p, 'output'), bool(p, 'no-headers'), str(p, 'template'), bool(p, 'allow-missing-template-keys', true), fileReader(ctx));
  const groups = typeGroups(p.args);
  const allNamespaces = bool(p, 'all-namespaces');
  checkNames(groups, { selector: str(p, 'selector'), fieldSelector: str(p, 'field-selector'), allNamespaces });
  if (watching) return getWatch(p, ctx, format, groups);
  const sortBy = str(p, 'sort-by');
  const now = nowOf(ctx);

  // what each resource type finds: its objects (names in the order given), and an error per name not found
  let errors = '';
  const found = groups.map(({ kind, names }) => {
    const namespace = clusterScoped(kind) || allNamespaces ? undefined : namespaceOf(ctx, str(p, 'namespace'));
    let items = listOf(ctx, kind, namespace);
    if (names.length > 0) {
      const named: Obj[] = [];
      for (const name of names) {
        const o = items.find((x) => x.metadata.name === name);
        if (o) named.push(o);
        else if (!bool(p, 'ignore-not-found')) errors += notFound(kind, name);
      }
      items = named;
    }
    items = select(items, kind, str(p, 'selector'), str(p, 'field-selector'));
    if (sortBy) items = sortObjects(items, sortBy);
    return { kind, names, items };
  });
  const all = found.flatMap((g) => g.items);
  const exit = errors ? 1 : 0;
  const names = groups.reduce((n, g) => n + g.names.length, 0);

  if (format.kind !== 'table') {
    if (format.kind === 'name') {
      return out(found.map((g) => g.items.map((o) => `${singular[g.kind]}/${o.metadata.name}\n`).join('')).join(''), errors, exit);
    }
    // upstream: get.go printGeneric: one name given and not found is only the error; otherwise the found objects
    // (none, say) print as a List
    if (all.length === 0 && names === 1) return out('', errors, exit);
    const single = names === 1 && !sortBy && str(p, 'selector') === '' && all.length === 1;
    return out(printObject(single ? all[0] : asList(all), format), errors, exit);
  }

  // A list is fetched as one server-side Table per type (printed even when empty), named objects one by one: the
  // NAME column says the kind when these come from more than one type.
  // upstream: get.go Run (multipleGVKsRequested, the separator between resource groups, "No resources found")
  const kinds = new Set(found.filter((g) => g.names.length === 0 || g.items.length > 0).map((g) => g.kind));
  if (sortBy && kinds.size > 1) {
    throw new KubectlError(`couldn't find any field with path ${JSON.stringify(relaxedJsonPathExpression(sortBy))} in the list of objects`);
  }
  // -L app,tier: a column per label key, headed by its last path segment (formatLabelHeaders)
  const labelColumns = arr(p, 'label-columns').flatMap((l) => l.split(',')).filter((l) => l !== '');
  let text = '';
  for (const g of found) {
    if (g.items.length === 0) continue;
    if (text && !bool(p, 'no-headers')) text += '\n';
    text += table(g.kind, g.items, {
      wide: format.wide, now, withKind: kinds.size > 1 || bool(p, 'show-kind'), allNamespaces, noHeaders: bool(p, 'no-headers'),
      labelColumns, showLabels: bool(p, 'show-labels'),
    });
  }
  if (!text && !errors && !bool(p, 'ignore-not-found')) {
    // nothing written and no error: a namespaced list names its namespace (with a full stop); -A, or a cluster-scoped
    // kind (nodes) among the types asked for, prints the bare words
    const namespaced = !allNamespaces && !groups.some((g) => clusterScoped(g.kind));
    return out('', namespaced ? `No resources found in ${namespaceOf(ctx, str(p, 'namespace'))} namespace.\n` : 'No resources found\n', 0);
  }
  return out(text, errors, exit);
}

export interface TableOptions {
  wide: boolean;
  now: number;
  withKind: boolean;
  allNamespaces: boolean;
  noHeaders: boolean;
  labelColumns: string[];
  showLabels: boolean;
}

/** One resource type's table: its columns and rows, with NAMESPACE for -A, `kind/` before names, labels. */
function table(kind: ResourceKind, items: Obj[], o: TableOptions): string {
  const { headers, rows } = tableCells(kind, items, o);
  return tabulate(o.noHeaders ? rows : [headers, ...rows], KUBECTL_TABLE);
}

/** The cells of one resource type's table: the header line (upper case) and a row per object, each at `o.now`. */
export function tableCells(kind: ResourceKind, items: Obj[], o: TableOptions): { headers: string[]; rows: string[][] } {
  const { wide, now } = o;
  let headers: string[];
  let rows: string[][];
  if (kind === 'pods') {
    headers = wide ? POD_WIDE_COLUMNS : POD_COLUMNS;
    rows = (items as Pod[]).map((pod) => printPod(pod, now, wide));
  } else if (kind === 'events') {
    headers = wide ? EVENT_WIDE_COLUMNS : EVENT_COLUMNS;
    rows = (items as KubeEvent[]).map((e) => printEvent(e, now, wide));
  } else if (kind === 'nodes') {
    headers = wide ? NODE_WIDE_COLUMNS : NODE_COLUMNS;
    rows = (items as Node[]).map((n) => printNode(n, now, wide));
  } else if (kind === 'services') {
    headers = wide ? SERVICE_WIDE_COLUMNS : SERVICE_COLUMNS;
    rows = (items as Service[]).map((s) => printService(s, now, wide));
  } else if (kind === 'configmaps') {
    // no column of priority 1: -o wide prints the same table
    headers = CONFIGMAP_COLUMNS;
    rows = (items as ConfigObject[]).map((c) => printConfigMap(c, now));
  } else if (kind === 'secrets') {
    headers = SECRET_COLUMNS;
    rows = (items as ConfigObject[]).map((c) => printSecret(c, now));
  } else {
    headers = NAMESPACE_COLUMNS;
    rows = (items as Namespace[]).map((n) => printNamespace(n, now));
  }
  if (o.withKind) {
    // the column of the object's name (the events table has one only with -o wide)
    const at = headers.indexOf('Name');
    if (at >= 0) rows = rows.map((r) => r.map((cell, i) => (i === at ? `${singular[kind]}/${cell}` : cell)));
  }
  if (o.labelColumns.length > 0) {
    headers = [...headers, ...o.labelColumns.map((l) => l.slice(l.lastIndexOf('/') + 1))];
    rows = rows.map((r, i) => [...r, ...o.labelColumns.map((l) => items[i].metadata.labels?.[l] ?? '')]);
  }
  if (o.showLabels) {
    headers = [...headers, 'Labels'];
    rows = rows.map((r, i) => [...r, formatLabels(items[i].metadata.labels)]);
  }
  const namespaces = o.allNamespaces && !clusterScoped(kind) ? items.map((x) => (x as Pod | KubeEvent).metadata.namespace ?? 'default') : undefined;
  return {
    headers: [...(namespaces ? ['NAMESPACE'] : []), ...headers.map((h) => h.toUpperCase())],
    rows: namespaces ? rows.map((r, i) => [namespaces[i], ...r]) : rows,
  };
}

/**
 * --sort-by: compare the first JSONPath result of each object (numbers numerically, strings
 * byte-wise, timestamps as strings in RFC 3339, which sorts chronologically); objects without the
 * field sort first. Stable, like Go's insertion sort for the short lists kubectl sorts here.
 * upstream: k8s.io/kubectl/pkg/cmd/get/sorter.go (TableSorter, isLess)
 */
function sortObjects<T>(items: T[], sortBy: string): T[] {
  const path = new JsonPath(relaxedJsonPathExpression(sortBy), { allowMissingKeys: true });
  const keys = items.map((o) => {
    const r = path.findResults(sortedCopy(o));
    return r.length > 0 && r[0].length > 0 ? r[0][0].v : undefined;
  });
  if (items.length > 0 && keys.every((k) => k === undefined)) {
    throw new KubectlError(`couldn't find any field with path ${JSON.stringify(relaxedJsonPathExpression(sortBy))} in the list of objects`);
  }
  // a missing field sorts first, and so does a null one (isLess of two interfaces: nil is less than a value)
  const less = (a: unknown, b: unknown): boolean => {
    if (a === undefined) return true;
    if (b === undefined) return false;
    if (a === null || b === null) return a === null && b !== null;
    if (typeof a === 'number' && typeof b === 'number') return a < b;
    return String(a) < String(b);
  };
  const idx = items.map((_, i) => i);
  idx.sort((i, j) => (keys[i] === undefined && keys[j] === undefined ? i - j : less(keys[i], keys[j]) ? -1 : less(keys[j], keys[i]) ? 1 : i - j));
  return idx.map((i) => items[i]);
}

/**
 * `kubectl get -f FILE`: the pods the files name, fetched from the server (a missing one is NotFound) and printed as
 * `get pods NAME...` prints them. A single file implies a single item (singleItemImplied): with -o yaml, json, name or
 * a template, an error is printed alone, without the objects found.
 */
// upstream: kubectl pkg/cmd/get/get.go Run, printGeneric; cli-runtime pkg/resource/builder.go (singleItemImplied)
function getFromFiles(p: ParsedArgs, ctx: ExecContext, stdin: string, watching: boolean): CommandResult {
  if (p.args.length > 0) throw new KubectlError('when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well');
  const files = requireFilenames(p);
  const names: string[] = [];
  const namespaces = new Set<string>();
  const kinds = new Set<ResourceKind>();
  const errors = new VisitErrors();
  const format = parseOutput(str(p, 'output'), bool(p, 'no-headers'), str(p, 'template'), bool(p, 'allow-missing-template-keys', true), fileReader(ctx));
  const live = (kind: ManifestKind, ns: string, name: string) => listOf(ctx, MANIFEST_RESOURCE[kind], ns).find((x) => x.metadata.name === name);
  // -l selects among the objects fetched (a missing one is still NotFound). For a table those are the server's
  // Table objects, which have no labels: kubectl 1.32 to 1.36 select none of them
  const selector = str(p, 'selector');
  const selected = (kind: ManifestKind): Obj[] => (format.kind === 'table' && selector ? [] : select(listOf(ctx, MANIFEST_RESOURCE[kind], undefined), MANIFEST_RESOURCE[kind], selector));
  const visited = manifests(p, ctx, stdin, 'getting', { mismatch: (ns, name, kind) => live(kind, ns, name) !== undefined, select: false, kinds: MANIFEST_KINDS });
  for (const m of visited) {
    if (typeof m === 'string') errors.add(m);
    else {
      const found = live(m.kind, m.namespace, m.name);
      if (found && !selected(m.kind).includes(found)) continue;
      names.push(m.name);
      namespaces.add(m.namespace);
      kinds.add(MANIFEST_RESOURCE[m.kind]);
    }
  }
  if (namespaces.size > 1) throw new KubectlError(`podlife: kubectl get -f with objects in several namespaces (${[...namespaces].join(', ')}) is not supported; get each namespace's objects by name`);
  if (kinds.size > 1) throw new KubectlError(`podlife: kubectl get -f with objects of several kinds (${[...kinds].join(', ')}) is not supported; get each kind's objects by name`);
  const kind = [...kinds][0] ?? 'pods';
  const namespace = [...namespaces][0] ?? namespaceOf(ctx, str(p, 'namespace'));
  const flags = new Map(p.flags);
  flags.delete('filename');
  flags.delete('selector');
  flags.set('namespace', namespace);
  // -w: the objects of the files, watched as one source per file (get.go watch; the builder fetches them first, so
  // a missing one is the error alone)
  if (watching) {
    if (errors.size) return out('', errors.text(), 1);
    // (kubectl itself stops here on an index out of range: its watch takes the first object without a check)
    if (names.length === 0) throw new KubectlError('podlife: the files have no pod to watch');
    return getWatch({ ...p, args: [kind, ...names], flags }, ctx, format, [{ kind, names }], files.length);
  }
  if (names.length === 0) {
    if (errors.size) return out('', errors.text(), 1);
    return format.kind === 'table' ? out('', `No resources found in ${namespace} namespace.\n`) : out(format.kind === 'name' ? '' : printObject(asList([]), format));
  }
  const r = kubectlGet({ ...p, args: [kind, ...names], flags }, ctx);
  const stderr = r.stderr + errors.text();
  const failed = r.exitCode !== 0 || errors.size > 0;
  const single = files.length === 1 && files[0] !== '-' && !bool(p, 'recursive');
  if (failed && single && format.kind !== 'table') return out('', stderr, 1);
  return out(r.stdout, stderr, failed ? 1 : 0);
}

/** `kubectl get --raw PATH`: the flags it excludes, then the body of a GET of the path (a health endpoint's "ok", copied out as it is). */
function rawGet(p: ParsedArgs, raw: string): CommandResult {
  if (p.args.length > 0) throw new KubectlError('arguments may not be passed when --raw is specified');
  if (bool(p, 'watch') || bool(p, 'watch-only') || str(p, 'selector')) {
    throw new KubectlError('--raw may not be specified with other flags that filter the server request or alter the output');
  }
  if (str(p, 'output')) throw new KubectlError('--raw and --output are mutually exclusive');
  // url.ParseRequestURI: an absolute path or an absolute URL
  if (!raw.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(raw)) throw new KubectlError(`--raw must be a valid URL path: parse ${JSON.stringify(raw)}: invalid URI for request`);
  const [path, query] = raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split('?');
  if (HEALTH_PATHS.includes(path)) {
    const q = new URLSearchParams(query ?? '');
    if (q.has('verbose') || q.has('exclude')) throw new KubectlError(`podlife: ${path}?${query}: the API server's list of health checks is not modelled; ${path} answers "ok"`);
    return out('ok');
  }
  throw new KubectlError(`podlife: kubectl get --raw answers ${HEALTH_PATHS.join(', ')} in this simulation; podlife serve answers every API path (kubectl get --raw ${raw} against it)`);
}
