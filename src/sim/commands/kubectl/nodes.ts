// kubectl label, annotate (pods and nodes), cordon, uncordon and taint (nodes): the commands that change an object's
// metadata or a node's scheduling, each computing its patch from the object as it is now, as kubectl does.
// upstream: k8s.io/kubectl v0.36.2 pkg/cmd/label/label.go, pkg/cmd/annotate/annotate.go, pkg/cmd/drain/drain.go
//           (RunCordonOrUncordon), pkg/drain/cordon.go, pkg/cmd/taint/taint.go + utils.go, pkg/cmd/util/helpers.go
//           (GetResourcesAndPairs, ParsePairs)

import type { ApplyResult, Node, Pod, Taint } from '../../types.ts';
import { isQualifiedName, isValidLabelValue } from '../../api/validation.ts';
import type { Service } from '../../api/services.ts';
import { bool, type FlagSpec, int, type ParsedArgs, str } from '../flags.ts';
import { type CommandResult, type Write, fromWrites } from '../shell.ts';
import { type ExecContext, nowOf } from '../context.ts';
import { parseRfc3339 } from '../../render/clock.ts';
import {
  apiErrorText, FILENAME_FLAGS, KubectlError, namespaceOf, nodesIn, notFound, out, podsIn, type ResourceKind, singular, submit, typeAndNames, typeGroups,
} from './common.ts';
import { select } from './selectors.ts';
import { listOf } from './get.ts';
import { SelectorError, parseLabelSelector } from '../../api/selectors.ts';
import { dryRun } from './mutate.ts';
import { fileReader, OBJECT_FORMATS, objectOutput, type OutputFormat, PRINT_FLAGS, printObject } from './output.ts';

export const CHANGE_PRINT_FLAGS: FlagSpec[] = [
  ...PRINT_FLAGS,
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'field-manager', type: 'string' },
];

export const LABEL_FLAGS: FlagSpec[] = [
  ...CHANGE_PRINT_FLAGS,
  { name: 'overwrite', type: 'bool' },
  { name: 'list', type: 'bool' },
  { name: 'local', type: 'bool' },
  { name: 'all', type: 'bool' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'field-selector', type: 'string' },
  { name: 'resource-version', type: 'string' },
  ...FILENAME_FLAGS,
];
export const ANNOTATE_FLAGS = LABEL_FLAGS;

export const CORDON_FLAGS: FlagSpec[] = [
  { name: 'dry-run', type: 'string', noOptDefault: 'unchanged' },
  { name: 'selector', shorthand: 'l', type: 'string' },
];

export const DRAIN_FLAGS: FlagSpec[] = [
  ...CORDON_FLAGS,
  { name: 'force', type: 'bool' },
  { name: 'ignore-daemonsets', type: 'bool' },
  { name: 'delete-emptydir-data', type: 'bool' },
  { name: 'grace-period', type: 'int' },
  { name: 'timeout', type: 'duration' },
  { name: 'pod-selector', type: 'string' },
  { name: 'disable-eviction', type: 'bool' },
  { name: 'skip-wait-for-delete-timeout', type: 'int' },
  { name: 'chunk-size', type: 'int' },
];

export const TAINT_FLAGS: FlagSpec[] = [
  ...CHANGE_PRINT_FLAGS,
  { name: 'overwrite', type: 'bool' },
  { name: 'all', type: 'bool' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'validate', type: 'string', noOptDefault: 'strict' },
];

type Target = Pod | Node | Service;

/** --dry-run for these commands: client is printed with " (dry run)"; server is not modelled. */
export function dryRunOf(p: ParsedArgs): 'none' | 'client' {
  const mode = dryRun(p);
  if (mode === 'server') throw new KubectlError('podlife: --dry-run=server is not supported by this simulation (--dry-run=client is)');
  return mode;
}

/** Flags the model cannot honour: a clear refusal instead of a silent drop. */
function refuseUnmodelled(p: ParsedArgs, verb: string): void {
  if (bool(p, 'local') || (p.flags.get('filename') as string[] | undefined)?.length || str(p, 'kustomize')) {
    throw new KubectlError(`podlife: kubectl ${verb} -f/-k/--local (objects from files) is not supported by this simulation; name the objects`);
  }
  if (str(p, 'field-selector')) throw new KubectlError(`podlife: kubectl ${verb} --field-selector is not supported by this simulation (-l is)`);
}

