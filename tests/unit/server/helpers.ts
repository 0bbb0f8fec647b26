// Shared by the `podlife serve` tests: a paused server in this process, the real kubectl as a subprocess
// against it (no kubeconfig, a private cache directory), the control endpoint to move virtual time, and
// podlife's own answer for the same scenario, times and requests (runCommandAt).

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseScenario, type ClusterState, type Scenario, type TimelineEntry } from '../../../src/sim/index.ts';
import { runCommandAt, runScenario, runnable } from '../../../src/sim/run.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../../src/server/server.ts';

export const KUBECTL = '/usr/bin/kubectl';
export const kubectlAvailable = existsSync(KUBECTL);
export const SKIP_REASON = `real kubectl tests are skipped: no kubectl at ${KUBECTL}`;

export function loadScenario(name: string): Scenario {
  const file = `content/scenarios/${name}.yaml`;
  return parseScenario(readFileSync(file, 'utf8'), file);
}

/** A server in paused mode on a free port. */
export function startPaused(opts: Omit<ServeOptions, 'port' | 'paused'> = {}): Promise<RunningServer> {
  return startServer({ ...opts, port: 0, paused: true });
}

export interface Run {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Files both kubectls read (-f): `file` writes one into a fresh directory and returns its path; `readFile` is how
 * podlife's kubectl reads a path (undefined: no such file).
 */
export function scratchFiles(prefix: string): { file: (name: string, text: string) => string; readFile: (p: string) => string | undefined } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    file: (name, text) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    },
    readFile: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

const home = mkdtempSync(path.join(tmpdir(), 'podlife-kubectl-'));

/** kubectl's environment: no kubeconfig, a private HOME (discovery cache), the article's zone (UTC+8). */
export const kubectlEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: path.join(home, 'no-kubeconfig'), TZ: 'Asia/Shanghai',
});

/** Real kubectl against the server: no kubeconfig, its own discovery cache, the article's zone (UTC+8). */
export function kubectl(server: RunningServer, args: string[], opts: { timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      KUBECTL,
      ['--server', server.url, '--request-timeout=20s', ...args],
      { env: kubectlEnv(), timeout: opts.timeoutMs ?? 30_000 },
      (err, stdout, stderr) => resolve({ stdout: withoutNullCreationTimestamp(stdout), stderr, code: err ? (typeof err.code === 'number' ? err.code : -1) : 0 }),
    );
  });
}

/**
 * kubectl v1.34 stopped writing a zero creationTimestamp (`creationTimestamp: null`): metav1.ObjectMeta's field is
 * `omitempty,omitzero` since apimachinery v0.34 (kubernetes#130989, "Omit null creationTimestamp"). The machine's
 * kubectl may be older: its output as v1.36's, in YAML, JSON and the compact JSON of the last-applied annotation.
 */
export function withoutNullCreationTimestamp(text: string): string {
  return text
    .replace(/^ *creationTimestamp: null\n/gm, '')
    .replace(/,\n *"creationTimestamp": null(?=\n)/g, '')
    .replace(/\n *"creationTimestamp": null,(?=\n)/g, '')
    .replace(/,\\"creationTimestamp\\":null/g, '')
    .replace(/,"creationTimestamp":null/g, '');
}

