// CPU instructions per pod through the lifecycle benchmark, counted by valgrind's callgrind. Prints a table; not a test.
//   npm run bench:instructions                      this checkout
//   npm run bench:instructions -- ../other-checkout  this checkout and another one (an A/B), side by side
//
// Wall-clock and CPU-time figures on a shared 2-core VM vary by ±20% from run to run, too much to tell whether a
// change made the engine 5% cheaper. An instruction count barely moves: each checkout runs the lifecycle of 300
// and of 2,300 pods in `node --predictable` (no concurrent compiler or GC threads) under callgrind, and the
// difference between the two runs, divided by 2,000, is the cost of one pod without the start-up. It takes about
// two minutes per checkout (valgrind runs node some 30× slower). Needs valgrind (`apt-get install -y valgrind`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SMALL = 300;
const LARGE = 2300;

/** In the measured child: the lifecycle benchmark of `n` pods (after the usual 300-pod warm-up when n > 0). */
async function child(repo: string, n: number): Promise<void> {
  const { lifecycle } = (await import(resolve(repo, 'scripts/bench/sim.ts'))) as typeof import('./sim.ts');
  lifecycle(SMALL);
  if (n > 0) lifecycle(n);
}

/** Instructions callgrind counted for one child run, or an error naming what went wrong. */
function count(repo: string, n: number): number {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', '--callgrind-out-file=/dev/null', process.execPath, '--predictable', self, '--child', repo, String(n)],
    { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
  );
  if (r.error) throw new Error(`bench:instructions: could not run valgrind (${r.error.message}); install it with \`apt-get install -y valgrind\``);
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`bench:instructions: the run of ${n} pods in ${repo} failed:\n${r.stderr.slice(-2000)}`);
  return Number(m[1]);
}

function perPod(repo: string): { startup: number; perPod: number } {
  const small = count(repo, 0);
  const large = count(repo, LARGE - SMALL);
  return { startup: small, perPod: (large - small) / (LARGE - SMALL) };
}

function main(): void {
  const repos = [process.cwd(), ...process.argv.slice(2).filter((a) => !a.startsWith('-'))].map((r) => resolve(r));
  for (const r of repos) {
    if (!existsSync(resolve(r, 'scripts/bench/sim.ts'))) {
      console.error(`bench:instructions: ${r} is not a podlife checkout (no scripts/bench/sim.ts)`);
      process.exit(2);
    }
  }
  const fmt = (x: number) => (x / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3, minimumFractionDigits: 3 });
  const results = repos.map((r) => ({ repo: r, ...perPod(r) }));
  const rows = [['checkout', 'instructions per pod (M)', `start-up + ${SMALL} pods (M)`, 'vs first']];
  for (const x of results) rows.push([x.repo, fmt(x.perPod), fmt(x.startup), `×${(x.perPod / results[0].perPod).toFixed(3)}`]);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1], Number(process.argv[at + 2]));
else if (import.meta.main) {
  try {
    main();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