/**
 * The objects the arguments name, each with its type: `TYPE NAME...`, `TYPE/NAME...`, or `TYPE` (several: `all`) with
 * -l/--all. Missing names stay as errors. Services can be named (a client-side dry run and --list change nothing);
 * changing one is refused where the patch would be sent. `anyKind`: every type the model has (kubectl set image,
 * which says itself what it cannot change); else pods, nodes and services.
 */
export function targets(ctx: ExecContext, p: ParsedArgs, resources: string[], anyKind = false): { found: { kind: ResourceKind; o: Target }[]; errors: string; single: boolean } {
  const groups = typeGroups(resources);
  const found: { kind: ResourceKind; o: Target }[] = [];
  let errors = '';
  for (const { kind, names } of groups) {
    if (!anyKind && kind !== 'pods' && kind !== 'nodes' && kind !== 'services') throw new KubectlError(`podlife: changing ${kind} is not supported by this simulation (pods and nodes are)`);
    const all = listOf(ctx, kind, bool(p, 'all-namespaces') ? undefined : namespaceOf(ctx, str(p, 'namespace'))) as Target[];
    if (names.length === 0) {
      if (!bool(p, 'all') && !str(p, 'selector')) throw new KubectlError('resource(s) were provided, but no name was specified');
      for (const o of select(all, kind, str(p, 'selector'))) found.push({ kind, o });
      continue;
    }
    for (const name of names) {
      const o = all.find((x) => x.metadata.name === name);
      if (o) found.push({ kind, o });
      else errors += notFound(kind, name);
    }
  }
  const names = groups.reduce((n, g) => n + g.names.length, 0);
  return { found, errors, single: names === 1 && resources.length <= 2 };
}

function patchOf(ctx: ExecContext, kind: ResourceKind, o: Target, patchType: 'merge' | 'strategic', patch: unknown): ApplyResult<Pod> | ApplyResult<Node> {
  return kind === 'nodes'
    ? submit(ctx, { type: 'patch', kind: 'Node', name: o.metadata.name, patchType, patch })
    : submit(ctx, { type: 'patch', kind: 'Pod', namespace: o.metadata.namespace ?? 'default', name: o.metadata.name, patchType, patch });
}

/** -o for a changed object: undefined for the "kind/name operation" line; kubectl's error for a table format. */
function objectFormat(p: ParsedArgs, ctx: ExecContext): OutputFormat | undefined {
  const o = str(p, 'output');
  if (!o && !str(p, 'template')) return undefined;
  if (o && !OBJECT_FORMATS.split(',').includes(o.split('=')[0])) {
    throw new KubectlError(`unable to match a printer suitable for the output format ${JSON.stringify(o)}, allowed formats are: ${OBJECT_FORMATS}`);
  }
  return objectOutput(p, fileReader(ctx));
}

/** `kind/name operation`, or the object in the -o format; " (dry run)" after a client-side dry run. */
export function printed(p: ParsedArgs, ctx: ExecContext, kind: ResourceKind, obj: Target, operation: string, dry: boolean): string {
  const name = `${singular[kind]}/${obj.metadata.name}`;
  const format = objectFormat(p, ctx);
  if (format) return printObject(obj, format, name);
  return `${name} ${operation}${dry ? ' (dry run)' : ''}\n`;
}

// upstream: label.go parseLabels
function parseLabelArgs(spec: string[]): { add: Map<string, string>; remove: string[] } {
  const add = new Map<string, string>();
  const remove: string[] = [];
  for (const s of spec) {
    if (s.includes('=')) {
      const parts = s.split('=');
      if (parts.length !== 2) throw new KubectlError(`invalid label spec: ${s}`);
      const errs = isValidLabelValue(parts[1]);
      if (errs.length) throw new KubectlError(`invalid label value: ${JSON.stringify(s)}: ${errs.join(';')}`);
      add.set(parts[0], parts[1]);
    } else if (s.endsWith('-')) remove.push(s.slice(0, -1));
    else throw new KubectlError(`unknown label spec: ${s}`);
  }
  if (remove.some((k) => add.has(k))) throw new KubectlError('can not both modify and remove a label in the same command');
  return { add, remove };
}

