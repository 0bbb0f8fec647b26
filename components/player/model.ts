// The simulation behind one player: a scenario run in the browser with the same engine, runner and
// commands as `podlife simulate`, plus what the reader changed (an edited pod manifest, commands typed
// into the console that change the cluster). Every change re-runs the scenario from t = 0, so what the
// page shows is always one deterministic run.
import { type Document, isNode, LineCounter, parseDocument, stringify } from 'yaml';
import type { ApiStatus, ClusterState, TraceEvent } from '../../src/sim/types.ts';
import type { Write } from '../../src/sim/commands/shell.ts';
import { checkCommandLine } from '../../src/sim/commands/check.ts';
import { execute, isMutating } from '../../src/sim/commands/execute.ts';
import { apiErrorText } from '../../src/sim/commands/kubectl/common.ts';
import { type RunnableScenario, type SimulationRun, type StepRecord, type TimelineStep, futureOf, isConfig, runCommandAt, runScenario } from '../../src/sim/run.ts';
import type { SimSource } from './source.ts';

/** How long the simulation keeps running after the last command the reader added. */
const AFTER_LAST_EDIT = 60_000;

export interface ConsoleAnswer {
  stdout: string;
  stderr: string;
  /** Both streams in the order written, when not stdout then stderr. */
  writes?: Write[];
  exitCode: number;
  /** The command changed the cluster: the scenario was re-simulated with it at that moment. */
  resimulated: boolean;
}

/** A manifest the reader wrote that cannot run: the message, and the 1-based line it is about. */
export interface ManifestProblem {
  message: string;
  line?: number;
}

/** What the reader changed on top of the scenario file. */
interface Edits {
  /** Replaces the first pod the timeline creates. */
  manifest?: unknown;
  /** Console commands that change the cluster, each at the virtual time it was typed at. */
  commands: { at: number; run: string }[];
}

export class Simulation implements SimSource {
  readonly scenario: RunnableScenario;
  readonly seed: number;
  #edits: Edits = { commands: [] };
  #run: SimulationRun;
  #end = 0;

  constructor(scenario: RunnableScenario, seed: number) {
    this.scenario = scenario;
    this.seed = seed;
    this.#run = this.#simulate(this.#edits);
  }

  get trace(): readonly TraceEvent[] {
    return this.#run.trace;
  }

  /** The last virtual time the run covers. */
  get end(): number {
    return this.#end;
  }

  get edited(): boolean {
    return this.#edits.manifest !== undefined || this.#edits.commands.length > 0;
  }

  stateAt(t: number): ClusterState {
    return this.#run.engine.stateAt(Math.min(Math.max(0, t), this.#end));
  }

