// `podlife serve [scenario] [--port 8001] [--speed 1|10|60] [--paused]`: serve the simulated cluster as a
// Kubernetes API on 127.0.0.1, so a real kubectl can watch a scenario happen (see src/server/).

import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { resolveScenario, SCENARIO_DIR } from '../lib/scenario-file.ts';
import { DEFAULT_EPOCH, parseScenario, type Scenario } from '../../src/sim/index.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

export const summary = 'serve a scenario\'s simulated cluster to a real kubectl (Kubernetes API on 127.0.0.1)';


const HELP = `Usage:
  podlife serve [scenario] [--port 8001] [--speed 1|10|60] [--paused] [--seed N] [--start now|scenario|<RFC 3339>]

Serves the simulated cluster as a Kubernetes API server on 127.0.0.1, for your own kubectl:
  kubectl --server http://127.0.0.1:8001 get pods

  [scenario]        a scenario file, or the name of one in ${SCENARIO_DIR}/ (e.g. crash-loop); its
                    timeline's apply: manifests and kubectl run/apply/delete/patch commands happen at
                    their times (read-only commands are yours to type). Without one: an empty cluster
                    with one node, worker01.
  --port N          the port (default 8001; 0 = any free port)
  --speed X         virtual seconds per real second (default 1; 10 or 60 to get through back-offs)
  --paused          virtual time moves only when you move it:
                      curl -X POST 'http://127.0.0.1:8001/podlife/advance?to=8m23s'   (or ?by=10s)
                    and GET /podlife/time says where it is
  --seed N          the random seed (IDs, UIDs); default: the scenario's, else 1
  --start WHEN      the wall-clock time of virtual 0: "now" (default when the clock runs: the cluster's
                    clock is yours, so kubectl describe's ages, which kubectl computes, agree at --speed 1),
                    "scenario" (default when --paused: the scenario's own timestamps, as podlife simulate
                    and the book show them), or an RFC 3339 time
  -h, --help        show this help

Stop with Ctrl-C.
`;

interface Options {
  scenarioArg?: string;
  port: number;
  speed: number;
  paused: boolean;
  seed?: number;
  start?: string;
}

function parseArgs(args: string[]): Options | undefined {
  const o: Options = { port: 8001, speed: 1, paused: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (name: string): string => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      if (i + 1 >= args.length) throw new UsageError(`${name} needs a value`);
      return args[++i];
    };
    if (a === '-h' || a === '--help') return undefined;
    if (a === '--paused') o.paused = true;
    else if (a === '--port' || a.startsWith('--port=')) {
      const v = value('--port');
      if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`--port ${JSON.stringify(v)}: expected a port number (0-65535)`);
      o.port = Number(v);
    } else if (a === '--speed' || a.startsWith('--speed=')) {
      const v = value('--speed');
      if (!/^\d+(\.\d+)?$/.test(v) || !(Number(v) > 0)) {
        throw Object.assign(new UsageError(`--speed ${JSON.stringify(v)}: expected a positive number`), { hint: 'e.g. --speed 1, 10 or 60' });
      }
      o.speed = Number(v);
    } else if (a === '--seed' || a.startsWith('--seed=')) {
      const v = value('--seed');
      if (!/^\d+$/.test(v)) throw new UsageError(`--seed ${JSON.stringify(v)}: expected a non-negative integer`);
      o.seed = Number(v);
    } else if (a === '--start' || a.startsWith('--start=')) {
      o.start = value('--start');
    } else if (a.startsWith('-')) {
      throw Object.assign(new UsageError(`unknown option ${a}`), { hint: 'see podlife serve --help' });
    } else if (o.scenarioArg === undefined) o.scenarioArg = a;
    else throw Object.assign(new UsageError(`unexpected argument ${JSON.stringify(a)}`), { hint: 'podlife serve takes one scenario' });
  }
  return o;
}