// upstream: helpers.go ParsePairs(args, "annotation", true)
function parseAnnotationArgs(spec: string[]): { add: Map<string, string>; remove: string[] } {
  const add = new Map<string, string>();
  const remove: string[] = [];
  const invalid: string[] = [];
  for (const s of spec) {
    const eq = s.indexOf('=');
    if (eq > 0) add.set(s.slice(0, eq), s.slice(eq + 1));
    else if (s.endsWith('-') && s !== '-') remove.push(s.slice(0, -1));
    else invalid.push(s);
  }
  if (invalid.length) throw new KubectlError(`invalid annotation format: ${invalid.join(', ')}`);
  const both = remove.filter((k) => add.has(k));
  if (both.length) throw new KubectlError(`can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}`);
  return { add, remove };
}

// upstream: helpers.go GetResourcesAndPairs
export function resourcesAndPairs(args: string[], pairType: string): { resources: string[]; pairs: string[] } {
  const resources: string[] = [];
  const pairs: string[] = [];
  for (const s of args) {
    const pair = (s.includes('=') && s[0] !== '=') || (s.endsWith('-') && s !== '-');
    if (pair) pairs.push(s);
    else if (pairs.length) throw new KubectlError(`all resources must be specified before ${pairType} changes: ${s}`);
    else resources.push(s);
  }
  return { resources, pairs };
}

/** kubectl label / annotate: one merge patch per object, computed from its current metadata. */
function labelOrAnnotate(p: ParsedArgs, ctx: ExecContext, field: 'labels' | 'annotations'): CommandResult {
  const verb = field === 'labels' ? 'label' : 'annotate';
  const pairType = field === 'labels' ? 'label' : 'annotation';
  const { resources, pairs } = resourcesAndPairs(p.args, pairType);
  const { add, remove } = field === 'labels' ? parseLabelArgs(pairs) : parseAnnotationArgs(pairs);
  const list = bool(p, 'list');
  if (list && str(p, 'output')) throw new KubectlError('--list and --output may not be specified together');
  if (bool(p, 'all') && str(p, 'selector')) throw new KubectlError('cannot set --all and --selector at the same time');
  if (resources.length < 1) throw new KubectlError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  if (add.size < 1 && remove.length < 1 && !list) throw new KubectlError(`at least one ${pairType} update is required`);
  refuseUnmodelled(p, verb);
  // annotate makes its printer first; label makes it for each object, after its patch (a bad -o fails late)
  if (field === 'annotations') objectFormat(p, ctx);
  const dry = dryRunOf(p) === 'client';
  const { found, errors, single } = targets(ctx, p, resources);
  const rv = str(p, 'resource-version');
  if (rv && !single) throw new KubectlError('--resource-version may only be used with a single resource');
  let stdout = '';
  let stderr = errors;
  for (const { kind, o } of found) {
    const current: Record<string, string> = o.metadata[field] ?? {};
    // label: --overwrite is needed to change a value (one error per key); annotate: all of them in one message
    const clashes = [...add].filter(([k, v]) => current[k] !== undefined && current[k] !== v);
    if (!bool(p, 'overwrite') && clashes.length) {
      if (field === 'labels') {
        const errs = clashes.map(([k]) => `'${k}' already has a value (${current[k]}), and --overwrite is false`);
        stderr += `error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}\n`;
      } else {
        stderr += `error: --overwrite is false but found the following declared annotation(s): ${clashes.map(([k]) => `'${k}' already has a value (${current[k]})`).join('; ')}\n`;
      }
      continue;
    }
    const changes: Record<string, string | null> = {};
    let added = 0;
    let removed = 0;
    for (const [k, v] of add) if (current[k] !== v) (changes[k] = v), added++;
    for (const k of remove) {
      if (current[k] !== undefined) (changes[k] = null), removed++;
      else if (field === 'labels' && !dry && !list) stdout += `label ${JSON.stringify(k)} not found.\n`;
    }
    // label.go updateDataChangeMsg; annotate always says "annotated"
    const operation = field === 'annotations' ? 'annotated'
      : added && removed ? 'modified' : added ? 'labeled' : removed ? 'unlabeled' : 'not labeled';
    const preview = (): Target => {
      const next: Record<string, string> = { ...current };
      for (const [k, v] of Object.entries(changes)) if (v === null) delete next[k]; else next[k] = v;
      return { ...o, metadata: { ...o.metadata, [field]: next } } as Target;
    };
    // --list: the object with the changes made locally, nothing sent. kubectl ranges over the map (Go's order, random
    // from run to run); a deterministic model prints the keys sorted (documented in content/scenarios/README.md)
    if (list) {
      const next = preview().metadata[field] ?? {};
      const entries = Object.keys(next).sort().map((k) => `${single ? '' : ' '}${k}=${next[k]}\n`);
      stdout += `${single ? '' : `Listing ${field} for ${o.kind}./${o.metadata.name}:\n`}${entries.join('')}`;
      continue;
    }
    if (dry || (field === 'labels' && added + removed === 0)) {
      stdout += printed(p, ctx, kind, dry ? preview() : o, operation, dry);
      continue;
    }
    if (kind === 'services') {
      stderr += `error: podlife: the cluster's services are fixed and cannot be changed (service ${JSON.stringify(o.metadata.name)}); --dry-run=client shows what would be sent\n`;
      continue;
    }
    const r = patchOf(ctx, kind, o, 'merge', { metadata: { [field]: changes, ...(rv ? { resourceVersion: rv } : {}) } });
    if (!r.ok) {
      stderr += r.status.reason === 'NotFound' ? notFound(kind, o.metadata.name) : apiErrorText(r.status);
      continue;
    }
    stdout += printed(p, ctx, kind, r.object, operation, false);
  }
  return out(stdout, stderr, stderr ? 1 : 0);
}