  /**
   * Run a console command at virtual time t. Commands that only read print what the cluster shows at t;
   * a command that changes the cluster is added to the timeline at t and the scenario re-simulated.
   */
  command(line: string, t: number): ConsoleAnswer {
    // A line `podlife simulate --at` refuses gets its answer from there (it refuses before simulating).
    if (checkCommandLine(line) !== undefined) return { ...runCommandAt(this.scenario, t, line), resimulated: false };
    if (!isMutating(line)) {
      // a command that waits (kubectl wait) watches the run on from t, as far as the run shown goes
      const future = () => futureOf(this.#run.engine, undefined, this.#end);
      return { ...execute(line, { state: this.stateAt(t), future }), resimulated: false };
    }
    const at = Math.round(t);
    const edits: Edits = { ...this.#edits, commands: [...this.#edits.commands, { at, run: line }] };
    let run: SimulationRun;
    try {
      run = this.#simulate(edits);
    } catch (e) {
      return { stdout: '', stderr: `${e instanceof Error ? e.message : String(e)}\n`, exitCode: 1, resimulated: false };
    }
    this.#adopt(edits, run);
    const record = [...run.steps].reverse().find((s: StepRecord) => s.at === at && s.command === line);
    return { stdout: record?.stdout ?? '', stderr: record?.stderr ?? '', writes: record?.writes, exitCode: record?.exitCode ?? 0, resimulated: true };
  }

  /** The first pod manifest of the scenario as YAML (what the editor starts from), or undefined if it creates none. */
  firstManifest(): string | undefined {
    const step = this.#firstPodStep();
    if (!step) return undefined;
    if (this.#edits.manifest !== undefined) return toYamlText(this.#edits.manifest);
    if (step.apply !== undefined) return toYamlText(step.apply);
    // `kubectl run ... --dry-run=client -o yaml` prints the object kubectl would send, as a reader would get it.
    const dry = step.run!.replace(/^(\s*(?:sudo\s+)?kubectl\s+run)\b/, '$1 --dry-run=client -o yaml');
    const r = execute(dry, { state: this.stateAt(0) });
    return r.exitCode === 0 ? r.stdout : undefined;
  }

  /**
   * Re-run the scenario with its first pod replaced by `yamlText`. On a problem nothing changes and the
   * problem names the manifest's line.
   */
  runManifest(yamlText: string): ManifestProblem | undefined {
    const lines = new LineCounter();
    const doc = parseDocument(yamlText, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      return { message: firstLine(err.message), line: lines.linePos(err.pos[0]).line };
    }
    const obj: unknown = doc.toJS();
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      return { message: 'the manifest must be a single Pod object (apiVersion: v1, kind: Pod)', line: 1 };
    }
    const kind = (obj as { kind?: unknown }).kind;
    if (kind !== 'Pod') {
      const at = lineOf(doc, lines, ['kind']) ?? 1;
      return { message: `kind must be "Pod" (got ${JSON.stringify(kind ?? null)}); the player simulates one pod`, line: at };
    }
    const step = this.#firstPodStep();
    if (!step) return { message: 'this scenario creates no pod to replace' };
    // Ask a fresh API server first, so its validation errors can point at the manifest's lines.
    const namespace = (obj as { metadata?: { namespace?: string } }).metadata?.namespace ?? 'default';
    const check = this.scenario.createEngine(this.seed).apply({ type: 'create', namespace, obj });
    if (!check.ok) return apiProblem(check.status, doc, lines);
    const edits: Edits = { ...this.#edits, manifest: obj };
    let run: SimulationRun;
    try {
      run = this.#simulate(edits);
    } catch (e) {
      return { message: e instanceof Error ? e.message : String(e) };
    }
    this.#adopt(edits, run);
    return undefined;
  }

  /** Back to the scenario as its file wrote it. */
  reset(): void {
    const edits: Edits = { commands: [] };
    this.#adopt(edits, this.#simulate(edits));
  }

  #adopt(edits: Edits, run: SimulationRun): void {
    this.#edits = edits;
    this.#run = run;
  }

  #firstPodStep(): TimelineStep | undefined {
    return this.scenario.timeline
      // (a scenario's apply: may hold a ConfigMap or a Secret, which is not the pod)
      .filter((s) => (s.apply !== undefined && !isConfig(s.apply)) || (s.run !== undefined && /^\s*(?:sudo\s+)?kubectl\s+run\b/.test(s.run)))
      .sort((a, b) => a.at - b.at)[0];
  }

  #simulate(edits: Edits): SimulationRun {
    const first = this.#firstPodStep();
    const timeline: TimelineStep[] = this.scenario.timeline.map((s) =>
      s === first && edits.manifest !== undefined ? { at: s.at, line: s.line, apply: edits.manifest } : s,
    );
    for (const c of edits.commands) timeline.push({ at: c.at, line: 0, run: c.run });
    const run = runScenario({ ...this.scenario, timeline }, { seed: this.seed });
    const lastEdit = Math.max(0, ...edits.commands.map((c) => c.at));
    const end = Math.max(run.engine.now, edits.commands.length ? lastEdit + AFTER_LAST_EDIT : 0);
    if (end > run.engine.now) run.engine.advanceTo(end);
    this.#end = run.engine.now;
    return run;
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

function toYamlText(obj: unknown): string {
  // Keeps the manifest's own key order, as its author wrote it.
  return stringify(obj);
}

/** "spec.containers[0].image" → ["spec", "containers", 0, "image"]. */
export function fieldPath(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of field.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** The 1-based line of the deepest node along `path` that the manifest has. */
function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const prefix = path.slice(0, n);
    const parent = n > 1 ? doc.getIn(prefix.slice(0, -1), true) : doc.contents;
    // Point at the key of a map entry (where the reader looks), else at the node itself.
    const pair = isNode(parent) && 'items' in parent
      ? (parent.items as { key?: unknown; value?: unknown }[]).find((p) => isNode(p.key) && (p.key as { value?: unknown }).value === prefix[n - 1])
      : undefined;
    const node = pair?.key ?? doc.getIn(prefix, true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

function apiProblem(status: ApiStatus, doc: Document, lines: LineCounter): ManifestProblem {
  const cause = status.details?.causes?.find((c) => c.field);
  const line = cause ? lineOf(doc, lines, fieldPath(cause.field)) : undefined;
  return { message: apiErrorText(status).trimEnd().replace(/^Error from server \(\w+\): /, ''), line };
}
