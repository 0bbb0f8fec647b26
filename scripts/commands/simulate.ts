// `podlife simulate <scenario> [--seed N] [--json]` and `... --at <duration> -- <command...>`:
// run a lifecycle scenario and print what the real tools would show (see DESIGN.md, "Simulation").

import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { knownHint, resolveScenario, SCENARIO_DIR } from '../lib/scenario-file.ts';
import { parseScenario } from '../../src/sim/scenario.ts';
import { formatTranscript, runCommandAt, runScenario, runnable } from '../../src/sim/run.ts';
import { formatGoDuration, parseGoDuration } from '../../src/sim/render/duration.ts';
import { writesOf } from '../../src/sim/commands/shell.ts';

export const summary = 'run a lifecycle scenario and print what kubectl, crictl and journalctl show';


const HELP = `Usage:
  podlife simulate <scenario> [--seed N] [--json]
  podlife simulate <scenario> [--seed N] --at <duration> -- <command...>

Runs a lifecycle scenario on the simulated cluster.

  <scenario>        a scenario file, or the name of one in ${SCENARIO_DIR}/ (e.g. crash-loop)
  --seed N          the random seed (IDs, UIDs); default: the scenario's seed, else 1
  --json            print the trace (every event, with the code step that caused it) as JSON
  --at <duration>   run one more command at that virtual time (Go duration: 500ms, 8m23s, 1h)
                    and print only its output; the exit code is the command's
  -h, --help        show this help

Without --json or --at, prints the transcript: each timeline command as "$ <command>",
followed by exactly what the real tool prints at that moment.

Examples:
  npx podlife simulate crash-loop
  npx podlife simulate nginx-test --at 89s -- kubectl describe pod nginx-test
  npx podlife simulate content/scenarios/delete.yaml --json
`;

/**
 * A long --at (a crash loop restarts every 5 minutes for as many virtual hours as asked: each restart is simulated)
 * shows how far the simulation got, on stderr when it is a terminal, once the run has taken a second; the line
 * is erased before the command's output. Piped or redirected, stderr gets nothing.
 */
function progressLine(): ((now: number, at: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  const started = performance.now();
  let shown = false;
  return (now, at) => {
    if (now >= at) {
      if (shown) process.stderr.write('\r\x1b[K');
    } else if (performance.now() - started > 1000) {
      process.stderr.write(`\r\x1b[Ksimulating: ${formatGoDuration(now)} of ${formatGoDuration(at)} (${Math.floor((now / at) * 100)}%)`);
      shown = true;
    }
  };
}

/** Quote a word for a shell line only when it needs it. */
function shellQuote(w: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;
}

export async function run(args: string[]): Promise<number> {
  const dash = args.indexOf('--');
  const own = dash >= 0 ? args.slice(0, dash) : args;
  const command = dash >= 0 ? args.slice(dash + 1) : [];
  let scenarioArg: string | undefined;
  let seed: number | undefined;
  let json = false;
  let at: number | undefined;
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      if (i + 1 >= own.length) throw new UsageError(`${name} needs a value`);
      return own[++i];
    };
    if (a === '-h' || a === '--help') {
      process.stdout.write(HELP);
      return 0;
    } else if (a === '--json') json = true;
    else if (a === '--seed' || a.startsWith('--seed=')) {
      const v = value('--seed');
      if (!/^\d+$/.test(v)) throw new UsageError(`--seed ${JSON.stringify(v)}: expected a non-negative integer`);
      seed = Number(v);
    } else if (a === '--at' || a.startsWith('--at=')) {
      const v = value('--at');
      const d = parseGoDuration(v);
      if (!d.ok) throw Object.assign(new UsageError(`--at ${JSON.stringify(v)}: ${d.error}`), { hint: 'use a Go duration such as 90s, 8m23s or 1h' });
      if (d.ms < 0) throw new UsageError(`--at ${JSON.stringify(v)}: the time must not be negative`);
      at = d.ms;
    } else if (a.startsWith('-')) {
      throw Object.assign(new UsageError(`unknown option ${a}`), { hint: 'see podlife simulate --help' });
    } else if (scenarioArg === undefined) scenarioArg = a;
    else throw Object.assign(new UsageError(`unexpected argument ${JSON.stringify(a)}`), { hint: 'put the command to run after --at <duration> --' });
  }
  if (scenarioArg === undefined) throw Object.assign(new UsageError('which scenario? podlife simulate <scenario> (see --help)'), { hint: knownHint() });
  if (at !== undefined && command.length === 0) throw new UsageError('--at needs a command after --, e.g. --at 2s -- kubectl get pods');
  if (at === undefined && command.length > 0) throw new UsageError('a command after -- needs --at <duration>');
  if (json && at !== undefined) throw new UsageError('--json and --at cannot be used together');

  const file = resolveScenario(scenarioArg);
  const scenario = runnable(parseScenario(readFileSync(file, 'utf8'), file));

  if (at !== undefined) {
    // One argument is a whole command line (pipes allowed); several are words to quote back.
    const line = command.length === 1 ? command[0] : command.map(shellQuote).join(' ');
    const r = runCommandAt(scenario, at, line, { seed, onAdvance: progressLine(), readFile: readRegularFile });
    // in the order the command wrote them (a warning before the output reads so in a terminal)
    for (const [fd, text] of writesOf(r)) (fd === 1 ? process.stdout : process.stderr).write(text);
    return r.exitCode;
  }
  const result = runScenario(scenario, { seed });
  if (json) {
    process.stdout.write(`${JSON.stringify(result.trace, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(formatTranscript(result));
  return 0;
}

/** A file the command names (kubectl apply -f pod.yaml), from the working directory; undefined when it is not a readable file. */
function readRegularFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
