// `kubectl <verb> ...`: flag parsing per verb (pflag rules), dispatch, and kubectl's error output.

import { FlagError, type FlagSpec, type ParsedArgs, parseFlags } from '../flags.ts';
import { type CommandResult, fromWrites, writesOf } from '../shell.ts';
import { type ExecContext, nowOf, offsetOf } from '../context.ts';
import { klogHeader } from '../../render/journal.ts';
import { GLOBAL_FLAGS, KubectlError, errorText, out } from './common.ts';
import { GET_FLAGS, kubectlGet } from './get.ts';
import { DEBUG_FLAGS, kubectlDebug } from './debug.ts';
import { TOP_FLAGS, kubectlTop } from './top.ts';
import { VERSION_FLAGS, kubectlVersion } from './version.ts';
import { EVENTS_FLAGS, kubectlEvents } from './events.ts';
import { WAIT_FLAGS, kubectlWait } from './wait.ts';
import { EXEC_FLAGS, kubectlExec } from './exec.ts';
import { API_RESOURCES_FLAGS, kubectlApiResources } from './apiresources.ts';
import { API_VERSIONS_FLAGS, kubectlApiVersions } from './apiversions.ts';
import {
  ANNOTATE_FLAGS, CORDON_FLAGS, DRAIN_FLAGS, LABEL_FLAGS, TAINT_FLAGS, kubectlAnnotate, kubectlCordon, kubectlDrain, kubectlLabel,
  kubectlTaint, kubectlUncordon,
} from './nodes.ts';
import { DESCRIBE_FLAGS, LOGS_FLAGS, kubectlDescribe, kubectlLogs } from './read.ts';
import { CREATE_CONFIGMAP_FLAGS, CREATE_SECRET_GENERIC_FLAGS, createSecretHelp, kubectlCreateConfigMap, kubectlCreateSecretGeneric } from './configs.ts';
import {
  APPLY_FLAGS, CREATE_FLAGS, CREATE_SUBCOMMANDS, DELETE_FLAGS, PATCH_FLAGS, REPLACE_FLAGS, RUN_FLAGS, dryRunStrategy, kubectlApply, kubectlCreate, kubectlDelete, kubectlPatch,
  kubectlReplace, kubectlRun,
} from './mutate.ts';
import { SET_HELP, SET_IMAGE_FLAGS, SET_SUBCOMMANDS, kubectlSetImage } from './set.ts';

interface Verb {
  flags: FlagSpec[];
  run(p: ParsedArgs, ctx: ExecContext, stdin: string): CommandResult;
  mutates: boolean;
}

const VERBS: Record<string, Verb> = {
  get: { flags: GET_FLAGS, run: kubectlGet, mutates: false },
  describe: { flags: DESCRIBE_FLAGS, run: kubectlDescribe, mutates: false },
  logs: { flags: LOGS_FLAGS, run: kubectlLogs, mutates: false },
  run: { flags: RUN_FLAGS, run: kubectlRun, mutates: true },
  apply: { flags: APPLY_FLAGS, run: kubectlApply, mutates: true },
  create: { flags: CREATE_FLAGS, run: kubectlCreate, mutates: true },
  delete: { flags: DELETE_FLAGS, run: kubectlDelete, mutates: true },
  patch: { flags: PATCH_FLAGS, run: kubectlPatch, mutates: true },
  replace: { flags: REPLACE_FLAGS, run: kubectlReplace, mutates: true },
  debug: { flags: DEBUG_FLAGS, run: kubectlDebug, mutates: true },
  top: { flags: TOP_FLAGS, run: kubectlTop, mutates: false },
  label: { flags: LABEL_FLAGS, run: kubectlLabel, mutates: true },
  annotate: { flags: ANNOTATE_FLAGS, run: kubectlAnnotate, mutates: true },
  cordon: { flags: CORDON_FLAGS, run: kubectlCordon, mutates: true },
  uncordon: { flags: CORDON_FLAGS, run: kubectlUncordon, mutates: true },
  drain: { flags: DRAIN_FLAGS, run: kubectlDrain, mutates: true },
  taint: { flags: TAINT_FLAGS, run: kubectlTaint, mutates: true },
  // its subcommands are found by setSubcommand (image is run); this entry names it among the verbs
  set: { flags: SET_IMAGE_FLAGS, run: kubectlSetImage, mutates: true },
  version: { flags: VERSION_FLAGS, run: kubectlVersion, mutates: false },
  events: { flags: EVENTS_FLAGS, run: kubectlEvents, mutates: false },
  wait: { flags: WAIT_FLAGS, run: kubectlWait, mutates: false },
  // it runs a command in a container, which may change it (touch, rm, kill 1)
  exec: { flags: EXEC_FLAGS, run: kubectlExec, mutates: true },
  'api-resources': { flags: API_RESOURCES_FLAGS, run: kubectlApiResources, mutates: false },
  'api-versions': { flags: API_VERSIONS_FLAGS, run: kubectlApiVersions, mutates: false },
};