/** Move virtual time through the control endpoint, as a user would. */
export async function advance(server: RunningServer, to: string): Promise<{ now: string; nowMs: number }> {
  const res = await fetch(`${server.url}/podlife/advance?to=${encodeURIComponent(to)}`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`advance to ${to}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { now: string; nowMs: number };
}

/**
 * Wait until `count` watches are open on the server (the real kubectl's `get -w` have listed and started
 * watching), so that what they list is read before virtual time moves; a fixed sleep is too short on a
 * loaded machine. After `timeoutMs` it returns anyway: the comparison that follows says what differs.
 */
export async function watchesOpen(server: RunningServer, count: number, timeoutMs = 15_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = ((await (await fetch(`${server.url}/podlife/time`)).json()) as { watches: number }).watches;
    if (open >= count || Date.now() > until) return open;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A command typed into the cluster at a virtual time (what the test sent with real kubectl). */
export interface Typed {
  at: number;
  run: string;
}

/**
 * What `podlife simulate <scenario> --at <at> -- <command>` prints, for the same cluster the server serves:
 * the scenario (or the default empty cluster), the same epoch, plus the commands the test typed.
 */
export function podlifeAt(
  scenario: Scenario | undefined, at: number, command: string, o: { epoch?: number; typed?: Typed[]; readFile?: (path: string) => string | undefined } = {},
): Run {
  const base: Scenario = scenario ?? { file: '', title: 'empty', cluster: { nodes: [], images: {} }, timeline: [] };
  const typed: TimelineEntry[] = (o.typed ?? []).map((t) => ({ at: t.at, line: 0, column: 0, run: t.run }));
  const s: Scenario = { ...base, ...(o.epoch !== undefined ? { start: o.epoch } : {}), timeline: [...base.timeline, ...typed] };
  const r = runCommandAt(runnable(s), at, command, o.readFile ? { readFile: o.readFile } : {});
  return { stdout: r.stdout, stderr: r.stderr, code: r.exitCode };
}

/**
 * kubectl v1.32 (the local client) and v1.36 (what podlife prints) describe pods differently in three
 * places, checked against the v1.36 describe.go by the printers' own parity tests: projected config maps
 * ("Optional: false" vs "ConfigMapOptional: <nil>"), named ports, and event messages prefixed with the
 * container's field path (since v1.35). Map podlife's v1.36 text to what v1.32 prints.
 */
export function asKubectl132(describe: string): string {
  return describe
    .replace('    Optional:                false\n', '    ConfigMapOptional:       <nil>\n')
    .replace(/^(\s*(?:Host )?Ports?:\s+)(.*)$/gm, (_m, label: string, list: string) => label + list.replace(/ \([^)]*\)/g, ''))
    .replace(/^(  (?:Normal|Warning)\s.*?)spec\.(?:initContainers|containers|ephemeralContainers)\{[^}]*\}: /gm, '$1');
}

/** The Events table of a describe as rows of (type, reason, from, message), without the ages. */
export function eventRows(describe: string): string[][] {
  const at = describe.indexOf('\nEvents:\n');
  if (at < 0) return [];
  return describe
    .slice(at)
    .split('\n')
    .slice(4)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [type, reason, ...rest] = l.trim().split(/\s{2,}/);
      // rest = [age, from, message...]; the message itself may hold double spaces
      return [type, reason, rest[1], rest.slice(2).join('  ')];
    });
}

/** A describe without what depends on the reader's clock: the Events table (compare eventRows) and "lasts". */
export function withoutClock(describe: string): string {
  const at = describe.indexOf('\nEvents:');
  return (at < 0 ? describe : describe.slice(0, at)).replace(/Terminating \(lasts [^)]*\)/, 'Terminating (lasts …)');
}

/** A command line run by bash with `kubectl` meaning the real kubectl against the server (pipes work). */
export function shell(server: RunningServer, line: string): Promise<Run> {
  const fn = `kubectl() { ${KUBECTL} --server "$PODLIFE_SERVER" --request-timeout=20s "$@"; }\n`;
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', fn + line],
      { env: { ...kubectlEnv(), PODLIFE_SERVER: server.url }, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? (typeof err.code === 'number' ? err.code : -1) : 0 }),
    );
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The cluster podlife simulates for the scenario (plus the typed commands) at virtual time `at`. */
export function podlifeState(scenario: Scenario | undefined, at: number, o: { epoch?: number; typed?: Typed[] } = {}): ClusterState {
  const base: Scenario = scenario ?? { file: '', title: 'empty', cluster: { nodes: [], images: {} }, timeline: [] };
  const typed: TimelineEntry[] = (o.typed ?? []).map((t) => ({ at: t.at, line: 0, column: 0, run: t.run }));
  const timeline = [...base.timeline, ...typed].filter((step) => step.at <= at);
  const run = runScenario(runnable({ ...base, ...(o.epoch !== undefined ? { start: o.epoch } : {}), timeline }));
  run.engine.advanceTo(at);
  return run.engine.state();
}

/** A command line run by podlife over a cluster state, read at wall-clock time `now` (ms). */
export function podlifeRead(state: ClusterState, line: string, now: number): Run {
  const r = execute(line, { state: { ...state, t: now - state.epoch } });
  return { stdout: r.stdout, stderr: r.stderr, code: r.exitCode };
}

/**
 * Run a command whose output depends on the reader's clock (kubectl describe computes event ages with
 * its own time.Now()). The server's epoch is chosen so that virtual time `at` is the real instant kubectl
 * starts at, so the ages are what a reader at `at` sees; kubectl reads its clock at some instant between
 * its start and its exit, so podlife's side is the same command over podlife's cluster at `at`, read at
 * each millisecond of that interval (the distinct outputs are few: ages change on whole seconds). The
 * expected output is the one kubectl's matches, else the one at kubectl's start.
 */
export async function atRealTime(
  scenario: Scenario | undefined,
  at: number,
  line: string,
  o: { typed?: Typed[]; podlifeLine?: string; normalise?: (s: string) => string } = {},
): Promise<{ real: Run; expected: Run }> {
  const phase = (((scenario?.start ?? 0) % 1000) + 1000) % 1000;
  // Keep the scenario's sub-second phase (timestamps truncate to the second as in podlife simulate) and
  // put `at` a little ahead, leaving time to start the server.
  const startAt = Math.ceil((Date.now() + 1500) / 1000) * 1000 + ((phase + at) % 1000);
  const epoch = startAt - at;
  const state = podlifeState(scenario, at, { epoch, ...(o.typed ? { typed: o.typed } : {}) });
  const server = await startPaused({ ...(scenario ? { scenario } : {}), epoch });
  let real: Run;
  let end: number;
  try {
    for (const t of o.typed ?? []) {
      await advance(server, `${t.at}ms`);
      const r = await shell(server, t.run);
      if (r.code !== 0) throw new Error(`${t.run}: ${r.stderr}`);
    }
    await advance(server, `${at}ms`);
    while (Date.now() < startAt) await sleep(Math.min(20, startAt - Date.now()));
    real = await shell(server, line);
    end = Date.now();
  } finally {
    await server.close();
  }
  const norm = o.normalise ?? ((x: string) => x);
  const candidates = new Map<string, Run>();
  for (let now = startAt; now <= end; now++) {
    const r = podlifeRead(state, o.podlifeLine ?? line, now);
    const n = { ...r, stdout: norm(r.stdout) };
    if (!candidates.has(n.stdout)) candidates.set(n.stdout, n);
  }
  const expected = candidates.get(real.stdout) ?? [...candidates.values()][0];
  return { real, expected };
}
