// `kubectl exec`: POST pods/{name}/exec, from the API server's checks to the command's run in the container. Loaded
// with the patch module, as only runs that exec (a scenario's `kubectl exec`, or the console's) send it.
//
// The path of a request, and where each of its errors comes from:
// - the API server (pkg/registry/core/pod/strategy.go streamLocation): the pod, a valid container name, a node;
//   these are HTTP errors, which kubectl prints as "Error from server (BadRequest): ...";
// - the kubelet (GetExec → findContainer, over the running containers only): "container not found", which reaches
//   kubectl through the stream, wrapped by the API server's WebSocket translator as an internal error;
// - the runtime (containerd's exec, runc): a binary the image lacks, wrapped twice on its way back;
// - the command: its output, and a non-zero exit code.
// The command runs in the model's process interpreter over the container's files, at the moment of the request: one
// that would take virtual time (`sleep 5`), or that the model does not know (`ps`), is refused by name rather than
// answered wrongly. `kill 1` and `nginx -s quit` signal PID 1 as they would, which can end the container.
// upstream: pkg/kubelet/server/server.go getExec; pkg/kubelet/kubelet_pods.go GetExec, managedHostsHeader;
// containerd internal/cri/server/sandbox_run.go (resolv.conf, hostname); staging/src/k8s.io/apiserver/pkg/util/proxy/streamtranslator.go

import type { ApiServer } from '../api/apiserver.ts';
import type { SimContext } from '../core/context.ts';
import type { ApiStatus, ApplyResult, Container, ExecOutput, Pod, PodExecAction } from '../types.ts';
import { envComplete } from './envvars.ts';
import type { ContainerRuntime } from '../runtime/cri.ts';
import { ASSIGNMENT, Process } from '../runtime/process.ts';
import { SHELL_COMMANDS, execProgramFor } from '../runtime/exec-program.ts';
import { signalOfCommand } from './handlers.ts';
import { SERVICES } from '../runtime/catalog.ts';
import { QUOTED, UNQUOTED, closingParen, marked, parseShell, type RedirectModule, type Stmt } from '../runtime/shell.ts';
import { MANAGED_FILES } from './etcfiles.ts';


// The API server's NotFound and BadRequest, as api/fielderrors.ts makes them: importing that module from this one,
// which loads later, would split it out of the player's first chunk (as importing env.ts's containerSpec would).
const notFoundStatus = (resource: string, name: string): ApiStatus => ({
  kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `${resource} "${name}" not found`, reason: 'NotFound', details: { name, kind: resource }, code: 404,
});
const badRequestStatus = (message: string): ApiStatus => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'BadRequest', code: 400 });

type Command = Extract<Stmt, { kind: 'cmd' }>;

/** The commands of the `$(...)` substitutions the tokenizer marked in a word, as scripts. */
function substitutions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) {
    if ((word[i] !== UNQUOTED && word[i] !== QUOTED) || word[i + 1] !== '(') continue;
    const end = closingParen(word, i + 1);
    if (end < 0) break;
    // $((...)) is arithmetic, not a command
    if (word[i + 2] !== '(' || closingParen(word, i + 2) !== end - 1) out.push(word.slice(i + 2, end));
    i = end;
  }
  return out;
}

/** Every simple command of a script, in order, with those of its `$(...)` substitutions after each command's own. */
function commandsOf(stmts: Stmt[], redirect: RedirectModule | undefined, out: Command[] = []): Command[] {
  for (const s of stmts) {
    if (s.kind === 'cmd') {
      out.push(s);
      for (const script of s.argv.flatMap(substitutions)) {
        try {
          commandsOf(parseShell(script, redirect), redirect, out);
        } catch {
          // a syntax error is the shell's to report when it runs
        }
      }
    } else if (s.kind === 'and' || s.kind === 'or') commandsOf([s.left, s.right], redirect, out);
    else if (s.kind === 'not') commandsOf([s.stmt], redirect, out);
    else if (s.kind === 'if') commandsOf([...s.branches.flat(2), ...(s.otherwise ?? [])], redirect, out);
    else commandsOf([...(s.kind === 'loop' ? (s.cond ?? []) : []), ...s.body], redirect, out);
  }
  return out;
}

