// The player's source of moments when it replays a recorded run (src/sim/replay.ts) on the engine alone:
// no scenario parser, YAML library or command layer on the first load.
import { createEngine } from '../../src/sim/engine.ts';
import type { Replay } from '../../src/sim/replay.ts';
import type { ClusterState, Engine, TraceEvent } from '../../src/sim/types.ts';
import type { SimSource } from './source.ts';

export { readReplay, type Replay } from '../../src/sim/replay.ts';

export class ReplaySource implements SimSource {
  readonly title: string;
  readonly #engine: Engine;

  constructor(replay: Replay) {
    this.title = replay.title;
    const engine = createEngine(replay.config, { seed: replay.seed });
    for (const { at, action } of replay.actions) {
      engine.advanceTo(at);
      engine.apply(action);
    }
    engine.advanceTo(replay.end);
    this.#engine = engine;
  }

  get trace(): readonly TraceEvent[] {
    return this.#engine.trace;
  }

  get end(): number {
    return this.#engine.now;
  }

  stateAt(t: number): ClusterState {
    return this.#engine.stateAt(Math.min(Math.max(0, t), this.#engine.now));
  }
}
