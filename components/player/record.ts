// Recording a replay (see replay.ts) at build time: run the scenario with the runner, exactly as
// `podlife simulate` does, and note every call it makes to the API server. The site's build writes the
// result next to the scenario's YAML and names it in the player's section (data-scenario-replay).
import { scenarioToEngineConfig, type Scenario } from '../../src/sim/scenario.ts';
import { runnable, runScenario } from '../../src/sim/run.ts';
import type { ClusterAction, Engine } from '../../src/sim/types.ts';
import { REPLAY_VERSION, type Replay } from './replay.ts';

export function recordReplay(scenario: Scenario, seed: number): Replay {
  const base = runnable(scenario);
  const actions: Replay['actions'] = [];
  const recording = {
    ...base,
    createEngine(s: number): Engine {
      const engine = base.createEngine(s);
      return {
        get now() {
          return engine.now;
        },
        get trace() {
          return engine.trace;
        },
        advanceTo: (t: number) => engine.advanceTo(t),
        apply: (action: ClusterAction) => {
          // A deep copy as JSON: what the page will fetch, and safe from later changes to the object.
          actions.push({ at: engine.now, action: JSON.parse(JSON.stringify(action)) as ClusterAction });
          return engine.apply(action);
        },
        state: () => engine.state(),
        stateAt: (t: number) => engine.stateAt(t),
      };
    },
  };
  const run = runScenario(recording, { seed });
  return { version: REPLAY_VERSION, title: scenario.title, seed, config: scenarioToEngineConfig(scenario), actions, end: run.engine.now };
}
