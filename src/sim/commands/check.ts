// Static checks of a command line before a scenario runs it: it must parse as a shell line, name
// tools this console has, and (for kubectl) use a known verb with flags that parse. Problems are
// reported with the text the real shell or kubectl would print.

import { ShellSyntaxError, parse } from './shell.ts';
import { checkKubectl } from './kubectl/index.ts';

const TOOLS = new Set(['kubectl', 'crictl', 'journalctl', 'grep', 'egrep', 'head', 'tail', 'wc', 'jq', 'sudo']);

export function checkCommandLine(line: string): string | undefined {
  let list;
  try {
    list = parse(line);
  } catch (e) {
    if (e instanceof ShellSyntaxError) return e.message;
    throw e;
  }
  if (list.length === 0) return 'empty command';
  for (const { pipeline } of list) {
    for (const cmd of pipeline) {
      if (cmd.redirectError) return cmd.redirectError;
      let argv = cmd.argv;
      if (argv[0] === 'sudo') {
        let i = 1;
        while (i < argv.length && argv[i].startsWith('-')) i += argv[i] === '-u' ? 2 : 1;
        argv = argv.slice(i);
        if (argv.length === 0) return 'sudo: a command is required';
      }
      if (!TOOLS.has(argv[0])) return `bash: ${argv[0]}: command not found (this console runs ${[...TOOLS].join(', ')})`;
      if (argv[0] === 'kubectl') {
        const problem = checkKubectl(argv);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}
