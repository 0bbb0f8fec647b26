// A recorded run: the engine's configuration and seed, and every call the runner made to the API server
// (the ClusterActions that `kubectl run/apply/delete/patch` sent) at its virtual time. Replaying them
// into a fresh engine reproduces the run exactly (the engine is deterministic) without the scenario
// parser, the YAML library or the command layer — which keeps the player's first load small.
import type { EngineConfig } from './config.ts';
import type { ClusterAction } from './types.ts';

export const REPLAY_VERSION = 1;

export interface Replay {
  version: typeof REPLAY_VERSION;
  title: string;
  seed: number;
  config: EngineConfig;
  actions: { at: number; action: ClusterAction }[];
  /** Virtual time the run ended at. */
  end: number;
  /**
   * Set when the API server rejected a request of the run as invalid or undecodable (Invalid, BadRequest): a replay
   * needs api/validation.ts then, which holds the strict decoding too. Without it, every request passed both when
   * recorded, and a replay may leave them out.
   */
  validate?: true;
}

/** Check the shape of a fetched replay; throws a message naming what is wrong. */
export function readReplay(json: unknown, where: string): Replay {
  const r = json as Partial<Replay> | null;
  if (!r || typeof r !== 'object') throw new Error(`${where}: not a simulation replay`);
  if (r.version !== REPLAY_VERSION) throw new Error(`${where}: replay version ${String(r.version)}, expected ${REPLAY_VERSION} (rebuild the site)`);
  if (typeof r.seed !== 'number' || typeof r.end !== 'number' || !Array.isArray(r.actions) || typeof r.config !== 'object') {
    throw new Error(`${where}: a replay needs seed, config, actions and end`);
  }
  return r as Replay;
}
