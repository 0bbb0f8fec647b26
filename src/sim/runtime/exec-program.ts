// What `kubectl exec` and exec hooks and probes run in a container: a shell for `sh -c`, else one command of the
// model's shell. Only exec needs it (kubelet/exec.ts, kubelet/handlers.ts), so it is not in the engine's first load.

import { type Program, type ProgramContext, SHELLS, baseName, programFor } from './process.ts';

/** Commands the model's shell implements (busybox applets and shell builtins). */
export const SHELL_COMMANDS = new Set([
  ':', 'true', 'false', 'exit', 'echo', 'printf', 'date', 'sleep', 'wait', 'trap', 'exec', 'touch', 'mkdir', 'rm', 'cat', 'ls', 'stat', 'test', '[',
  'hostname', 'printenv', 'env', 'export', 'break', 'continue',
]);

/** What `kubectl exec` / an exec probe runs: a shell for `sh -c`, else one command as the shell would run it. */
export function execProgramFor(argv: string[], ctx: ProgramContext): Program | undefined {
  const bin = baseName(argv[0] ?? '');
  if (SHELLS.has(bin)) return programFor(argv, ctx);
  if (SHELL_COMMANDS.has(bin) && bin !== 'exec' && bin !== 'wait' && bin !== 'trap') return { kind: 'shell', stmts: [{ kind: 'cmd', argv }] };
  return undefined;
}