export function kubectlLabel(p: ParsedArgs, ctx: ExecContext): CommandResult {
  return labelOrAnnotate(p, ctx, 'labels');
}

export function kubectlAnnotate(p: ParsedArgs, ctx: ExecContext): CommandResult {
  return labelOrAnnotate(p, ctx, 'annotations');
}

/**
 * kubectl cordon / uncordon (and drain's first step): set or clear spec.unschedulable with a strategic merge patch
 * (drain.CordonHelper). Returns what it printed and the nodes it worked on, or the result that ends the command.
 */
// upstream: drain.go (*DrainCmdOptions).Complete (all the nodes are looked up first: one missing fails the command),
//           RunCordonOrUncordon
function cordonNodes(p: ParsedArgs, ctx: ExecContext, desired: boolean, verb: string): { stdout: string; stderr: string; nodes: Node[] } | CommandResult {
  const what = desired ? 'cordon' : 'uncordon';
  if (p.args.length === 0 && !p.flags.has('selector')) throw new KubectlError(`USAGE: ${verb} NODE [flags]`, verb);
  if (p.args.length > 0 && str(p, 'selector')) throw new KubectlError('error: cannot specify both a node name and a --selector option', verb);
  const dry = dryRunOf(p) === 'client';
  // drain's Complete: --pod-selector must parse, before any node is looked up
  if (verb === 'drain' && str(p, 'pod-selector')) {
    try {
      parseLabelSelector(str(p, 'pod-selector'));
    } catch (e) {
      if (e instanceof SelectorError) throw new KubectlError('--pod-selector=<pod_selector> must be a valid label selector');
      throw e;
    }
  }
  const all = nodesIn(ctx);
  let nodes: Node[] = [];
  if (p.args.length > 0) {
    for (const arg of p.args) {
      const slash = arg.indexOf('/');
      if (slash >= 0 && !['node', 'nodes', 'no'].includes(arg.slice(0, slash).toLowerCase())) {
        throw new KubectlError(`error: expected resource of type node, got ${JSON.stringify(arg.slice(0, slash))}`);
      }
      const name = arg.slice(slash + 1);
      const node = all.find((n) => n.metadata.name === name);
      if (!node) return out('', notFound('nodes', name), 1);
      nodes.push(node);
    }
  } else nodes = select(all, 'nodes', str(p, 'selector'));
  let stdout = '';
  let stderr = '';
  for (const node of nodes) {
    const name = `node/${node.metadata.name}`;
    if ((node.spec.unschedulable === true) === desired) {
      stdout += `${name} already ${what}ed${dry ? ' (dry run)' : ''}\n`;
      continue;
    }
    if (!dry) {
      const r = submit(ctx, { type: 'patch', kind: 'Node', name: node.metadata.name, patchType: 'strategic', patch: { spec: { unschedulable: desired ? true : null } } });
      if (!r.ok) {
        stderr += `error: unable to ${what} node ${JSON.stringify(node.metadata.name)}: ${r.status.message}\n`;
        continue;
      }
    }
    stdout += `${name} ${what}ed${dry ? ' (dry run)' : ''}\n`;
  }
  return { stdout, stderr, nodes };
}