/** kubectl's other commands: real, but not modelled here. */
const OTHER_COMMANDS = [
  'expose', 'explain', 'edit', 'rollout', 'scale', 'autoscale', 'certificate', 'cluster-info',
  'attach', 'port-forward', 'proxy', 'cp', 'auth',
  'diff', 'kustomize', 'completion', 'config',
  'plugin', 'alpha',
];

/** Split global flags off the front so the verb can be found (`kubectl -n x get pods`). */
function findVerb(argv: string[]): { verb: string | undefined; rest: string[] } {
  const rest = [...argv];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('-')) return { verb: a, rest: [...rest.slice(0, i), ...rest.slice(i + 1)] };
    const name = a.replace(/^--?/, '').split('=')[0];
    const spec = GLOBAL_FLAGS.find((f) => f.name === name || f.shorthand === name);
    if (spec && spec.type !== 'bool' && !a.includes('=') && !(a.startsWith('-') && !a.startsWith('--') && a.length > 2)) i++;
  }
  return { verb: undefined, rest };
}

/**
 * The first argument past the flags (cobra's stripFlags, then the first word): the subcommand of `kubectl create`
 * (deployment, namespace, secret ...), or of `kubectl create secret` (generic, tls ...). Returns its index in `rest`.
 */
function subcommandAt(rest: string[], flags: FlagSpec[], names: string[]): number {
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--') return -1;
    if (!a.startsWith('-') || a === '-') return names.includes(a) ? i : -1;
    if (a.includes('=')) continue;
    const long = a.startsWith('--');
    const name = long ? a.slice(2) : a.slice(1);
    const spec = flags.find((f) => (long ? f.name === name : f.shorthand === name));
    if (spec && spec.type !== 'bool' && (long || name.length === 1)) i++;
  }
  return -1;
}

/** A subcommand of `kubectl create` this simulation runs: its command path (for the usage hints), flags and runner. */
interface CreateSubcommand {
  path: string;
  flags: FlagSpec[];
  run(p: ParsedArgs, ctx: ExecContext): CommandResult;
  /** The arguments without the subcommand's own words. */
  rest: string[];
}

const SECRET_TYPES = ['docker-registry', 'generic', 'tls'];

/**
 * `kubectl create <subcommand>`: configmap (cm) and secret generic are run; every other makes a kind the simulation
 * does not model, and is refused by name before its own flags are read. Undefined: `kubectl create` itself (-f).
 */
