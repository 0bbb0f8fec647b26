// `kubectl set image`: a container's image changed in place, the one change a running pod's spec allows that
// restarts a container (the kubelet sees the spec hash change: computePodActions, "definition changed"). kubectl
// computes a strategic merge patch from the pod as it is now and sends it; nothing is sent when nothing changes.
// The other `kubectl set` subcommands act on pod templates (a pod's env, resources and service account cannot be
// changed), and are refused by name.
// upstream: k8s.io/kubectl v0.36.2 pkg/cmd/set/set.go, set_image.go, helper.go (CalculatePatches);
//           pkg/polymorphichelpers/updatepodspec.go; pkg/cmd/util/helpers.go (GetResourcesAndPairs, ParsePairs, checkErr)

import type { Container, Pod } from '../../types.ts';
import { bool, type FlagSpec, type ParsedArgs, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import type { ExecContext } from '../context.ts';
import { FILENAME_FLAGS, KubectlError, MISSING_RESOURCE, out, type ResourceKind, submit } from './common.ts';
import { CHANGE_PRINT_FLAGS, dryRunOf, printed, resourcesAndPairs, targets } from './nodes.ts';

export const SET_IMAGE_FLAGS: FlagSpec[] = [
  ...CHANGE_PRINT_FLAGS,
  { name: 'all', type: 'bool' },
  { name: 'local', type: 'bool' },
  { name: 'selector', shorthand: 'l', type: 'string' },
  { name: 'record', type: 'bool' },
  ...FILENAME_FLAGS,
];

/** kubectl set's subcommands; only image is run. */
export const SET_SUBCOMMANDS = ['env', 'image', 'resources', 'selector', 'serviceaccount', 'subject'];

/** `kubectl set` alone: cobra's help for the command group, on stderr, exit 1 (DefaultSubCommandRun). */
export const SET_HELP = `Configure application resources.

 These commands help you make changes to existing application resources.

Available Commands:
  env              Update environment variables on a pod template
  image            Update the image of a pod template
  resources        Update resource requests/limits on objects with pod templates
  selector         Set the selector on a resource
  serviceaccount   Update the service account of a resource
  subject          Update the user, group, or service account in a role binding or cluster role binding

Usage:
  kubectl set SUBCOMMAND [options]

Use "kubectl set <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

/** The Go type UpdatePodSpecForObject names for an object without a pod spec. */
const GO_TYPES: Record<string, string> = {
  nodes: '*v1.Node', services: '*v1.Service', configmaps: '*v1.ConfigMap', secrets: '*v1.Secret', namespaces: '*v1.Namespace', events: '*v1.Event',
};

// upstream: helpers.go ParsePairs(imageArgs, "image", false): NAME=IMAGE, split at the first "="
function imagePairs(pairs: string[]): Map<string, string> {
  const images = new Map<string, string>();
  const invalid: string[] = [];
  for (const s of pairs) {
    if (s.includes('=') && s[0] !== '=') images.set(s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1));
    else invalid.push(s);
  }
  if (invalid.length) throw new KubectlError(`invalid image format: ${invalid.join(', ')}`);
  return images;
}

/** set_image.go setImage: the containers of that name (every one for "*") get the image; whether any matched. */
function setImage(containers: Container[] | undefined, name: string, image: string): { list: Container[] | undefined; found: boolean } {
  if (!containers) return { list: containers, found: false };
  let found = false;
  const list = containers.map((c) => {
    if (c.name !== name && name !== '*') return c;
    found = true;
    return c.image === image ? c : { ...c, image };
  });
  return { list, found };
}

/** The strategic merge patch of a list with the merge key `name`: the changed items, by name, with their new image. */
function changedImages(before: Container[] | undefined, after: Container[] | undefined): { name: string; image: string }[] {
  return (after ?? []).filter((c, i) => c !== before![i]).map((c) => ({ image: c.image, name: c.name }));
}

// upstream: set_image.go (*SetImageOptions).Complete, Validate, Run
export function kubectlSetImage(p: ParsedArgs, ctx: ExecContext): CommandResult {
  if (bool(p, 'record')) {
    throw new KubectlError('podlife: --record (deprecated: it writes the command line into the kubernetes.io/change-cause annotation) is not supported by this simulation');
  }
  if (bool(p, 'local') || (p.flags.get('filename') as string[] | undefined)?.length || str(p, 'kustomize')) {
    throw new KubectlError('podlife: kubectl set image -f/-k/--local (objects from files) is not supported by this simulation; name the pods');
  }
  // Complete: the arguments, then the objects (the builder's errors end the command before Validate)
  const { resources, pairs } = resourcesAndPairs(p.args, 'image');
  const images = imagePairs(pairs);
  if (resources.length === 0) throw new KubectlError(MISSING_RESOURCE);
  const dry = dryRunOf(p);
  const { found: objects, errors: missing } = targets(ctx, p, resources, true);
  if (missing) return out('', missing, 1);
  // Validate
  const usage: string[] = [];
  if (bool(p, 'all') && str(p, 'selector')) usage.push('cannot set --all and --selector at the same time');
  if (images.size < 1) usage.push('at least one image update is required');
  else if (images.size > 1 && images.has('*')) usage.push('all containers are already specified by *, but saw more than one container_name=container_image pairs');
  if (usage.length) throw new KubectlError(usage.length === 1 ? usage[0] : `[${usage.join(', ')}]`);
  // Run: CalculatePatches over every object first (a container not found is an error, and the others still change),
  // then each object's patch in turn
  const errors: string[] = [];
  const patched: { kind: ResourceKind; o: Pod; patch: Record<string, unknown> | undefined; err?: string }[] = [];
  for (const { kind, o } of objects) {
    if (kind !== 'pods') {
      patched.push({ kind, o: o as Pod, patch: undefined, err: `error: ${kind}/${o.metadata.name} the object is not a pod or does not have a pod template: ${GO_TYPES[kind]}\n` });
      continue;
    }
    const pod = o as Pod;
    let containers: Container[] | undefined = pod.spec.containers;
    let initContainers = pod.spec.initContainers;
    for (const [name, image] of images) {
      const init = setImage(initContainers, name, image);
      const regular = setImage(containers, name, image);
      initContainers = init.list;
      containers = regular.list!;
      if (!init.found && !regular.found) errors.push(`error: unable to find container named ${JSON.stringify(name)}`);
    }
    const spec: Record<string, unknown> = {};
    const changed = changedImages(pod.spec.containers, containers);
    const changedInit = changedImages(pod.spec.initContainers, initContainers);
    if (changed.length) spec.containers = changed;
    if (changedInit.length) spec.initContainers = changedInit;
    const after = { ...pod, spec: { ...pod.spec, containers, ...(initContainers ? { initContainers } : {}) } };
    patched.push({ kind, o: after, patch: changed.length + changedInit.length ? { spec } : undefined });
  }
  let stdout = '';
  for (const { kind, o, patch, err } of patched) {
    if (err) {
      errors.push(err);
      continue;
    }
    // no change: nothing is sent, and nothing printed
    if (!patch) continue;
    if (dry === 'client') {
      stdout += printed(p, ctx, kind, o, 'image updated', true);
      continue;
    }
    const r = submit(ctx, { type: 'patch', kind: 'Pod', namespace: o.metadata.namespace ?? 'default', name: o.metadata.name, patchType: 'strategic', patch });
    if (!r.ok) {
      errors.push(`failed to patch image update to pod template: ${r.status.message}`);
      continue;
    }
    stdout += printed(p, ctx, kind, r.object, 'image updated', false);
  }
  // checkErr: one error alone gets "error: " before it unless it has it; several are printed one per line as they are
  // (a message that ends in a newline leaves an empty line after it)
  const stderr = errors.length === 1 ? `${errors[0].startsWith('error: ') ? '' : 'error: '}${errors[0].replace(/\n$/, '')}\n`
    : errors.map((e) => `${e}\n`).join('');
  return out(stdout, stderr, errors.length ? 1 : 0);
}
