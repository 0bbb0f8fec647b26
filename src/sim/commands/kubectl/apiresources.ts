// `kubectl api-resources`: the resources the cluster serves (src/sim/api/resources.ts, the same table `podlife serve`
// answers discovery with), filtered by --api-group, --namespaced, --verbs and --categories, sorted, and printed as
// kubectl prints them: a table (-o wide adds VERBS and CATEGORIES) or -o name.
// upstream: kubectl pkg/cmd/apiresources/apiresources.go (v0.36.2: Complete, Validate, RunAPIResources,
//           sortableResource), print_flags.go (HumanReadablePrinter, NamePrinter, AllowedFormats)

import { RESOURCES } from '../../api/resources.ts';
import { KUBECTL_TABLE, tabulate } from '../../render/tabwriter.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import { KubectlError, out } from './common.ts';

export const API_RESOURCES_FLAGS: FlagSpec[] = [
  { name: 'api-group', type: 'string' },
  { name: 'namespaced', type: 'bool' },
  { name: 'verbs', type: 'stringArray' },
  { name: 'sort-by', type: 'string' },
  { name: 'cached', type: 'bool' },
  { name: 'categories', type: 'stringArray' },
  { name: 'output', shorthand: 'o', type: 'string' },
  { name: 'no-headers', type: 'bool' },
];

/** pflag's StringSlice: each occurrence a comma-separated list. */
const slice = (p: ParsedArgs, name: string): string[] => arr(p, name).flatMap((v) => v.split(',')).filter((v) => v !== '');

export function kubectlApiResources(p: ParsedArgs): CommandResult {
  if (p.args.length > 0) throw new KubectlError(`unexpected arguments: [${p.args.join(' ')}]\nSee 'kubectl api-resources -h' for help and examples`);
  const output = str(p, 'output');
  if (output === 'json' || output === 'yaml') {
    throw new KubectlError(`podlife: kubectl api-resources -o ${output} is not supported by this simulation (the table, -o wide and -o name are)`);
  }
  if (output !== '' && output !== 'wide' && output !== 'name') {
    throw new KubectlError(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: json,yaml,name,wide`);
  }
  const sortBy = str(p, 'sort-by');
  if (sortBy !== '' && sortBy !== 'name' && sortBy !== 'kind') throw new KubectlError('--sort-by accepts only name or kind');

  // every resource is in the core group, v1
  const group = '';
  const verbs = slice(p, 'verbs');
  const categories = slice(p, 'categories');
  const resources = RESOURCES.filter(
    (r) =>
      (!p.flags.has('api-group') || str(p, 'api-group') === group) &&
      (!p.flags.has('namespaced') || bool(p, 'namespaced') === r.namespaced) &&
      verbs.every((v) => r.verbs.includes(v)) &&
      categories.every((c) => (r.categories ?? []).includes(c)),
  );
  // sort.Stable: by the group (or the name, or the kind), then by name
  const key = (r: (typeof RESOURCES)[number]) => (sortBy === 'name' ? r.name : sortBy === 'kind' ? r.kind : group);
  const sorted = resources
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (key(a.r) < key(b.r) ? -1 : key(a.r) > key(b.r) ? 1 : a.r.name < b.r.name ? -1 : a.r.name > b.r.name ? 1 : a.i - b.i))
    .map(({ r }) => r);

  if (output === 'name') return out(sorted.map((r) => `${r.name}\n`).join(''));
  const wide = output === 'wide';
  const rows = sorted.map((r) => [
    r.name, r.shortNames.join(','), 'v1', String(r.namespaced), r.kind, ...(wide ? [r.verbs.join(','), (r.categories ?? []).join(',')] : []),
  ]);
  const headers = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])];
  return out(tabulate(bool(p, 'no-headers') ? rows : [headers, ...rows], KUBECTL_TABLE));
}