function createSubcommand(rest: string[]): CreateSubcommand | { refusal: string } | undefined {
  const at = subcommandAt(rest, [...CREATE_FLAGS, ...GLOBAL_FLAGS], CREATE_SUBCOMMANDS);
  if (at < 0) return undefined;
  const sub = rest[at];
  const without = [...rest.slice(0, at), ...rest.slice(at + 1)];
  if (sub === 'configmap' || sub === 'cm') return { path: 'create configmap', flags: CREATE_CONFIGMAP_FLAGS, run: kubectlCreateConfigMap, rest: without };
  if (sub !== 'secret') return { refusal: createRefusal(sub) };
  const typeAt = subcommandAt(without, GLOBAL_FLAGS, SECRET_TYPES);
  if (typeAt < 0) return { path: 'create secret', flags: [], run: (p) => createSecretHelp(p.args), rest: without };
  const type = without[typeAt];
  if (type !== 'generic') {
    return { refusal: `podlife: "kubectl create secret ${type}" is not supported by this simulation (kubectl create secret generic is)` };
  }
  return { path: 'create secret generic', flags: CREATE_SECRET_GENERIC_FLAGS, run: kubectlCreateSecretGeneric, rest: [...without.slice(0, typeAt), ...without.slice(typeAt + 1)] };
}

/** The subcommand of `kubectl create` or `kubectl set`, if the verb has them. */
function subcommandOf(verb: string, rest: string[]): CreateSubcommand | { refusal: string } | undefined {
  return verb === 'create' ? createSubcommand(rest) : verb === 'set' ? setSubcommand(rest) : undefined;
}

/**
 * `kubectl set <subcommand>`: image is run; the others change what a pod cannot (its env, resources, service account)
 * or other kinds, and are refused by name. `kubectl set` alone prints the group's help, an unknown word cobra's error.
 */
function setSubcommand(rest: string[]): CreateSubcommand | { refusal: string } {
  const at = subcommandAt(rest, GLOBAL_FLAGS, SET_SUBCOMMANDS);
  const first = rest.find((a) => !a.startsWith('-'));
  if (at < 0) {
    const error = first === undefined ? SET_HELP.trimEnd() : `error: unknown command ${JSON.stringify(first)}\nSee 'kubectl set -h' for help and examples`;
    return { path: 'set', flags: [], run: () => out('', `${error}\n`, 1), rest: [] };
  }
  const sub = rest[at];
  if (sub !== 'image') {
    return { refusal: `podlife: "kubectl set ${sub}" is not supported by this simulation (kubectl set image is; a pod's env, resources and service account cannot be changed in place)` };
  }
  return { path: 'set image', flags: SET_IMAGE_FLAGS, run: kubectlSetImage, rest: [...rest.slice(0, at), ...rest.slice(at + 1)] };
}

const createRefusal = (sub: string) =>
  `podlife: "kubectl create ${sub}" is not supported by this simulation: it models Pods, ConfigMaps and Secrets (kubectl create -f, kubectl run, kubectl create configmap, kubectl create secret generic)`;

/** Levenshtein distance, for cobra's "Did you mean this?" suggestions. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

export function isMutatingKubectl(argv: string[]): boolean {
  const { verb } = findVerb(argv.slice(1));
  return verb !== undefined && VERBS[verb]?.mutates === true;
}

/**
 * Check a kubectl command line without running it: the verb exists and the flags parse.
 * Returns kubectl's error text (without the trailing newline), or undefined when it is fine.
 */
export function checkKubectl(argv: string[]): string | undefined {
  const { verb, rest: args } = findVerb(argv.slice(1));
  if (verb === undefined) return undefined;
  const sub = subcommandOf(verb, args);
  if (sub && 'refusal' in sub) return sub.refusal;
  const spec = sub ?? VERBS[verb];
  const rest = sub ? sub.rest : args;
  const path = sub ? sub.path : verb;
  if (!spec) {
    return OTHER_COMMANDS.includes(verb)
      ? `podlife: "kubectl ${verb}" is not supported by this simulation (supported: ${Object.keys(VERBS).join(', ')})`
      : `error: unknown command ${JSON.stringify(verb)} for "kubectl"`;
  }
  try {
    parseFlags(rest, [...spec.flags, ...GLOBAL_FLAGS]);
    return undefined;
  } catch (e) {
    // upstream: the templater's FlagErrorFunc adds the usage hint; component-base cli.RunNoErrOutput sets
    // SilenceErrors, so cobra prints nothing and cmdutil.CheckErr prints "error: <message>"
    if (e instanceof FlagError) return `error: ${e.message}\nSee 'kubectl ${path} --help' for usage.`;
    throw e;
  }
}

