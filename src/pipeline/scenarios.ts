// Scenarios at build time: read content/scenarios/<name>.yaml once, parse it with the engine's own
// parser, run it once per seed, and hand the results to every plugin that needs them (console outputs,
// the simulation player's static part, trace diagrams, the step-key check).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseScenario, type Scenario } from '../sim/index.ts';
import { recordReplay } from '../sim/record.ts';
import { type RunnableScenario, runnable, runScenario, type SimulationRun } from '../sim/run.ts';

export const SCENARIOS_DIR = 'content/scenarios';

export interface LoadedScenario {
  name: string;
  /** Path relative to the project root. */
  file: string;
  text: string;
  scenario: Scenario;
  runnable: RunnableScenario;
}

/** A scenario that is not there, with the names that are. */
export class UnknownScenarioError extends Error {
  readonly available: string[];
  constructor(name: string, available: string[]) {
    super(`unknown scenario "${name}": there is no ${SCENARIOS_DIR}/${name}.yaml`);
    this.available = available;
  }
}

const loaded = new Map<string, LoadedScenario>();
const runs = new Map<string, SimulationRun>();
const replays = new Map<string, string>();
/** Replays the pages asked for (name and seed), written into the built site. */
const wanted = new Map<string, { name: string; seed: number }>();

/** Forget every loaded scenario and run (the dev server calls this when a scenario file changes). */
export function clearScenarioCache(): void {
  loaded.clear();
  runs.clear();
  replays.clear();
}

export function scenarioNames(root = process.cwd()): string[] {
  const dir = resolve(root, SCENARIOS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** Load and parse a scenario by name. Throws UnknownScenarioError, or the parser's ScenarioError. */
export function loadScenario(name: string, root = process.cwd()): LoadedScenario {
  const key = `${resolve(root)}\0${name}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  const file = join(SCENARIOS_DIR, `${name}.yaml`);
  const path = resolve(root, file);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !existsSync(path)) throw new UnknownScenarioError(name, scenarioNames(root));
  const text = readFileSync(path, 'utf8');
  const scenario = parseScenario(text, file);
  const result = { name, file, text, scenario, runnable: runnable(scenario) };
  loaded.set(key, result);
  return result;
}

/** The scenario's whole run (same as `podlife simulate`), computed once per build and seed. */
export function scenarioRun(loadedScenario: LoadedScenario, seed?: number): SimulationRun {
  const effective = seed ?? loadedScenario.scenario.seed ?? 1;
  const key = `${loadedScenario.file}\0${effective}`;
  let run = runs.get(key);
  if (!run) {
    run = runScenario(loadedScenario.runnable, { seed: effective });
    runs.set(key, run);
  }
  return run;
}

/** The site path of a scenario's recorded run (what the player fetches first). */
export function replayPath(name: string, seed: number): string {
  return `/_podlife/scenarios/${name}.seed-${seed}.replay.json`;
}

/** A page shows a player for this scenario and seed: its replay goes into the built site. */
export function noteReplay(name: string, seed: number): string {
  wanted.set(`${name}\0${seed}`, { name, seed });
  return replayPath(name, seed);
}

/** The replays to publish: every page's, and each scenario at its own seed. */
export function replaysToPublish(root = process.cwd()): { name: string; seed: number }[] {
  const all = new Map(wanted);
  for (const name of scenarioNames(root)) {
    const seed = loadScenario(name, root).scenario.seed ?? 1;
    all.set(`${name}\0${seed}`, { name, seed });
  }
  return [...all.values()].sort((a, b) => a.name.localeCompare(b.name) || a.seed - b.seed);
}

/** The recorded run of a scenario (JSON), made once per build. */
export function replayJson(name: string, seed: number, root = process.cwd()): string {
  const key = `${resolve(root)}\0${name}\0${seed}`;
  let json = replays.get(key);
  if (!json) {
    json = JSON.stringify(recordReplay(loadScenario(name, root).scenario, seed));
    replays.set(key, json);
  }
  return json;
}