/**
 * The first command of a script that the model's shell does not run (a server in the foreground it does: it waits),
 * looking into command substitutions too; a command named by a variable is known only when it runs.
 */
function unknownCommand(stmts: Stmt[], redirect: RedirectModule | undefined): string | undefined {
  for (const { argv } of commandsOf(stmts, redirect)) {
    // NAME=value words before the command (or alone) are assignments
    const name = argv.find((w) => !ASSIGNMENT.test(w));
    if (name === undefined) continue;
    const bin = name.slice(name.lastIndexOf('/') + 1);
    if (!marked(bin) && !SHELL_COMMANDS.has(bin) && !SERVICES[bin]) return bin;
  }
  return undefined;
}

const IMAGE_DIRS = new Set(['', 'bin', 'boot', 'dev', 'docker-entrypoint.d', 'etc', 'home', 'lib', 'media', 'mnt', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'usr', 'var']);

/**
 * The first read (cat, ls, stat, or `<`) of the image's own files in a script, as `cmd path`; undefined if none.
 * `known`: a path the model knows the whole of (a file the kubelet gives the container, or a path in one of its volumes).
 */
function imageFileRead(stmts: Stmt[], files: Set<string>, redirect: RedirectModule | undefined, known: (path: string) => boolean): string | undefined {
  const imageFile = (path: string): boolean =>
    path.startsWith('/') &&
    !MANAGED_FILES.includes(path) &&
    !files.has(path) &&
    !known(path) &&
    ![...files].some((f) => f.startsWith(`${path.replace(/\/+$/, '')}/`)) &&
    path !== '/dev/null' &&
    IMAGE_DIRS.has(path.split('/')[1] ?? '');
  for (const { argv, redirects } of commandsOf(stmts, redirect)) {
    const input = redirects?.find((r) => r.op === '<' && imageFile(r.target));
    if (input) return `< ${input.target}`;
    const bin = argv[0]?.slice(argv[0].lastIndexOf('/') + 1);
    if (bin !== 'ls' && bin !== 'cat' && bin !== 'stat') continue;
    const paths = argv.slice(1).filter((a) => !a.startsWith('-'));
    if (bin === 'stat' || (bin === 'ls' && paths.length === 0)) return [bin, ...paths].join(' ');
    const path = paths.find(imageFile);
    if (path !== undefined) return `${bin} ${path}`;
  }
  return undefined;
}

/**
 * The first ls of a script with an option that changes what it prints (`ls -l`, `ls -a`): the model knows a
 * file's name and contents, not its mode, owner, size or time, nor the hidden `..data` links of a volume. `-1`
 * (one name a line) is what ls prints without a terminal anyway.
 */
function lsOptions(stmts: Stmt[], redirect: RedirectModule | undefined): string | undefined {
  for (const { argv } of commandsOf(stmts, redirect)) {
    if (argv[0]?.slice(argv[0].lastIndexOf('/') + 1) !== 'ls') continue;
    if (argv.slice(1).some((a) => a.startsWith('-') && a !== '-1' && a !== '--')) return argv.join(' ');
  }
  return undefined;
}

/**
 * The first env or printenv of a script that would print what the model does not know: all of an environment the
 * model does not have whole (`complete`), or a variable it does not have (one the script assigns aside).
 */
function unknownEnvRead(stmts: Stmt[], env: Map<string, string>, complete: boolean, redirect: RedirectModule | undefined): string | undefined {
  const commands = commandsOf(stmts, redirect);
  const assigned = new Set(commands.flatMap(({ argv }) => argv.map((w) => ASSIGNMENT.exec(w)?.[1] ?? '')));
  for (const { argv } of commands) {
    const i = argv.findIndex((w) => !ASSIGNMENT.test(w));
    const bin = argv[i]?.slice(argv[i].lastIndexOf('/') + 1);
    if (bin !== 'env' && bin !== 'printenv') continue;
    const names = argv.slice(i + 1);
    // env with arguments runs a command in a changed environment, which the model does not do
    if (bin === 'env' && names.length > 0) return argv.slice(i).join(' ');
    if (!complete && (names.length === 0 || names.some((n) => !env.has(n) && !assigned.has(n)))) return argv.slice(i).join(' ');
  }
  return undefined;
}

