// Run a scenario: drive the engine through the timeline on its virtual clock, execute each `run:`
// command line at its time against the cluster as it is then, submit each `apply:` manifest as a
// create, and record what every command printed. Also: run one more command at any virtual time
// (the page's console and `podlife simulate --at`). Pure: no Node APIs, runs in the browser too.

import type { ApplyResult, ClusterAction, ClusterState, Engine, TraceEvent } from './types.ts';
import { createEngine } from './engine.ts';
import { type Scenario, scenarioToEngineConfig } from './scenario.ts';
import { type CommandResult, execute, isMutating } from './commands/execute.ts';
import type { ClusterFuture } from './commands/context.ts';
import { checkCommandLine } from './commands/check.ts';
import { type Write, shown } from './commands/shell.ts';
import { apiErrorText } from './commands/kubectl/common.ts';
import { goDuration } from './render/duration.ts';
import { NAMESPACE_NAMES } from './api/apiserver.ts';

/** One timeline entry, as the scenario file gives it (scenario.ts TimelineEntry fits). */
export interface TimelineStep {
  /** Virtual time in ms. */
  at: number;
  /** 1-based line (and column) of the entry in the scenario file, for errors. */
  line: number;
  column?: number;
  run?: string;
  /** A manifest (already parsed to an object), created as `kubectl apply -f` would create it. */
  apply?: unknown;
  /** Namespace for `apply` (default: the manifest's, else "default"). */
  namespace?: string;
}

/** What the runner needs: the timeline, and a way to make a fresh engine for the scenario's cluster. */
export interface RunnableScenario {
  /** The file it came from (for errors); "" when it has none. */
  file: string;
  title: string;
  seed?: number;
  timeline: TimelineStep[];
  createEngine(seed: number): Engine;
}

/** A parsed scenario file, ready to run. */
export function runnable(scenario: Scenario): RunnableScenario {
  const config = scenarioToEngineConfig(scenario);
  return {
    file: scenario.file,
    title: scenario.title,
    ...(scenario.seed !== undefined ? { seed: scenario.seed } : {}),
    timeline: scenario.timeline,
    createEngine: (seed) => createEngine(config, { seed }),
  };
}

export interface StepRecord {
  at: number;
  line: number;
  command: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Both streams in the order written, when not stdout then stderr (CommandResult.writes). */
  writes?: Write[];
}

export interface SimulationRun {
  title: string;
  seed: number;
  steps: StepRecord[];
  trace: readonly TraceEvent[];
  engine: Engine;
}

/** A scenario that cannot run: names the scenario file and line. */
export class ScenarioRunError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint?: string;
  constructor(message: string, where: { file?: string; line?: number; column?: number; hint?: string }) {
    super(message);
    this.file = where.file || undefined;
    this.line = where.line;
    this.column = where.column;
    this.hint = where.hint;
  }
}

export interface RunOptions {
  /** Overrides the scenario's seed (default 1). */
  seed?: number;
  /** The epoch-relative time zone of the node's shell for printed local times. */
  utcOffsetMinutes?: number;
  /**
   * runCommandAt: called as the simulation advances towards `at` (each virtual hour, and at the end), for a
   * progress display. Advancing in steps runs exactly the same events as one advance.
   */
  onAdvance?: (now: number, at: number) => void;
  /** runCommandAt: how the command at `at` reads the files it names (kubectl apply -f); none by default. */
  readFile?: (path: string) => string | undefined;
}

const PROGRESS_STEP = 3_600_000;

/** Steps in time order; entries at the same time keep their file order. */
function ordered(timeline: TimelineStep[]): TimelineStep[] {
  return timeline.map((s, i) => ({ s, i })).sort((a, b) => a.s.at - b.s.at || a.i - b.i).map((x) => x.s);
}