function cordonOrUncordon(p: ParsedArgs, ctx: ExecContext, desired: boolean): CommandResult {
  const r = cordonNodes(p, ctx, desired, desired ? 'cordon' : 'uncordon');
  return 'nodes' in r ? out(r.stdout, r.stderr) : r;
}

export function kubectlCordon(p: ParsedArgs, ctx: ExecContext): CommandResult {
  return cordonOrUncordon(p, ctx, true);
}

export function kubectlUncordon(p: ParsedArgs, ctx: ExecContext): CommandResult {
  return cordonOrUncordon(p, ctx, false);
}

// upstream: taint/utils.go parseTaint, validateTaintEffect
function parseTaint(st: string): Taint | { key: string; value: string; effect: '' } {
  const parts = st.split(':');
  let key: string;
  let value = '';
  let effect = '';
  if (parts.length === 1) key = parts[0];
  else if (parts.length === 2) {
    effect = parts[1];
    if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(effect)) throw new KubectlError(`invalid taint effect: ${effect}, unsupported taint effect`, 'taint');
    const kv = parts[0].split('=');
    if (kv.length > 2) throw new KubectlError(`invalid taint spec: ${st}`, 'taint');
    key = kv[0];
    if (kv.length === 2) {
      value = kv[1];
      const errs = isValidLabelValue(value);
      if (errs.length) throw new KubectlError(`invalid taint spec: ${st}, ${errs.join('; ')}`, 'taint');
    }
  } else throw new KubectlError(`invalid taint spec: ${st}`, 'taint');
  const errs = isQualifiedName(key);
  if (errs.length) throw new KubectlError(`invalid taint spec: ${st}, ${errs.join('; ')}`, 'taint');
  return { key, value, effect } as Taint;
}

