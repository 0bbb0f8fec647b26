// podlife command-line entry point. Each subcommand lives in scripts/commands/<name>.ts and exports
// `run(args: string[]): Promise<number>` (the exit code) plus a one-line `summary`.
import { UsageError, formatError } from './errors.ts';

interface Subcommand {
  summary: string;
  run(args: string[]): Promise<number>;
}

const subcommands: Record<string, () => Promise<Subcommand>> = {
  build: () => import('./commands/build.ts'),
  check: () => import('./commands/check.ts'),
  coverage: () => import('./commands/coverage.ts'),
  new: () => import('./commands/new.ts'),
  serve: () => import('./commands/serve.ts'),
  simulate: () => import('./commands/simulate.ts'),
  sources: () => import('./commands/sources.ts'),
};

function usage(): string {
  return [
    'Usage: podlife <command> [options]',
    '',
    'Commands:',
    ...Object.keys(subcommands).map((name) => `  ${name}`),
    '',
    'Run `podlife <command> --help` for a command\'s options.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const load = subcommands[name];
  if (!load) {
    console.error(`podlife: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const cmd = await load();
  return cmd.run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(formatError(err));
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