function contextFor(engine: Engine, utcOffsetMinutes: number | undefined, future?: () => ClusterFuture) {
  return {
    get state(): ClusterState {
      return engine.state();
    },
    apply: (a: ClusterAction) => engine.apply(a),
    ...(utcOffsetMinutes !== undefined ? { utcOffsetMinutes } : {}),
    ...(future ? { future } : {}),
  };
}

/**
 * An engine's run seen from a command: the moments it changed (its change history's times) and its state at each. `extend`
 * runs it on when a command asks for more; without it the view ends where the engine is, or at `end`.
 */
export function futureOf(engine: Engine, extend?: (until: number) => void, end = Infinity): ClusterFuture {
  return {
    reach(until) {
      extend?.(until);
      return Math.min(until, engine.now, end);
    },
    times: (from, to) => engine.changeTimes(from, to),
    stateAt: (t) => engine.stateAt(t),
  };
}

/**
 * What happens after a command, for a command that waits (`kubectl wait`): a second run of the scenario, every step
 * replayed in time order as far as asked. The steps that change the cluster run again; the others change nothing,
 * and a command that waits does not hold the timeline up (its later steps keep their times).
 */
function forkedFuture(scenario: RunnableScenario, seed: number, utcOffsetMinutes: number | undefined): ClusterFuture {
  const engine = scenario.createEngine(seed);
  const ctx = contextFor(engine, utcOffsetMinutes);
  const steps = ordered(scenario.timeline);
  let next = 0;
  return futureOf(engine, (until) => {
    if (until <= engine.now) return;
    while (next < steps.length && steps[next].at <= until) {
      const step = steps[next++];
      engine.advanceTo(step.at);
      if (step.apply !== undefined) applyManifest(engine, scenario, step);
      if (step.run !== undefined && isMutating(step.run)) execute(step.run, ctx);
    }
    engine.advanceTo(until);
  });
}

function validate(scenario: RunnableScenario, steps: TimelineStep[]): void {
  for (const step of steps) {
    if (step.run === undefined) continue;
    const problem = checkCommandLine(step.run);
    if (problem) {
      throw new ScenarioRunError(`timeline command cannot run: ${problem}`, {
        file: scenario.file,
        line: step.line,
        column: step.column,
        hint: 'write the command as you would type it in a shell; supported: kubectl, crictl, journalctl, sudo, and pipes into grep, head, tail, wc, jq',
      });
    }
  }
}

/** A manifest of a ConfigMap or a Secret (api/configs.ts), which goes to their store rather than the pods'. */
export const isConfig = (obj: unknown): boolean => {
  const kind = (obj as { kind?: unknown } | null)?.kind;
  return kind === 'ConfigMap' || kind === 'Secret';
};

/** What a scenario's `apply:` sends: a ConfigMap or a Secret to their store, a pod to the pods'. */
export function manifestAction(namespace: string, obj: unknown): ClusterAction & { type: 'create' | 'config' } {
  return isConfig(obj) ? { type: 'config', verb: 'create', namespace, obj } : { type: 'create', namespace, obj };
}

function applyManifest(engine: Engine, scenario: RunnableScenario, step: TimelineStep): void {
  const obj = step.apply as { metadata?: { namespace?: string } } | null;
  const namespace = step.namespace ?? obj?.metadata?.namespace ?? 'default';
  const r = engine.apply(manifestAction(namespace, step.apply));
  if (!r.ok) {
    throw new ScenarioRunError(`the API server rejected the manifest: ${apiErrorText(r.status).trimEnd()}`, {
      file: scenario.file,
      line: step.line,
      hint: r.status.details?.kind === 'namespaces' ? `the cluster's namespaces: ${NAMESPACE_NAMES.join(', ')}` : `fix the ${isConfig(step.apply) ? 'manifest' : 'pod manifest'} under this \`apply:\``,
    });
  }
}