export function kubectl(argv: string[], ctx: ExecContext, stdin: string): CommandResult {
  const { verb, rest } = findVerb(argv.slice(1));
  if (verb === undefined) {
    return out(
      'kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\n' +
        `Commands supported by this simulation: ${Object.keys(VERBS).join(', ')}\n`,
    );
  }
  let spec: Pick<Verb, 'flags' | 'run'> | undefined = VERBS[verb];
  let args = rest;
  let path = verb;
  let warning = '';
  try {
    const sub = subcommandOf(verb, rest);
    if (sub && 'refusal' in sub) throw new KubectlError(sub.refusal);
    if (sub) {
      spec = sub;
      args = sub.rest;
      path = sub.path;
    }
    if (!spec) {
      if (OTHER_COMMANDS.includes(verb)) {
        throw new KubectlError(`podlife: "kubectl ${verb}" is not supported by this simulation (supported: ${Object.keys(VERBS).join(', ')})`);
      }
      const all = [...Object.keys(VERBS), ...OTHER_COMMANDS].sort();
      const suggestions = all.filter((c) => distance(verb, c) <= 2 || c.startsWith(verb));
      const hint = suggestions.length > 0 ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}` : '';
      throw new KubectlError(`unknown command ${JSON.stringify(verb)} for "kubectl"${hint}`);
    }
    let parsed: ParsedArgs;
    try {
      parsed = parseFlags(args, [...spec.flags, ...GLOBAL_FLAGS]);
    } catch (e) {
      if (e instanceof FlagError) throw new KubectlError(`${e.message}\nSee 'kubectl ${path} --help' for usage.`);
      throw e;
    }
    if (parsed.flags.get('help') === true) {
      // the reference's page of a subcommand is under its verb's: kubectl_create/kubectl_create_configmap/
      const words = path.split(' ');
      const page = words.length > 1 ? `kubectl_${words[0]}/kubectl_${words.join('_')}` : `kubectl_${path}`;
      return out(`podlife: see https://kubernetes.io/docs/reference/kubectl/generated/${page}/ for kubectl ${path}'s options\n`);
    }
    // klog's warning for a deprecated --dry-run form comes first, whatever follows (Complete reads the flag); an
    // invalid value is the verb's error, at its own point
    warning = spec.flags.some((f) => f.name === 'dry-run') ? klogWarning(ctx, deprecatedDryRun(parsed)) : '';
    const r = spec.run(parsed, ctx, stdin);
    return warning ? fromWrites([[2, warning], ...writesOf(r)], r.exitCode) : r;
  } catch (e) {
    if (e instanceof KubectlError) return fromWrites([[2, warning], [1, e.stdout], [2, errorText(e)]], 1);
    throw e;
  }
}

function deprecatedDryRun(p: ParsedArgs): { source: string; message: string } | undefined {
  try {
    return dryRunStrategy(p).warning;
  } catch (e) {
    if (e instanceof KubectlError) return undefined;
    throw e;
  }
}

/** The kubectl process's PID in klog's header: one client, so a fixed number. */
const KUBECTL_PID = 48213;

/** A klog warning line as kubectl writes it to stderr (`W1130 09:58:24.119000   48213 helpers.go:719] …`), or ''. */
function klogWarning(ctx: ExecContext, warning: { source: string; message: string } | undefined): string {
  if (!warning) return '';
  const now = nowOf(ctx);
  return `${klogHeader('W', now, offsetOf(ctx), (now % 1000) * 1000, KUBECTL_PID, warning.source)} ${warning.message}\n`;
}