const refused = (pod: Pod, text: string): ApplyResult => ({ ok: true, object: pod, exec: { stdout: '', stderr: '', exitCode: 1, refused: text } });

export function execInContainer(ctx: SimContext, api: ApiServer, runtimeOf: (node: string) => ContainerRuntime | undefined, a: PodExecAction): ApplyResult {
  const pod = api.getPod(a.namespace, a.name);
  if (!pod) return { ok: false, status: notFoundStatus('pods', a.name) };
  const spec = pod.spec;
  // (env.ts's containerSpec, were it not for the chunk split above)
  const container = [...spec.containers, ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].find((c) => c.name === a.container);
  if (!container) {
    return { ok: false, status: badRequestStatus(`container ${a.container} is not valid for pod ${a.name}`) };
  }
  if (!spec.nodeName) return { ok: false, status: badRequestStatus(`pod ${a.name} does not have a host assigned`) };
  if (a.checkOnly) return { ok: true, object: pod };
  const rt = runtimeOf(spec.nodeName);
  const c = rt?.podContainers(pod.metadata.uid!).find((x) => x.name === a.container && x.state === 'CONTAINER_RUNNING');
  const files = c && rt!.files(c.id);
  if (!c || !files) {
    return { ok: true, object: pod, exec: { stdout: '', stderr: '', exitCode: 1, error: `Internal error occurred: unable to upgrade connection: container not found (${JSON.stringify(a.container)})` } };
  }
  const argv = a.command;
  const exec = (output: ExecOutput): ApplyResult => {
    ctx.emit('kubelet', 'Exec', `pod/${a.namespace}/${a.name}`, `exec in container ${a.container}: ${argv.join(' ')} (${output.error ? 'failed to start' : `exit code ${output.exitCode}`})`);
    return { ok: true, object: pod, exec: output };
  };
  const bin = argv[0].slice(argv[0].lastIndexOf('/') + 1);
  // the pause image has one binary, /pause; the others have a userland the model knows only part of
  const pause = /(^|\/)pause(:|@|$)/.test(c.image);
  // `nginx -s` signals the nginx that runs as PID 1 (another image has no nginx)
  const sig = pause || (bin === 'nginx' && rt!.process(c.id)?.service?.name !== 'nginx') ? undefined : signalOfCommand(argv);
  if (sig !== undefined) {
    if (sig !== 'none') rt!.signal(c.id, sig);
    return exec({ stdout: '', stderr: '', exitCode: 0 });
  }
  const program = pause ? undefined : execProgramFor(argv, rt!.programs);
  const unknown = program?.kind === 'shell' ? unknownCommand(program.stmts, ctx.redirect) : undefined;
  if (!program || unknown !== undefined) {
    if (!pause) {
      return refused(pod, `podlife: \`${unknown ?? bin}\` is not modelled in the container; kubectl exec runs sh -c scripts and ${[...SHELL_COMMANDS].filter((x) => /^[a-z]/.test(x) && x !== 'exec' && x !== 'wait' && x !== 'trap').join(', ')}, kill 1 and nginx -s quit`);
    }
    if (argv[0] === '/pause') return refused(pod, 'podlife: `/pause` would take virtual time, and kubectl exec runs commands that end at once (the console cannot wait on one)');
    const id = ctx.timingRng(`exec/${c.id}/${ctx.now}`).hex(64);
    const error = `Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec ${JSON.stringify(id)}: OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(argv[0])}: executable file not found in $PATH: unknown`;
    return exec({ stdout: '', stderr: '', exitCode: 1, error });
  }
  // the files the kubelet and the runtime give the container: /etc/hosts and the others, and its volumes'
  const managed = rt!.podFiles?.(pod.metadata.uid!, a.container, c.id) ?? new Map<string, string>();
  // the image's own files are not modelled: a command that reads them (ls /etc, stat, a bare ls) is refused
  // a volume whose whole content the model knows: what the kubelet writes into it (not an emptyDir, which another
  // container of the pod may write into: the model keeps each container's files apart)
  const mounts = (container.volumeMounts ?? []).filter((m) => {
    const v = pod.spec.volumes?.find((x) => x.name === m.name) as Record<string, unknown> | undefined;
    return v && ['configMap', 'secret', 'downwardAPI', 'projected'].some((k) => k in v);
  }).map((m) => m.mountPath.replace(/\/+$/, ''));
  const under = (dirs: string[], path: string) => dirs.some((m) => path === m || path.startsWith(`${m}/`));
  const known = (path: string) => managed.has(path) || under(mounts, path);
  // those volumes are mounted read-only whatever the mount says (the kubelet's atomic writer owns them), and so is
  // any mount that says readOnly
  const readOnly = [...mounts, ...(container.volumeMounts ?? []).filter((m) => m.readOnly).map((m) => m.mountPath.replace(/\/+$/, ''))];
  const listing = program.kind === 'shell' ? lsOptions(program.stmts, ctx.redirect) : undefined;
  if (listing !== undefined) {
    return refused(pod, `podlife: \`${listing}\`: ls here lists names only; the model has no file modes, owners, sizes or times, nor a volume's hidden ..data links`);
  }
  const image = imageFileRead(program.kind === 'shell' ? program.stmts : [], files, ctx.redirect, known);
  if (image !== undefined) {
    return refused(pod, `podlife: the image's own files are not modelled (\`${image}\`); the model knows the files the container's commands make, the kubelet's /etc/hosts, /etc/hostname and /etc/resolv.conf, and the files of its ConfigMap, Secret and downward API volumes`);
  }
  // the image's environment is known whole only for the plain images (busybox, alpine, debian, ubuntu)
  const env = program.kind === 'shell' ? unknownEnvRead(program.stmts, rt!.podEnv?.(pod.metadata.uid!, a.container, c.id) ?? new Map(), envComplete(pod, container as Container, ctx, c.createdAt), ctx.redirect) : undefined;
  if (env !== undefined) {
    if (/^(\S*\/)?env \S/.test(env)) return refused(pod, `podlife: \`${env}\`: env with a command to run is not modelled; kubectl exec runs the command itself, or sh -c "NAME=value command"`);
    return refused(pod, `podlife: the image's environment is not modelled (\`${env}\`); the model knows PATH, HOSTNAME, HOME and what the kubelet sets: the Services' variables and the container's env`);
  }
  // run it on a copy of the files, kept only if it ends at once (a command refused changes nothing)
  const unmodelled = MANAGED_FILES.find((f) => !managed.has(f) && argv.some((x) => x.includes(f)));
  if (unmodelled) {
    const whose = pod.spec.hostNetwork ? "the node's (the pod is on the host's network)" : `the node's (dnsPolicy ${pod.spec.dnsPolicy})`;
    return refused(pod, `podlife: this container's ${unmodelled} is ${whose}, which the model does not have`);
  }
  const fs = new Set([...files, ...managed.keys()]);
  const written = rt!.fileData(c.id)!;
  const data = new Map(written);
  let stdout = '';
  let stderr = '';
  let code: number | undefined;
  const proc = new Process(
    {
      loop: ctx.loop,
      log: (stream, text) => (stream === 'stdout' ? (stdout += `${text}\n`) : (stderr += `${text}\n`)),
      fs,
      data,
      get env() {
        return rt!.podEnv?.(pod.metadata.uid!, a.container, c.id);
      },
      read: (path) => managed.get(path),
      readOnly: (path) => under(readOnly, path),
      hostname: managed.get('/etc/hostname')?.trimEnd() ?? pod.metadata.name,
      wallclock: (t) => new Date(ctx.epoch + t),
      exited: (x) => (code = x),
    },
    program,
    rt!.programs,
  );
  proc.start();
  if (code === undefined) {
    proc.signal('SIGKILL');
    return refused(pod, `podlife: \`${argv.join(' ')}\` would take virtual time, and kubectl exec runs commands that end at once (the console cannot wait on one)`);
  }
  files.clear();
  for (const f of fs) if (!managed.has(f)) files.add(f);
  written.clear();
  for (const [f, text] of data) written.set(f, text);
  return exec({ stdout, stderr, exitCode: code });
}