/**
 * The epoch and the real instant virtual time starts at. "now" keeps the scenario's sub-second phase, so
 * every timestamp truncates to the second exactly as in `podlife simulate`, and starts the clock at that
 * instant (less than a second from now), so the cluster's clock and the real one read the same.
 */
function epochFor(start: string, scenario: Scenario | undefined): { epoch?: number; startAt?: number } {
  if (start === 'scenario') return {};
  if (start === 'now') {
    const phase = ((scenario?.start ?? DEFAULT_EPOCH) % 1000 + 1000) % 1000;
    const now = Date.now();
    const epoch = now - (now % 1000) + phase + (now % 1000 > phase ? 1000 : 0);
    return { epoch, startAt: epoch };
  }
  const t = Date.parse(start);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(start) || Number.isNaN(t)) {
    throw Object.assign(new UsageError(`--start ${JSON.stringify(start)}: expected now, scenario or an RFC 3339 time`), { hint: 'e.g. --start 2026-08-04T03:32:36Z' });
  }
  return { epoch: t };
}

function kubeconfig(url: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: podlife',
    '  cluster:',
    `    server: ${url}`,
    'contexts:',
    '- name: podlife',
    '  context:',
    '    cluster: podlife',
    '    namespace: default',
    '    user: podlife',
    'current-context: podlife',
    'users:',
    '- name: podlife',
    '  user: {}',
  ].join('\n');
}

function banner(s: RunningServer, source: string, o: Options): string {
  const t = s.time();
  const pace = o.paused
    ? `virtual time is paused at ${t.now}; move it with:\n  curl -X POST '${s.url}/podlife/advance?to=8m23s'    (or ?by=10s)`
    : `virtual time runs at ${o.speed}x; curl -X POST ${s.url}/podlife/pause (or /resume, /speed?to=60, /advance?by=1m) to change that`;
  return [
    `podlife serve: ${source}, seed ${s.cluster.seed}`,
    `Serving the simulated cluster at ${s.url} (127.0.0.1 only). Ctrl-C stops it.`,
    '',
    'Use your kubectl:',
    `  kubectl --server ${s.url} get pods`,
    '',
    'or save this kubeconfig (e.g. as podlife.kubeconfig) and run KUBECONFIG=podlife.kubeconfig kubectl get pods:',
    '',
    kubeconfig(s.url),
    '',
    pace,
    `  GET ${s.url}/podlife/time says where virtual time is${t.next ? ` (next timeline step at ${t.next.at})` : ''}.`,
    '',
  ].join('\n');
}

export async function run(args: string[]): Promise<number> {
  const o = parseArgs(args);
  if (!o) {
    process.stdout.write(HELP);
    return 0;
  }
  let scenario: Scenario | undefined;
  let source = 'an empty cluster with one node (worker01)';
  if (o.scenarioArg !== undefined) {
    const file = resolveScenario(o.scenarioArg);
    scenario = parseScenario(readFileSync(file, 'utf8'), file);
    source = `"${scenario.title}" (${file})`;
  }
  const { epoch, startAt } = epochFor(o.start ?? (o.paused ? 'scenario' : 'now'), scenario);
  let server: RunningServer;
  try {
    server = await startServer({
      ...(scenario ? { scenario } : {}),
      port: o.port,
      speed: o.speed,
      paused: o.paused,
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(epoch !== undefined ? { epoch } : {}),
      ...(startAt !== undefined ? { startAt } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw Object.assign(new UsageError(`port ${o.port} on 127.0.0.1 is already in use`), { hint: 'choose another with --port N (or --port 0 for any free port)' });
    }
    if (code === 'EACCES') throw Object.assign(new UsageError(`not allowed to listen on port ${o.port}`), { hint: 'use a port above 1023' });
    throw e;
  }
  process.stdout.write(banner(server, source, o));
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.stderr.write(`podlife serve: ${signal}, stopping at virtual time ${server.time().now}\n`);
      void server.close().then(resolve);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  return 0;
}
