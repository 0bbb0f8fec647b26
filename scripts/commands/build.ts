// `podlife build`: the Astro build, then the Pagefind index, into a fresh directory that replaces dist/
// only when everything succeeded — a failed build reports what is wrong and leaves the last good site
// in place. Build tools' stack traces are hidden (PODLIFE_DEBUG=1 shows them): the messages podlife's
// plugins raise already name the file, the line and the fix.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { UsageError } from '../errors.ts';

export const summary = 'build the site into dist/ (Astro + Pagefind); dist/ is replaced only on success';

const ASTRO = resolve('node_modules/astro/bin/astro.mjs');

/**
 * What a person needs from the build tools' output: their messages, without stack traces, without
 * the inspected dump of an error object that repeats the message, and without "Location:" lines that
 * point into podlife's own code (the message names the chapter or scenario file and line).
 */
export function readableOutput(): (line: string) => boolean {
  let inDump = false;
  let skipNext = false;
  let inNotice = false;
  return (raw) => {
    // Build tools colour their output when they think a terminal (or FORCE_COLOR) is there: match
    // on the text without the colour codes.
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
    if (inDump) {
      if (line === '}') inDump = false;
      return false;
    }
    // Astro's own "use astro:head-inject" directive makes the bundler warn once per chapter, in a framed box that
    // ends with "───╯": nothing a contributor can act on, and it buries real messages
    if (inNotice) {
      if (/^\s*─*╯\s*$/.test(line)) inNotice = false;
      return false;
    }
    if (/\[MODULE_LEVEL_DIRECTIVE\].*"use astro:head-inject"/.test(line)) {
      inNotice = true;
      return false;
    }
    // the hook's generic wrapper line: podlife's own message, with the file and line, follows it
    if (/\[ERROR\] \[podlife\] An unhandled error occurred while running the "astro:config:setup" hook/.test(line)) return false;
    if (skipNext) {
      skipNext = false;
      if (/[\\/](node_modules|src[\\/]pipeline)[\\/]/.test(line)) return false;
    }
    if (/^\[\S+:\d+:\d+(-\d+:\d+)?: /.test(line)) {
      // "[<file>:<line>:<col>: <message>] {" … "}": Node's inspection of the error just reported.
      inDump = !line.endsWith('}');
      return false;
    }
    if (/^\s*Location:\s*$/.test(line)) {
      skipNext = true;
      return false;
    }
    return !(/^\s+at\s/.test(line) || /^\s*Stack trace:\s*$/.test(line));
  };
}

function exec(command: string, args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const debug = Boolean(process.env.PODLIFE_DEBUG);
    for (const [stream, sink] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
      const keep = readableOutput();
      createInterface({ input: stream }).on('line', (line) => {
        if (debug || keep(line)) sink.write(`${line}\n`);
      });
    }
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

const USAGE = `Usage: podlife build [--out <dir>] [--force]

Builds the site with Astro, indexes it for search with Pagefind, and only then replaces <dir> (default dist/):
a failed build reports the chapter or scenario file and line, and leaves the last good site in place.
  --out <dir>  where the site goes (default: dist)
  --force      rebuild Astro's content cache`;

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const unknown = args.filter((a, i) => a.startsWith('-') && a !== '--out' && a !== '--force' && args[i - 1] !== '--out');
  if (unknown.length) throw new UsageError(`build: unknown option ${unknown[0]}\n\n${USAGE}`);
  if (args.includes('--out') && !args[args.indexOf('--out') + 1]) throw new UsageError(`build: --out needs a directory\n\n${USAGE}`);
  const outDir = resolve(args.includes('--out') ? args[args.indexOf('--out') + 1] : 'dist');
  const next = join(dirname(outDir), `.podlife-next-${process.pid}`);
  const old = join(dirname(outDir), `.podlife-old-${process.pid}`);
  rmSync(next, { recursive: true, force: true });
  mkdirSync(dirname(next), { recursive: true });
  const astroArgs = [ASTRO, 'build', '--outDir', next, ...(args.includes('--force') ? ['--force'] : [])];
  try {
    if ((await exec(process.execPath, astroArgs)) !== 0) {
      console.error(`\npodlife: the build failed (see the message above). ${existsSync(outDir) ? `${rel(outDir)}/ still holds the last good build.` : ''}`);
      return 1;
    }
    if ((await exec('pagefind', ['--site', next])) !== 0) {
      console.error(`\npodlife: indexing for search (pagefind) failed. ${existsSync(outDir) ? `${rel(outDir)}/ still holds the last good build.` : ''}`);
      return 1;
    }
    if (existsSync(outDir)) renameSync(outDir, old);
    renameSync(next, outDir);
    rmSync(old, { recursive: true, force: true });
    console.log(`\npodlife: built ${rel(outDir)}/`);
    return 0;
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

function rel(path: string): string {
  const cwd = process.cwd();
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
