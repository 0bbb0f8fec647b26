// `kubectl debug POD --image=IMAGE`: adds an ephemeral container to a running pod through the
// pods/{name}/ephemeralcontainers subresource, the way kubectl v1.36 does it (the debug pod is the pod with the
// container appended and the profile applied; the request is the two-way strategic merge patch between the two).
// Only this mode is modelled: --copy-to, node/NAME, --custom and -f are refused with a podlife error.
// upstream: k8s.io/kubectl/pkg/cmd/debug/debug.go (v0.36.2: Complete, Validate, Run, debugByEphemeralContainer,
//           generateDebugContainer, computeDebugContainerName); pkg/cmd/debug/profiles.go

import type { Container, Pod } from '../../types.ts';
import { createThreeWayMergePatch } from '../../api/patch.ts';
import { Rng, digestOf } from '../../core/rng.ts';
import { clone } from '../../core/clone.ts';
import { type FlagSpec, type ParsedArgs, arr, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import type { ExecContext } from '../context.ts';
import { KubectlError, apiErrorText, errorText, namespaceOf, notFound, out, submit } from './common.ts';
import { IMAGE_REF } from './mutate.ts';

export const DEBUG_FLAGS: FlagSpec[] = [
  { name: 'arguments-only', type: 'bool' },
  { name: 'attach', type: 'bool' },
  { name: 'container', shorthand: 'c', type: 'string' },
  { name: 'copy-to', type: 'string' },
  { name: 'replace', type: 'bool' },
  { name: 'env', type: 'stringArray' },
  { name: 'image', type: 'string' },
  { name: 'keep-labels', type: 'bool' },
  { name: 'keep-annotations', type: 'bool' },
  { name: 'keep-liveness', type: 'bool' },
  { name: 'keep-readiness', type: 'bool' },
  { name: 'keep-startup', type: 'bool' },
  { name: 'keep-init-containers', type: 'bool' },
  { name: 'set-image', type: 'stringArray' },
  { name: 'image-pull-policy', type: 'string' },
  { name: 'stdin', shorthand: 'i', type: 'bool' },
  { name: 'quiet', shorthand: 'q', type: 'bool' },
  { name: 'same-node', type: 'bool' },
  { name: 'share-processes', type: 'bool' },
  { name: 'target', type: 'string' },
  { name: 'tty', shorthand: 't', type: 'bool' },
  { name: 'profile', type: 'string' },
  { name: 'custom', type: 'string' },
  { name: 'filename', shorthand: 'f', type: 'stringArray' },
];

const SUPPORTED = 'podlife: this simulation models kubectl debug\'s ephemeral-container mode only: kubectl debug POD --image=IMAGE [--target=CONTAINER] [-c NAME] [--profile=...] [-i] [-t] [-- COMMAND ARGS...]';

/**
 * The securityContext each profile gives an ephemeral debug container (kubectl sets none before the profile runs):
 * general allowProcessTracing, netadmin allowNetadminCapability, sysadmin setPrivileged, restricted
 * disallowRoot + dropCapabilities + disallowPrivilegeEscalation + setSeccompProfile; baseline clears it, legacy
 * leaves it alone.
 */
// upstream: k8s.io/kubectl/pkg/cmd/debug/profiles.go (*generalProfile).Apply ... (*sysadminProfile).Apply, style ephemeral
const PROFILES: Record<string, Record<string, unknown> | undefined> = {
  legacy: undefined,
  general: { capabilities: { add: ['SYS_PTRACE'] } },
  baseline: undefined,
  restricted: { capabilities: { drop: ['ALL'] }, runAsNonRoot: true, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' } },
  netadmin: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
  sysadmin: { privileged: true },
};

/**
 * StringToString flags (--env): "A=1,B=2", repeatable. kubectl ranges over a Go map; the model sorts by name.
 * A malformed value is pflag's error with the usage hint. kubectl prints it as every other error, "error: ...":
 * component-base's cli.RunNoErrOutput silences cobra's own "Error: ..." line and cmdutil.CheckErr prints the error
 * (the "Error:" that /usr/bin/kubectl v1.32.4-dispatcher prints comes from that build's own entry point).
 */
function stringToString(values: string[], flag: string): [string, string][] | string {
  const m = new Map<string, string>();
  for (const v of values) {
    for (const pair of v.split(',')) {
      const eq = pair.indexOf('=');
      if (eq < 0) return `error: invalid argument ${JSON.stringify(v)} for "--${flag}" flag: ${pair} must be formatted as key=value\nSee 'kubectl debug --help' for usage.\n`;
      m.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  return [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * The five characters of `debugger-xxxxx`: utilrand.String(5)'s alphabet from the engine's seeded generator,
 * seeded by the pod's UID and the moment, so a transcript is the same every run.
 */
function nameSuffix(pod: Pod, t: number, attempt: number): string {
  const seed = parseInt(digestOf(`${pod.metadata.uid}/${t}/${attempt}`, 1), 16);
  return new Rng(seed).nameSuffix(5);
}

export function kubectlDebug(p: ParsedArgs, ctx: ExecContext): CommandResult {
  // Complete
  const names = p.argsLenAtDash >= 0 ? p.args.slice(0, p.argsLenAtDash) : p.args;
  const args = p.argsLenAtDash >= 0 ? p.args.slice(p.argsLenAtDash) : [];
  const interactive = bool(p, 'stdin');
  const tty = bool(p, 'tty');
  const attach = p.flags.has('attach') ? bool(p, 'attach') : interactive;
  const pairs = stringToString(arr(p, 'env'), 'env');
  if (typeof pairs === 'string') return out('', pairs, 1);
  const env = pairs.map(([name, value]) => ({ name, value }));
  const profileName = str(p, 'profile', 'general');
  if (!Object.hasOwn(PROFILES, profileName)) throw new KubectlError(`unknown profile: ${profileName}`);
  const securityContext = PROFILES[profileName];
  if (str(p, 'custom')) throw new KubectlError(`${SUPPORTED}; --custom is not supported`);

  // Validate
  const image = str(p, 'image');
  const container = str(p, 'container');
  const quiet = bool(p, 'quiet');
  if (attach && p.flags.has('attach') && !image && !container) {
    throw new KubectlError('you must specify --container or create a new container using --image in order to attach.');
  }
  if (str(p, 'copy-to')) throw new KubectlError(`${SUPPORTED}; --copy-to (a copy of the pod) is not supported`);
  if (bool(p, 'replace')) throw new KubectlError('--replace may only be used with --copy-to.');
  if (bool(p, 'same-node')) throw new KubectlError('--same-node may only be used with --copy-to.');
  if (arr(p, 'set-image').length > 0) throw new KubectlError('--set-image may only be used with --copy-to.');
  if (!image) throw new KubectlError('you must specify --image when not using --copy-to.');
  if (!IMAGE_REF.test(image)) throw new KubectlError(`invalid image name ${JSON.stringify(image)}: invalid reference format`);
  if (arr(p, 'filename').length > 0) throw new KubectlError(`${SUPPORTED}; -f is not supported`);
  if (names.length === 0) throw new KubectlError('NAME or filename is required for debug');
  const pullPolicy = str(p, 'image-pull-policy');
  if (pullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(pullPolicy)) throw new KubectlError(`invalid image pull policy: ${pullPolicy}`);
  let stdout = '';
  let stderr = '';
  const target = str(p, 'target');
  if (target && !quiet) {
    stdout += `Targeting container ${JSON.stringify(target)}. If you don't see processes from this container it may be because the container runtime doesn't support this feature.\n`;
  }
  // (after the Targeting line, which kubectl has already printed)
  if (tty && !interactive) return out(stdout, errorText(new KubectlError('-i/--stdin is required for containers with -t/--tty=true')), 1);
  if (profileName === 'legacy') {
    stderr += '--profile=legacy is deprecated and planned to be removed in v1.39. It is recommended to specify other profile, for example "--profile=general".\n';
  }

  // Run: ResourceNames("pods", names...): a bare name is a pod
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  for (const arg of names) {
    const slash = arg.indexOf('/');
    const type = slash < 0 ? 'pods' : arg.slice(0, slash).toLowerCase();
    const name = slash < 0 ? arg : arg.slice(slash + 1);
    if (!['pods', 'pod', 'po'].includes(type)) {
      return out(stdout, `${stderr}${errorText(new KubectlError(`${SUPPORTED}; debugging ${arg} (a node or another resource type) is not supported`))}`, 1);
    }
    const pod = ctx.state.pods.find((x) => x.metadata.name === name && (x.metadata.namespace ?? 'default') === namespace);
    if (!pod) return out(stdout, `${stderr}${notFound('pods', name)}`, 1);

    // generateDebugContainer: the container in EphemeralContainer's field order, then the profile
    const taken = new Set([...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])].map((c) => c.name));
    let cn = container;
    for (let i = 0; !cn || (!container && taken.has(cn)); i++) cn = `debugger-${nameSuffix(pod, ctx.state.t, i)}`;
    if (!container && !quiet) stdout += `Defaulting debug container name to ${cn}.\n`;
    const ec: Record<string, unknown> = { name: cn, image };
    if (args.length) ec[bool(p, 'arguments-only') ? 'args' : 'command'] = args;
    if (env.length) ec.env = env;
    ec.resources = {};
    ec.terminationMessagePolicy = 'File';
    if (pullPolicy) ec.imagePullPolicy = pullPolicy;
    if (securityContext) ec.securityContext = clone(securityContext);
    if (interactive) ec.stdin = true;
    if (tty) ec.tty = true;
    if (target) ec.targetContainerName = target;
    const debugPod = clone(pod) as Pod;
    debugPod.spec.ephemeralContainers = [...(debugPod.spec.ephemeralContainers ?? []), ec as unknown as Container];
    const patch = createThreeWayMergePatch(pod as any, debugPod as any, pod as any);
    const r = submit(ctx, { type: 'patch', kind: 'Pod', namespace, name, patchType: 'strategic', patch, subresource: 'ephemeralcontainers' });
    if (!r.ok) return out(stdout, `${stderr}${r.status.reason === 'NotFound' ? notFound('pods', name) : apiErrorText(r.status)}`, 1);
    if (attach) {
      stderr +=
        `podlife: not attached (a transcript has no terminal): kubectl would now wait for ${cn} to start and attach to it; ` +
        `here it runs on${interactive ? ' with its stdin open, as while you are attached' : ''}.\n`;
    }
  }
  return out(stdout, stderr);
}