/** Taint.ToString: key=value:effect, leaving out an empty value or effect. */
function taintString(t: { key: string; value?: string; effect?: string }): string {
  if (!t.effect) return t.value ? `${t.key}=${t.value}:` : t.key;
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

const sameTaint = (a: { key: string; effect?: string }, b: { key: string; effect?: string }) => a.key === b.key && a.effect === b.effect;

/** kubectl taint: the node's taints reorganised as taint/utils.go does, sent as a strategic merge patch. */
export function kubectlTaint(p: ParsedArgs, ctx: ExecContext): CommandResult {
  // the resources come first, then the taint changes
  const resources: string[] = [];
  const specs: string[] = [];
  for (const s of p.args) {
    const isTaint = s.includes('=') || s.includes(':') || s.endsWith('-');
    if (isTaint) specs.push(s);
    else if (specs.length) throw new KubectlError(`all resources must be specified before taint changes: ${s}`);
    else resources.push(s);
  }
  if (resources.length < 1) throw new KubectlError('one or more resources must be specified as <resource> <name>');
  if (specs.length < 1) throw new KubectlError('at least one taint update is required');
  const add: Taint[] = [];
  const remove: { key: string; effect: string }[] = [];
  for (const s of specs) {
    if (s.endsWith('-')) {
      const t = parseTaint(s.slice(0, -1));
      remove.push({ key: t.key, effect: t.effect });
      continue;
    }
    const t = parseTaint(s);
    if (!t.effect) throw new KubectlError(`invalid taint spec: ${s}`, 'taint');
    if (add.some((x) => sameTaint(x, t))) {
      throw new KubectlError(`duplicated taints with the same key and effect: {${t.key} ${t.value ?? ''} ${t.effect} <nil>}`, 'taint');
    }
    add.push(t as Taint);
  }
  if (!['node', 'nodes', 'no'].includes(resources[0].toLowerCase().split('/')[0])) {
    const type = resources[0].toLowerCase().split('/')[0];
    typeAndNames([type]); // an unknown type gets the server's answer
    throw new KubectlError(`invalid resource type ${type}, only node types are supported`);
  }
  const conflicts = remove.flatMap((r) => add.filter((a) => a.key === r.key && (!r.effect || a.effect === r.effect)).map(() => `${r.key}=${r.effect}`));
  if (conflicts.length) throw new KubectlError(`can not both modify and remove the following taint(s) in the same command: ${conflicts.join(', ')}`);
  if (bool(p, 'all') && str(p, 'selector')) throw new KubectlError("setting 'all' parameter with a non empty selector is prohibited");
  if (!bool(p, 'all') && !str(p, 'selector') && resources.length < 2 && !resources[0].includes('/')) {
    throw new KubectlError("at least one resource name must be specified since 'all' parameter is not set");
  }
  refuseUnmodelled(p, 'taint');
  const dry = dryRunOf(p) === 'client';
  objectFormat(p, ctx); // the printer is made before the patch is sent
  const { found: named, errors } = targets(ctx, p, resources);
  const found = named.map((t) => t.o);
  let stdout = '';
  let stderr = errors;
  for (const node of found as Node[]) {
    const old = node.spec.taints ?? [];
    if (!bool(p, 'overwrite')) {
      const exists = add.filter((t) => old.some((o) => sameTaint(o, t))).map((t) => t.key);
      if (exists.length) {
        stderr += `error: node ${node.metadata.name} already has ${exists.join(',')} taint(s) with same effect(s) and --overwrite is false\n`;
        continue;
      }
    }
    // upstream: utils.go reorganizeTaints, addTaints, deleteTaints
    let next: Taint[] = add.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
    for (const o of old) if (!next.some((t) => sameTaint(t, o))) next.push(o);
    const added = old.length !== next.length;
    const notFoundErrs: string[] = [];
    let deleted = false;
    for (const r of remove) {
      const before = next.length;
      next = next.filter((t) => !(t.key === r.key && (!r.effect || t.effect === r.effect)));
      deleted = next.length !== before;
      if (!deleted) notFoundErrs.push(`taint ${JSON.stringify(taintString(r))} not found`);
    }
    if (notFoundErrs.length) {
      stderr += `error: ${notFoundErrs.length === 1 ? notFoundErrs[0] : `[${notFoundErrs.join(', ')}]`}\n`;
      continue;
    }
    const operation = (added && deleted) || bool(p, 'overwrite') ? 'modified' : added ? 'tainted' : 'untainted';
    let result: Node = { ...node, spec: { ...node.spec, taints: next } };
    if (!next.length) {
      const { taints: _, ...spec } = result.spec;
      result = { ...result, spec };
    }
    if (!dry) {
      const r = submit(ctx, { type: 'patch', kind: 'Node', name: node.metadata.name, patchType: 'strategic', patch: { spec: { taints: next.length ? next : null } } });
      if (!r.ok) {
        stderr += apiErrorText(r.status);
        continue;
      }
      result = r.object;
    }
    stdout += printed(p, ctx, 'nodes', result, operation, dry);
  }
  return out(stdout, stderr, stderr ? 1 : 0);
}

/** utilerrors.Aggregate's Error(): one error as it is, several in brackets. */
const aggregate = (errs: string[]): string => (errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);

/**
 * kubectl drain: cordon, then evict every pod on the node through the Eviction API (or delete it, with
 * --disable-eviction), once the filters let it: a pod that declares no controller needs --force, one with emptyDir
 * data --delete-emptydir-data. A transcript does not block, so the lines kubectl prints as each pod goes come at once
 * (the pods are still terminating then, as after `kubectl delete`).
 */
// upstream: drain.go RunDrain, deleteOrEvictPodsSimple; pkg/drain/drain.go GetPodsForDeletion, evictPods, deletePods;
//           pkg/drain/filters.go (the filters, their messages, PodDeleteList.Warnings and errors)
export function kubectlDrain(p: ParsedArgs, ctx: ExecContext): CommandResult {
  const cordoned = cordonNodes(p, ctx, true, 'drain');
  if (!('nodes' in cordoned)) return cordoned;
  // in the order kubectl writes them: the cordon lines, then per node its errors or warning, evictions, "drained"
  const writes: Write[] = [[1, cordoned.stdout], [2, cordoned.stderr]];
  const stdoutW = (text: string) => writes.push([1, text]);
  const stderrW = (text: string) => writes.push([2, text]);
  const dry = dryRunOf(p) === 'client';
  const grace = int(p, 'grace-period', -1);
  const evict = !bool(p, 'disable-eviction');
  const fatal: string[][] = [];
  const remaining: string[] = [];
  for (const node of cordoned.nodes) {
    const name = node.metadata.name;
    const pods = select(podsIn(ctx, undefined).filter((x) => x.spec.nodeName === name), 'pods', str(p, 'pod-selector'));
    const warnings = new Map<string, string[]>();
    const errors = new Map<string, string[]>();
    const add = (m: Map<string, string[]>, msg: string, pod: Pod) => m.set(msg, [...(m.get(msg) ?? []), `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`]);
    const chosen: Pod[] = [];
    for (const pod of pods) {
      const terminal = pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed';
      const skipAfter = int(p, 'skip-wait-for-delete-timeout', 0);
      const deleting = pod.metadata.deletionTimestamp;
      if (skipAfter > 0 && deleting && (nowOf(ctx) - parseRfc3339(deleting)) / 1000 > skipAfter) continue;
      // (no DaemonSet or mirror pods in the model) localStorageFilter, then unreplicatedFilter: the last warning counts
      let warning: string | undefined;
      if (!terminal && (pod.spec.volumes ?? []).some((v) => (v as { emptyDir?: unknown }).emptyDir !== undefined)) {
        if (!bool(p, 'delete-emptydir-data')) {
          add(errors, 'Pods with local storage (use --delete-emptydir-data to override)', pod);
          continue;
        }
        warning = 'deleting Pods with local storage';
      }
      if (!terminal && !(pod.metadata.ownerReferences ?? []).some((o) => o.controller)) {
        if (!bool(p, 'force')) {
          add(errors, 'Pods that declare no controller (use --force to override)', pod);
          continue;
        }
        warning = 'deleting Pods that declare no controller';
      }
      if (warning) add(warnings, warning, pod);
      chosen.push(pod);
    }
    if (errors.size) {
      const errs = [...errors].map(([msg, ps]) => `cannot delete ${msg}: ${ps.join(', ')}`);
      stderrW(`error: unable to drain node ${JSON.stringify(name)} due to error: ${aggregate(errs)}, continuing command...\n`);
      fatal.push(errs);
      remaining.push(name);
      continue;
    }
    if (warnings.size) stderrW(`Warning: ${[...warnings].map(([msg, ps]) => `${msg}: ${ps.join(', ')}`).join('; ')}\n`);
    const id = (pod: Pod) => `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
    if (dry) {
      for (const pod of chosen) stdoutW(`evicting pod ${id(pod)} (dry run)\n`);
    } else {
      let done = '';
      for (const pod of chosen) {
        const namespace = pod.metadata.namespace ?? 'default';
        if (evict) stdoutW(`evicting pod ${id(pod)}\n`);
        const action = evict
          ? { type: 'evict' as const, namespace, name: pod.metadata.name, ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}) }
          : { type: 'delete' as const, kind: 'Pod' as const, namespace, name: pod.metadata.name, ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}) };
        const r = submit(ctx, action);
        if (!r.ok && r.status.reason !== 'NotFound') {
          stderrW(`error when ${evict ? 'evicting' : 'deleting'} pods/${JSON.stringify(pod.metadata.name)} -n ${JSON.stringify(namespace)}: ${r.status.message}\n`);
          continue;
        }
        done += `pod/${pod.metadata.name} ${evict ? 'evicted' : 'deleted'}\n`;
      }
      stdoutW(done);
    }
    stdoutW(`node/${name} drained${dry ? ' (dry run)' : ''}\n`);
  }
  if (remaining.length) stderrW(`There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`);
  // CheckErr prints an aggregate one error per line, without "error: " (an aggregate of one node's errors is unwrapped)
  if (fatal.length) stderrW((fatal.length === 1 ? fatal[0] : fatal.map(aggregate)).map((e) => `${e}\n`).join(''));
  return fromWrites(writes, fatal.length ? 1 : 0);
}
