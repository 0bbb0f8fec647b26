// `execute(line, ctx)`: run one command line against the simulated cluster, as a root shell on the
// node would: kubectl, crictl, journalctl, a leading `sudo`, and pipes into grep, head, tail, wc, jq.

import { grep, head, tail, wc } from './filters.ts';
import { jq } from './jq.ts';
import { type CommandHandler, type CommandResult, ShellSyntaxError, parse, runList } from './shell.ts';
import type { ExecContext } from './context.ts';
import { isMutatingKubectl, kubectl } from './kubectl/index.ts';
import { crictl, isMutatingCrictl, journalctl } from './nodetools.ts';

export type { ExecContext } from './context.ts';
export type { CommandResult } from './shell.ts';

/** Common tools a real node has that this console does not model. */
const UNMODELLED_TOOLS = new Set([
  'awk', 'sed', 'sort', 'uniq', 'cut', 'tr', 'xargs', 'cat', 'less', 'more', 'watch', 'echo', 'printf', 'ls', 'ps',
  'docker', 'ctr', 'nerdctl', 'systemctl', 'curl', 'ip', 'nsenter', 'find', 'tee', 'column', 'yq',
]);

function handlerFor(name: string, ctx: ExecContext): CommandHandler | undefined {
  switch (name) {
    case 'kubectl':
      return (argv, stdin) => kubectl(argv, ctx, stdin);
    case 'crictl':
      return (argv) => crictl(argv, ctx);
    case 'journalctl':
      return (argv) => journalctl(argv, ctx);
    case 'grep':
    case 'egrep':
      return (argv, stdin) => grep(name === 'egrep' ? ['grep', '-E', ...argv.slice(1)] : argv, stdin);
    case 'head':
      return head;
    case 'tail':
      return tail;
    case 'wc':
      return wc;
    case 'jq':
      return jq;
    case 'sudo':
      return (argv, stdin) => sudo(argv, stdin, ctx);
    default:
      if (UNMODELLED_TOOLS.has(name)) {
        return () => ({
          stdout: '',
          stderr: `podlife: ${name} is not available in this console (it runs kubectl, crictl, journalctl, grep, head, tail, wc and jq)\n`,
          exitCode: 127,
        });
      }
      return undefined;
  }
}

/** `sudo [-E] [-u root] cmd ...` runs cmd (the console is already privileged). */
function sudo(argv: string[], stdin: string, ctx: ExecContext): CommandResult {
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i += argv[i] === '-u' ? 2 : 1;
  if (i >= argv.length) {
    return {
      stdout: '',
      stderr: 'usage: sudo -h | -K | -k | -V\nusage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]\n',
      exitCode: 1,
    };
  }
  const name = argv[i];
  const handler = handlerFor(name, ctx);
  if (!handler) return { stdout: '', stderr: `sudo: ${name}: command not found\n`, exitCode: 1 };
  return handler(argv.slice(i), stdin);
}

export function execute(line: string, ctx: ExecContext): CommandResult {
  try {
    const list = parse(line);
    return runList(list, (name) => handlerFor(name, ctx));
  } catch (e) {
    if (e instanceof ShellSyntaxError) return { stdout: '', stderr: `${e.message}\n`, exitCode: e.exitCode };
    throw e;
  }
}

/** Whether a command line would change the cluster (kubectl run/apply/delete/patch anywhere in it). */
export function isMutating(line: string): boolean {
  let list;
  try {
    list = parse(line);
  } catch {
    return false;
  }
  return list.some(({ pipeline }) =>
    pipeline.some((cmd) => {
      const argv = cmd.argv[0] === 'sudo' ? cmd.argv.slice(cmd.argv.findIndex((a, i) => i > 0 && !a.startsWith('-'))) : cmd.argv;
      if (argv[0] === 'crictl') return isMutatingCrictl(argv);
      return argv[0] === 'kubectl' && isMutatingKubectl(argv);
    }),
  );
}

