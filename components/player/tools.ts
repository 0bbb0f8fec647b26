// The heavy half of the player, loaded when the reader uses the console or the manifest editor (or at
// once when the page has no recorded replay): the scenario parser with its YAML library, the runner and
// the command layer — the same code path as `podlife simulate`.
import { parseScenario } from '../../src/sim/scenario.ts';
import { runnable } from '../../src/sim/run.ts';
import { Simulation } from './model.ts';

export { Simulation };

export async function loadSimulation(src: string, file: string, seed: number | undefined): Promise<Simulation> {
  const response = await fetch(src);
  if (!response.ok) throw new Error(`${src}: HTTP ${response.status}`);
  const parsed = parseScenario(await response.text(), file);
  return new Simulation(runnable(parsed), seed ?? parsed.seed ?? 1);
}
