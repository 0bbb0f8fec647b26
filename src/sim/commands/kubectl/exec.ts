// `kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...]`: kubectl's checks, its choice of
// container, then POST pods/{name}/exec, whose answer comes back as the command's output, an exit code, or an error
// from the stream. The command runs in the container at the moment kubectl runs (src/sim/kubelet/exec.ts).
// upstream: k8s.io/kubectl/pkg/cmd/exec/exec.go (v0.36.2: Complete, Validate, Run, SetupTTY);
// pkg/cmd/util/podcmd FindOrDefaultContainerByName; client-go tools/remotecommand errorDecoderV4

import { type FlagSpec, type ParsedArgs, bool, str } from '../flags.ts';
import type { CommandResult } from '../shell.ts';
import type { ExecContext } from '../context.ts';
import { FILENAME_FLAGS, KubectlError, allContainerNames, apiErrorText, defaultContainer, hasContainer, namespaceOf, notFound, out, podArgument, podsIn, submit } from './common.ts';

export const EXEC_FLAGS: FlagSpec[] = [
  { name: 'container', shorthand: 'c', type: 'string' },
  { name: 'stdin', shorthand: 'i', type: 'bool' },
  { name: 'tty', shorthand: 't', type: 'bool' },
  { name: 'quiet', shorthand: 'q', type: 'bool' },
  { name: 'pod-running-timeout', type: 'duration' },
  ...FILENAME_FLAGS,
];

export function kubectlExec(p: ParsedArgs, ctx: ExecContext): CommandResult {
  // Complete: the first argument names the pod unless the command starts right after `--`
  const dash = p.argsLenAtDash;
  const resource = p.args.length > 0 && dash !== 0 ? p.args[0] : '';
  const command = dash > -1 ? p.args.slice(dash) : [];
  const files = (p.flags.get('filename') as string[] | undefined) ?? [];
  if (dash === -1 && (p.args.length > 1 || (p.args.length > 0 && files.length > 0))) {
    throw new KubectlError('exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead', 'exec');
  }
  // Validate
  if (!resource && files.length === 0) throw new KubectlError('pod, type/name or --filename must be specified');
  if (command.length === 0) throw new KubectlError('you must specify at least one command for the container');
  if (files.length > 0) throw new KubectlError('podlife: kubectl exec -f reads a file; name the pod instead (kubectl exec POD -- COMMAND)');

  const name = podArgument(resource, (type) => `podlife: kubectl exec into ${type} is not supported (exec into a pod: pod/NAME)`);
  const namespace = namespaceOf(ctx, str(p, 'namespace'));
  const pod = podsIn(ctx, namespace).find((x) => x.metadata.name === name);
  if (!pod) return out('', notFound('pods', name), 1);
  if (pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed') {
    throw new KubectlError(`cannot exec into a container in a completed pod; current phase is ${pod.status.phase}`);
  }

  const quiet = bool(p, 'quiet');
  let stderr = '';
  let container = str(p, 'container');
  if (!container) ({ container, stderr } = defaultContainer(pod, quiet));
  else if (!hasContainer(pod, container)) {
    throw new KubectlError(`container ${container} is not valid for pod ${pod.metadata.name} out of: ${allContainerNames(pod)}`);
  }
  // SetupTTY: a TTY needs stdin, and stdin here is never a terminal
  if (bool(p, 'stdin') && bool(p, 'tty') && !quiet) stderr += 'Unable to use a TTY - input is not a terminal or the right kind of file\n';

  const r = submit(ctx, { type: 'exec', namespace, name, container, command });
  if (!r.ok) return out('', stderr + apiErrorText(r.status), 1);
  const x = r.exec!;
  if (x.refused) return out('', `${stderr}${x.refused}\n`, 1);
  stderr += x.stderr;
  if (x.error !== undefined) return out(x.stdout, `${stderr}error: ${x.error}\n`, 1);
  // errorDecoderV4: a non-zero exit code is a CodeExitError, which CheckErr prints and exits with
  if (x.exitCode !== 0) return out(x.stdout, `${stderr}command terminated with exit code ${x.exitCode}\n`, x.exitCode);
  return out(x.stdout, stderr);
}
