// Recording a replay (replay.ts) at build time.
import { runnable, runScenario } from './run.ts';
import { REPLAY_VERSION, type Replay } from './replay.ts';
import { scenarioToEngineConfig, type Scenario } from './scenario.ts';
import type { ClusterAction, Engine } from './types.ts';
import { canonicalQuantity } from './api/quantity-sum.ts';

/** The resource lists whose quantities the decoding stores in canonical form (schema.ts: a container's resources; and an emptyDir's sizeLimit). */
const QUANTITY_LISTS = new Set(['limits', 'requests']);

/** Whether an action's object or patch has a quantity that is not written as the API server stores it. */
function hasNonCanonicalQuantity(action: ClusterAction): boolean {
  const body = action.type === 'create' ? action.obj : action.type === 'patch' ? action.patch : undefined;
  const differs = (v: unknown): boolean => (typeof v === 'string' || typeof v === 'number') && (canonicalQuantity(v) ?? v) !== v;
  const visit = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    for (const [k, x] of Object.entries(v)) {
      if (QUANTITY_LISTS.has(k) && typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).some(differs)) return true;
      if (k === 'sizeLimit' && differs(x)) return true;
      if (visit(x)) return true;
    }
    return false;
  };
  return visit(body);
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
          // rejected as invalid, or by the decoding (a BadRequest), or taken without the unknown fields the decoding
          // dropped (a warning each): a replay needs the validation module, which decodes
          if (!r.ok && (r.status.reason === 'Invalid' || r.status.reason === 'BadRequest')) invalid = true;
          if (r.ok && r.warnings?.length) invalid = true;
          // or taken with what the decoding rewrites: a quantity stored in its canonical form ("0.5" as "500m"), a
          // field few pods have that it defaults (schema.ts podRewrites)
          if (r.ok && (hasNonCanonicalQuantity(action) || /"(grpc|hostPath|resourceFieldRef)"/.test(JSON.stringify(action)))) invalid = true;
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
