// `kubectl wait --for=condition=NAME[=VALUE]|delete|create|jsonpath='{...}'[=VALUE] TYPE/NAME... [--timeout]`.
// kubectl watches each object until its condition holds or the timeout passes. The model knows the cluster's future:
// the command reads the cluster at each moment it may have changed after now (ExecContext.future), in order, as the
// watch would see it. The timeline does not wait for it: a scenario's later steps keep their own times.
// upstream: k8s.io/kubectl/pkg/cmd/wait/{wait.go,condition.go,delete.go,json.go,create.go} (v0.36.2)

import type { ClusterState } from '../../types.ts';
import { JsonPath, JsonPathError, goPrint, relaxedJsonPathExpression } from '../../render/jsonpath.ts';
import { sortedCopy } from '../../render/json.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, duration, str } from '../flags.ts';
import { type CommandResult, fromWrites, type Write } from '../shell.ts';
import type { ClusterFuture, ExecContext } from '../context.ts';
import { FILENAME_FLAGS, KubectlError, MISSING_RESOURCE, type ResourceKind, checkNames, clusterScoped, errorText, namespaceOf, notFound, singular, typeGroups } from './common.ts';
import { listOf } from './get.ts';
import { fileReader, objectsOnlyOutput, PRINT_FLAGS, printObject } from './output.ts';
import { select } from './selectors.ts';
import { manifests, requireFilenames } from './files.ts';

export const WAIT_FLAGS: FlagSpec[] = [
  { name: 'for', type: 'stringArray' },
  { name: 'timeout', type: 'duration' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'field-selector', type: 'string' },
  { name: 'all', type: 'bool' },
  { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
  { name: 'local', type: 'bool' },
  ...FILENAME_FLAGS,
  ...PRINT_FLAGS,
];

/** kubectl's default, and what a negative --timeout means (a week). */
const DEFAULT_TIMEOUT = 30_000;
const A_WEEK = 168 * 3_600_000;

type Obj = { metadata: { name: string; namespace?: string; uid?: string; generation?: number; labels?: Record<string, string> }; status?: unknown };

/** A condition on one object as it is at one moment: met, not yet, or an error that ends the wait. */
type Check = (obj: Obj | undefined) => boolean;
interface Condition {
  kind: 'create' | 'delete' | 'condition' | 'jsonpath';
  /** Whether the object, as it is now (undefined: there is none), satisfies the condition. Throws KubectlError. */
  check?: Check;
}

// upstream: wait.go conditionFuncsFor
function conditionsFor(fors: string[]): Condition[] {
  const out: Condition[] = [];
  for (const cond of fors) {
    const lower = cond.toLowerCase();
    if (lower === 'delete') out.push({ kind: 'delete' });
    else if (lower === 'create') out.push({ kind: 'create' });
    else if (cond.startsWith('condition=')) {
      let name = cond.slice('condition='.length);
      let value = 'true';
      const eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.slice(eq + 1);
        name = name.slice(0, eq);
      }
      out.push({ kind: 'condition', check: (o) => o !== undefined && conditionMet(o, name, value) });
    } else if (cond.startsWith('jsonpath=')) {
      out.push({ kind: 'jsonpath', check: jsonPathCheck(cond.slice('jsonpath='.length)) });
    } else throw new KubectlError(`unrecognized condition: ${JSON.stringify(cond)}`);
  }
  if (out.length === 0) throw new KubectlError(`unrecognized condition: []`);
  return out;
}

/** condition.go checkCondition: the named condition's status, compared case-insensitively; not if it is stale. */
function conditionMet(o: Obj, name: string, value: string): boolean {
  const status = (o.status ?? {}) as { conditions?: { type?: string; status?: string; observedGeneration?: number }[]; observedGeneration?: number };
  for (const c of status.conditions ?? []) {
    if (typeof c.type !== 'string' || c.type.toLowerCase() !== name.toLowerCase() || typeof c.status !== 'string') continue;
    const generation = o.metadata.generation;
    const observed = c.observedGeneration ?? status.observedGeneration;
    if (generation !== undefined && observed !== undefined && observed < generation) return false;
    return c.status.toLowerCase() === value.toLowerCase();
  }
  return false;
}

