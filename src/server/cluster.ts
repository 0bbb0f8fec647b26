// The simulated cluster the server serves: one engine, the scenario's timeline replayed as virtual time
// passes (its `apply:` manifests and its mutating `run:` commands — kubectl run/apply/delete/patch/debug — at
// their times, exactly as `podlife simulate` runs them; read-only commands print nothing here), and the
// change feed that watches and list resourceVersions come from. Requests from a real kubectl are applied at
// the current virtual time. Same scenario, seed and requests at the same times → the same objects as
// `podlife simulate` shows.

import {
  createEngine, scenarioToEngineConfig,
  type ApplyResult, type ClusterAction, type ConfigObject, type Node, type Pod, type Engine, type EngineConfig, type Scenario, type TimelineEntry,
} from '../sim/index.ts';
import { manifestAction } from '../sim/run.ts';
import { execute, isMutating } from '../sim/commands/execute.ts';
import { apiErrorText } from '../sim/commands/kubectl/common.ts';
import { shown } from '../sim/commands/shell.ts';
import { goDuration } from '../sim/render/duration.ts';
import { ChangeFeed } from './feed.ts';

export interface ClusterOptions {
  /** The scenario whose cluster and timeline to serve; none = one default node (worker01), empty. */
  scenario?: Scenario;
  /** Overrides the scenario's seed (default: the scenario's, else 1). */
  seed?: number;
  /** Wall-clock epoch (ms) of virtual time 0; default: the scenario's `start:`, else the engine's default. */
  epoch?: number;
  /** Where replayed timeline steps are reported (one line each). */
  log?: (line: string) => void;
}

/** Steps in time order; steps at the same time keep their file order (as run.ts orders them). */
function ordered(timeline: TimelineEntry[]): TimelineEntry[] {
  return timeline.map((s, i) => ({ s, i })).sort((a, b) => a.s.at - b.s.at || a.i - b.i).map((x) => x.s);
}

export class LiveCluster {
  readonly engine: Engine;
  readonly feed: ChangeFeed;
  readonly epoch: number;
  readonly seed: number;
  /** Timeline steps that change the cluster, not yet replayed, in time order. */
  readonly #pending: TimelineEntry[];
  readonly #log: (line: string) => void;

  constructor(opts: ClusterOptions = {}) {
    const s = opts.scenario;
    const config: EngineConfig = s ? scenarioToEngineConfig(s) : {};
    if (opts.epoch !== undefined) config.start = opts.epoch;
    this.seed = opts.seed ?? s?.seed ?? 1;
    this.engine = createEngine(config, { seed: this.seed });
    this.epoch = this.engine.state().epoch;
    this.#pending = s ? ordered(s.timeline).filter((step) => step.apply !== undefined || (step.run !== undefined && isMutating(step.run))) : [];
    this.#log = opts.log ?? (() => {});
    this.feed = new ChangeFeed(this.engine);
    // Steps at 0s happen as the cluster starts, before anyone can look.
    this.advanceTo(0);
  }

  /** Current virtual time (ms). */
  get now(): number {
    return this.engine.now;
  }

  /** The next timeline step still to come, if any. */
  get nextStep(): TimelineEntry | undefined {
    return this.#pending[0];
  }

  /** Advance virtual time to t (>= now), replaying the timeline steps on the way at their own times. */
  advanceTo(t: number): void {
    if (t < this.engine.now) throw new RangeError(`virtual time cannot go back (now ${goDuration(this.engine.now)}, asked ${goDuration(t)})`);
    while (this.#pending.length > 0 && this.#pending[0].at <= t) {
      const step = this.#pending.shift()!;
      this.engine.advanceTo(Math.max(step.at, this.engine.now));
      this.#replay(step);
    }
    this.engine.advanceTo(t);
    this.feed.sync();
  }

  /** A request from a client, at the current virtual time. */
  apply(action: ClusterAction): ApplyResult<Pod | Node | ConfigObject> {
    const r = this.engine.apply(action);
    this.feed.sync();
    return r;
  }

  #replay(step: TimelineEntry): void {
    const at = goDuration(step.at);
    if (step.apply !== undefined) {
      const manifest = step.apply as { metadata?: { name?: string; namespace?: string } } | null;
      const namespace = step.namespace ?? manifest?.metadata?.namespace ?? 'default';
      // a ConfigMap or a Secret goes to their store (api/configs.ts), as run.ts applies it
      const r = this.engine.apply(manifestAction(namespace, step.apply));
      const kind = (step.apply as { kind?: unknown } | null)?.kind;
      const what = kind === 'ConfigMap' ? 'configmap' : kind === 'Secret' ? 'secret' : 'pod';
      this.#log(r.ok ? `[${at}] timeline: apply ${what}/${r.object.metadata.name} created` : `[${at}] timeline: apply failed: ${apiErrorText(r.status).trimEnd()}`);
      return;
    }
    const engine = this.engine;
    const r = execute(step.run!, {
      get state() {
        return engine.state();
      },
      apply: (a) => engine.apply(a),
    });
    const said = shown(r).trimEnd().split('\n').join(' / ');
    this.#log(`[${at}] timeline: $ ${step.run}${said ? ` → ${said}` : ''}`);
  }
}
