// Recording a replay (replay.ts) at build time.
import { runnable, runScenario } from './run.ts';
import { REPLAY_VERSION, type Replay } from './replay.ts';
import { scenarioToEngineConfig, type Scenario } from './scenario.ts';
import type { ClusterAction, Engine } from './types.ts';
import { decodingRewrites } from './api/schema.ts';

/**
 * Whether the API server's decoding rewrites what an action sends (a pod, or a merge patch of one): a quantity it
 * stores in canonical form, a default it applies (schema.ts). A JSON or strategic patch loads the decoding anyway.
 */
function rewritten(action: ClusterAction): boolean {
  if (action.type === 'create') return decodingRewrites(action.obj);
  return action.type === 'patch' && action.kind === 'Pod' && decodingRewrites(action.patch);
}

/**
 * Record a replay: run the scenario with the runner, exactly as `podlife simulate` does, noting every call it
 * makes to the API server. The site's build writes it next to the scenario's YAML for the player to fetch.
 */
export function recordReplay(scenario: Scenario, seed: number): Replay {
  const base = runnable(scenario);
  const actions: Replay['actions'] = [];
  let invalid = false;
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
        apply: ((action: ClusterAction) => {
          // A deep copy as JSON: what the page will fetch, and safe from later changes to the object.
          actions.push({ at: engine.now, action: JSON.parse(JSON.stringify(action)) as ClusterAction });
          const r = engine.apply(action);
          // rejected as invalid, or by the decoding (a BadRequest), or by an admission plugin the validation module
          // has (RuntimeClass: Forbidden), or taken without the unknown fields the decoding dropped (a warning each):
          // a replay needs the validation module, which decodes
          if (!r.ok && (r.status.reason === 'Invalid' || r.status.reason === 'BadRequest' || r.status.reason === 'Forbidden')) invalid = true;
          if (r.ok && r.warnings?.length) invalid = true;
          // or taken with what the decoding rewrites: a quantity stored in its canonical form ("0.5" as "500m"), a
          // field few pods have that it defaults (schema.ts podRewrites)
          if (r.ok && rewritten(action)) invalid = true;
          return r;
        }) as Engine['apply'],
        state: () => engine.state(),
        stateAt: (t: number) => engine.stateAt(t),
        changeTimes: (from: number, to: number) => engine.changeTimes(from, to),
      };
    },
  };
  const run = runScenario(recording, { seed });
  return { version: REPLAY_VERSION, title: scenario.title, seed, config: scenarioToEngineConfig(scenario), actions, end: run.engine.now, ...(invalid ? { validate: true as const } : {}) };
}