/** wait.go splitJSONPathInput: split on single '=', a '==' kept. */
function splitJsonPathInput(input: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    if (input[i] === '=') {
      if (input[i + 1] === '=') {
        cur += '==';
        i++;
        continue;
      }
      out.push(cur);
      cur = '';
      continue;
    }
    cur += input[i];
  }
  out.push(cur);
  return out;
}

// upstream: wait.go processJSONPathInput, newJSONPathParser; json.go checkCondition, compareResults
function jsonPathCheck(input: string): Check {
  const parts = splitJsonPathInput(input);
  if (parts.length < 1 || parts.length > 2) {
    throw new KubectlError("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'");
  }
  let path: JsonPath;
  let expression: string;
  try {
    expression = relaxedJsonPathExpression(parts[0]);
    if (expression === '') throw new KubectlError('jsonpath expression cannot be empty');
    path = new JsonPath(expression, { allowMissingKeys: true });
  } catch (e) {
    if (e instanceof JsonPathError) throw new KubectlError(e.message);
    throw e;
  }
  const anyValue = parts.length === 1;
  const want = anyValue ? '' : parts[1].replace(/^['"]+|['"]+$/g, '');
  if (!anyValue && want === '') throw new KubectlError("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3");
  return (o) => {
    if (o === undefined) return false;
    const found = path.findResults(sortedCopy(o));
    if (found.length === 0 || found[0].length === 0) return false;
    if (found.length > 1) throw new KubectlError('given jsonpath expression matches more than one list');
    if (found[0].length > 1) throw new KubectlError('given jsonpath expression matches more than one value');
    if (anyValue) return true;
    const v = found[0][0].v;
    if (v !== null && typeof v === 'object') throw new KubectlError('jsonpath leads to a nested object or list which is not supported');
    return goPrint(v).trim() === want.trim();
  };
}

/** One object kubectl waits on: where to find it in a state of the cluster. */
interface Target {
  kind: ResourceKind;
  namespace: string | undefined;
  name: string;
}

function find(state: ClusterState, ctx: ExecContext, t: Target): Obj | undefined {
  return (listOf({ ...ctx, state }, t.kind, t.namespace) as Obj[]).find((o) => o.metadata.name === t.name);
}

const objectName = (t: Target) => `${t.kind}/${t.name}`;

export function kubectlWait(p: ParsedArgs, ctx: ExecContext, stdin = ''): CommandResult {
  const fromFiles = arr(p, 'filename').length > 0 || str(p, 'kustomize') !== '';
  if (bool(p, 'local')) throw new KubectlError('podlife: kubectl wait --local is not supported');
  const format = objectsOnlyOutput(p, fileReader(ctx));
  const conditions = conditionsFor(arr(p, 'for'));
  const requested = duration(p, 'timeout', DEFAULT_TIMEOUT);
  const timeout = requested < 0 ? A_WEEK : requested;

  // the objects, as the resource builder finds them now: named, selected, or read from files
  if (fromFiles && p.args.length > 0) throw new KubectlError('when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well');
  const groups = fromFiles ? [] : typeGroups(p.args);
  if (groups.length === 0 && !fromFiles) throw new KubectlError(MISSING_RESOURCE);
  const selector = str(p, 'selector');
  const fieldSelector = str(p, 'field-selector');
  const allNamespaces = bool(p, 'all-namespaces');
  checkNames(groups, { selector, fieldSelector, allNamespaces });
  const byName = fromFiles || groups.some((g) => g.names.length > 0);
  if (!byName && !selector && !fieldSelector && !bool(p, 'all')) throw new KubectlError('resource(s) were provided, but no name was specified');
  const targets: Target[] = [];
  if (fromFiles) {
    requireFilenames(p);
    for (const m of manifests(p, ctx, stdin, 'waiting for')) {
      if (typeof m === 'string') throw new KubectlError(m);
      targets.push({ kind: 'pods', namespace: m.namespace, name: m.name });
    }
  }
  for (const g of groups) {
    const namespace = clusterScoped(g.kind) || allNamespaces ? undefined : namespaceOf(ctx, str(p, 'namespace'));
    if (g.names.length > 0) for (const name of g.names) targets.push({ kind: g.kind, namespace, name });
    else {
      for (const o of select(listOf(ctx, g.kind, namespace) as Obj[], g.kind, selector, fieldSelector)) {
        targets.push({ kind: g.kind, namespace: o.metadata.namespace ?? namespace, name: o.metadata.name });
      }
    }
  }

  const writes: Write[] = [];
  let now = ctx.state.t;
  // the cluster after now, made when a wait first needs it (it may run the scenario on)
  let future: ClusterFuture | undefined;
  const ahead = (): ClusterFuture => (future ??= ctx.future?.() ?? stillFuture(ctx.state));
  const stateNow = () => (now === ctx.state.t ? ctx.state : ahead().stateAt(now));
  // the name printer with the operation "condition met"; -o name asked for is the name alone
  const print = (t: Target, obj: Obj | undefined) => {
    const name = `${singular[t.kind]}/${t.name}`;
    writes.push([1, !format ? `${name} condition met\n` : format.kind === 'name' || !obj ? `${name}\n` : printObject(obj, format)]);
  };
  const fail = (message: string): CommandResult => fromWrites([...writes, [2, errorText(new KubectlError(message))]], 1);

  /**
   * The first moment in [now, deadline] at which `met` holds of the target, or a reason it does not: the deadline
   * passed, or the view of the future ends before it (a recorded run shown in the page).
   */
  const until = (target: Target, met: (obj: Obj | undefined) => boolean): { at: number; obj: Obj | undefined } | 'timeout' | 'horizon' => {
    const first = find(stateNow(), ctx, target);
    if (met(first)) return { at: now, obj: first };
    const deadline = now + timeout;
    const f = ahead();
    const reached = f.reach(deadline);
    for (const t of f.times(now, Math.min(deadline, reached))) {
      const obj = find(f.stateAt(t), ctx, target);
      if (met(obj)) return { at: t, obj };
    }
    return reached < deadline ? 'horizon' : 'timeout';
  };
  const horizonError = () =>
    `podlife: kubectl wait would still be waiting when the run shown ends; run it with podlife simulate --at to see the outcome`;

  try {
    // --for=create is waited first, for every object named (wait.go RunWaitContext), polled every 0.5 s
    if (conditions.some((c) => c.kind === 'create')) {
      for (const target of targets) {
        const r = until(target, (o) => o !== undefined);
        if (r === 'horizon') return fail(horizonError());
        if (r === 'timeout') return fail('timed out waiting for the condition');
        now = r.at;
      }
    }
    const forDelete = conditions.some((c) => c.kind === 'delete');
    let visited = 0;
    for (const target of targets) {
      const initial = find(stateNow(), ctx, target);
      if (!initial) {
        // a NotFound is ignored when waiting for a deletion; otherwise it is the builder's error
        if (forDelete) continue;
        return fromWrites([...writes, [2, notFound(target.kind, target.name)]], 1);
      }
      visited++;
      for (const c of conditions) {
        if (c.kind === 'create') {
          print(target, find(stateNow(), ctx, target));
          continue;
        }
        // a deletion is of this object: one of the same name made again is another (delete.go's UID check)
        const met = c.kind === 'delete' ? (o: Obj | undefined) => o === undefined || o.metadata.uid !== initial.metadata.uid : c.check!;
        if (timeout === 0) {
          // "Zero means check once and don't wait"
          const obj = find(stateNow(), ctx, target);
          if (!met(obj)) return fail(`condition not met for ${objectName(target)}`);
          print(target, obj ?? initial);
          continue;
        }
        const r = until(target, met);
        if (r === 'horizon') return fail(horizonError());
        if (r === 'timeout') return fail(`timed out waiting for the condition on ${objectName(target)}`);
        now = r.at;
        print(target, r.obj ?? initial);
      }
    }
    if (visited === 0 && !forDelete) return fail('no matching resources found');
  } catch (e) {
    if (e instanceof KubectlError) return fromWrites([...writes, [2, errorText(e)]], 1);
    throw e;
  }
  return fromWrites(writes, 0);
}

/** Where the context cannot look ahead: the cluster as it is now, and nothing after it. */
function stillFuture(state: ClusterState): ClusterFuture {
  return { reach: () => state.t, times: () => [], stateAt: () => state };
}
