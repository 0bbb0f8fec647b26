// Running the shipped scenarios in tests.

import { readFileSync, readdirSync } from 'node:fs';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { type RunnableScenario, formatTranscript, runScenario, runnable } from '../../../src/sim/run.ts';

export const SCENARIO_DIR = 'content/scenarios';

export const scenarioNames = (): string[] =>
  readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();

export function loadScenario(name: string): RunnableScenario {
  const file = `${SCENARIO_DIR}/${name}.yaml`;
  return runnable(parseScenario(readFileSync(file, 'utf8'), file));
}

/** What `podlife simulate <name>` prints. */
export function transcriptOf(name: string, seed?: number): string {
  return formatTranscript(runScenario(loadScenario(name), seed === undefined ? {} : { seed }));
}
