// podlife command-line entry point. Each subcommand lives in scripts/commands/<name>.ts and exports
// `run(args: string[]): Promise<number>` (the exit code) plus a one-line `summary`.
import { readFileSync } from 'node:fs';
import { site } from '../src/site.ts';
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

/** The usage text, each command with its one-line summary (loading a command module is cheap: none runs on import). */
async function usage(): Promise<string> {
  const names = Object.keys(subcommands);
  const summaries = await Promise.all(names.map(async (name) => (await subcommands[name]()).summary));
  const width = Math.max(...names.map((n) => n.length));
  return [
    'Usage: podlife <command> [options]',
    '',
    'Commands:',
    ...names.map((name, i) => `  ${name.padEnd(width)}  ${summaries[i]}`),
    '',
    'Run `podlife <command> --help` (or `podlife help <command>`) for a command\'s options; `podlife --version` for versions.',
  ].join('\n');
}

async function version(): Promise<string> {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return `podlife ${pkg.version} (models Kubernetes ${site.kubernetesVersion}; Node ${process.version})`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(await version());
    return 0;
  }
  if (name === 'help' && rest[0] && subcommands[rest[0]]) return (await subcommands[rest[0]]()).run(['--help']);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? 0 : 2;
  }
  const load = subcommands[name];
  if (!load) {
    console.error(`podlife: unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  const cmd = await load();
  return cmd.run(rest);
}

// A reader that stops reading (`| head -1`, `| grep -q`) closes the pipe: what is left to print is dropped,
// quietly, and the command still finishes (a build still cleans up after itself).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') {
      stream.destroy();
      return;
    }
    throw err;
  });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(formatError(err));
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