/** Run the whole timeline. */
export function runScenario(scenario: RunnableScenario, options: RunOptions = {}): SimulationRun {
  const seed = options.seed ?? scenario.seed ?? 1;
  const steps = ordered(scenario.timeline);
  validate(scenario, steps);
  const engine = scenario.createEngine(seed);
  const ctx = contextFor(engine, options.utcOffsetMinutes, () => forkedFuture(scenario, seed, options.utcOffsetMinutes));
  const records: StepRecord[] = [];
  for (const step of steps) {
    engine.advanceTo(step.at);
    if (step.apply !== undefined) applyManifest(engine, scenario, step);
    if (step.run !== undefined) {
      const r = execute(step.run, ctx);
      records.push({ at: step.at, line: step.line, command: step.run, ...r });
    }
  }
  return { title: scenario.title, seed, steps: records, trace: engine.trace, engine };
}

/**
 * Run one more command at virtual time `at`, after the timeline's own steps up to and including
 * that time. A command that changes the cluster changes what follows, so the scenario is always
 * re-simulated with the command in place (which is also the cheapest way to get the state at `at`).
 */
export function runCommandAt(scenario: RunnableScenario, at: number, command: string, options: RunOptions = {}): CommandResult {
  const problem = checkCommandLine(command);
  if (problem) return { stdout: '', stderr: `${problem}\n`, exitCode: problem.startsWith('bash:') ? 2 : 1 };
  const seed = options.seed ?? scenario.seed ?? 1;
  const engine = scenario.createEngine(seed);
  const ctx = contextFor(engine, options.utcOffsetMinutes, () => forkedFuture(scenario, seed, options.utcOffsetMinutes));
  const advanceTo = (t: number) => {
    const report = options.onAdvance;
    for (let next = (Math.floor(engine.now / PROGRESS_STEP) + 1) * PROGRESS_STEP; report && next < t; next += PROGRESS_STEP) {
      engine.advanceTo(next);
      report(next, at);
    }
    engine.advanceTo(t);
    report?.(t, at);
  };
  for (const step of ordered(scenario.timeline).filter((s) => s.at <= at)) {
    advanceTo(step.at);
    if (step.apply !== undefined) applyManifest(engine, scenario, step);
    if (step.run !== undefined) execute(step.run, ctx);
  }
  advanceTo(at);
  // the command reads files (the timeline's lines do not: a scenario runs the same wherever it is)
  // (set on the context itself: a copy made by spreading would freeze its state getter)
  return execute(command, options.readFile ? Object.assign(ctx, { readFile: options.readFile }) : ctx);
}

/**
 * One more command at virtual time `at` of a run already made: a command that only reads the cluster is
 * answered from the run's own state at that moment; one that changes it, or a moment after the run's end,
 * re-simulates (runCommandAt). The output is the same either way — this is only cheaper, for the many
 * read-only commands a page asks about one run.
 */
export function commandAt(scenario: RunnableScenario, run: SimulationRun, at: number, command: string, options: RunOptions = {}): CommandResult {
  if (at > run.engine.now || isMutating(command)) return runCommandAt(scenario, at, command, { seed: run.seed, ...options });
  const problem = checkCommandLine(command);
  if (problem) return { stdout: '', stderr: `${problem}\n`, exitCode: problem.startsWith('bash:') ? 2 : 1 };
  const state = run.engine.stateAt(at);
  return execute(command, {
    state,
    ...(options.utcOffsetMinutes !== undefined ? { utcOffsetMinutes: options.utcOffsetMinutes } : {}),
    future: () => forkedFuture(scenario, run.seed, options.utcOffsetMinutes),
  });
}

/** The transcript `podlife simulate` prints: `$ command`, then exactly what it printed. */
export function formatTranscript(run: SimulationRun): string {
  let out = '';
  for (const s of run.steps) {
    out += `$ ${s.command}\n${shown(s)}`;
    // A tool that ends without a newline (jsonpath) leaves the next prompt on a fresh line, as a
    // terminal shows it after the shell prints its prompt.
    if (!out.endsWith('\n')) out += '\n';
  }
  return out;
}

/** "8m23s" for a step time (for labels and errors). */
export function formatAt(ms: number): string {
  return goDuration(ms);
}
