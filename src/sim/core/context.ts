// What every modelled component shares: the clock and event loop, the seeded RNG, the change history (for
// stateAt), the trace, and the log sinks. Timestamps are formatted here the way the API server serialises them.

import type { Actor, ContainerLogLine, KubeletLogLine, TraceEvent } from '../types.ts';
import type { StepKey } from '../steps.ts';
import type { EventLoop } from './loop.ts';
import type { History } from './history.ts';
import { Rng } from './rng.ts';
import type { Timings } from './timings.ts';

export class SimContext {
  readonly kubeletLogs: KubeletLogLine[] = [];
  readonly containerLogs: ContainerLogLine[] = [];
  readonly loop: EventLoop;
  /** IDs, UIDs, PIDs, names. */
  readonly rng: Rng;
  readonly #seed: number;
  readonly history: History;
  readonly epoch: number;
  readonly timings: Timings;

  constructor(loop: EventLoop, seed: number, history: History, epoch: number, timings: Timings) {
    this.loop = loop;
    this.#seed = seed;
    this.rng = new Rng(seed);
    this.history = history;
    this.epoch = epoch;
    this.timings = timings;
  }

  /**
   * A timing stream (jitter, ticker phases) of its own for one named thing ("pod/default/web", "node/worker01"):
   * creating another object, or another pod's syncs, never moves this one's clock.
   */
  timingRng(name: string): Rng {
    let h = this.#seed ^ 0x5eed7157;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
    return new Rng(h >>> 0);
  }

  get now(): number {
    return this.loop.now;
  }

  /**
   * The trace is kept as columns: the time in a Float64Array, the actor, kind and step key as small integers into
   * tables of the few strings they take, and the object and detail strings in two arrays. An event object per
   * event (six fields and a boxed time) was a young object that every pod's 42 events made and every scavenge
   * copied, for a record that most runs (the command line's transcript, a benchmark) never read as objects: taking
   * the trace out of a build made 1,000- and 10,000-pod runs 7–22% faster. The events are made when the trace is
   * first read (`events`), and from then on with each emit, so an array a reader holds keeps growing as before.
   */
  #length = 0;
  #times = new Float64Array(1024);
  #codes = new Uint32Array(1024);
  readonly #objects: string[] = [];
  readonly #details: string[] = [];
  #events: TraceEvent[] | undefined;

  emit(actor: Actor, kind: string, object: string, detail: string, key?: StepKey): void {
    const seq = this.#length;
    if (seq === this.#times.length) {
      const times = new Float64Array(seq * 2);
      times.set(this.#times);
      this.#times = times;
      const codes = new Uint32Array(seq * 2);
      codes.set(this.#codes);
      this.#codes = codes;
    }
    const t = this.loop.now;
    this.#times[seq] = t;
    this.#codes[seq] = (ACTOR_CODE[actor] << 28) | (interned(KINDS, kind) << 14) | (key ? interned(KEYS, key) : 0);
    this.#objects.push(object);
    this.#details.push(detail);
    this.#length = seq + 1;
    // one literal per shape (a key added afterwards would cost every keyed event a property array)
    if (this.#events) this.#events.push(key ? { seq, t, actor, kind, object, detail, key } : { seq, t, actor, kind, object, detail });
  }

  /** The number of trace events, without making them. */
  get traceLength(): number {
    return this.#length;
  }

  /** Everything that happened so far, in order: made on first read, then kept up to date with each emit. */
  get trace(): TraceEvent[] {
    let events = this.#events;
    if (events === undefined) {
      events = this.#events = new Array(this.#length);
      for (let seq = 0; seq < this.#length; seq++) {
        const code = this.#codes[seq];
        const t = this.#times[seq];
        const actor = ACTORS[code >>> 28];
        const kind = KINDS.names[(code >>> 14) & 0x3fff];
        const object = this.#objects[seq];
        const detail = this.#details[seq];
        const k = code & 0x3fff;
        events[seq] = k ? { seq, t, actor, kind, object, detail, key: KEYS.names[k] } : { seq, t, actor, kind, object, detail };
      }
    }
    return events;
  }

  /** Formatted seconds (the same few seconds are formatted over and over: now, start times, deadlines). */
  readonly #seconds = new Map<number, string>();

  /** metav1.Time as JSON: RFC 3339, UTC, second precision. */
  rfc3339(t: number = this.loop.now): string {
    const sec = Math.floor((this.epoch + t) / 1000);
    if (sec === this.#lastSecond) return this.#lastText;
    let text = this.#seconds.get(sec);
    if (text === undefined) {
      if (this.#seconds.size >= 4096) this.#seconds.clear();
      text = new Date(sec * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      this.#seconds.set(sec, text);
    }
    this.#lastSecond = sec;
    this.#lastText = text;
    return text;
  }
  #lastSecond = NaN;
  #lastText = '';

  /** metav1.MicroTime as JSON: RFC 3339 with microseconds. */
  micro(t: number = this.loop.now): string {
    const ms = Math.trunc(this.epoch + t); // what Date keeps of a fractional time
    const frac = ms - Math.floor(ms / 1000) * 1000;
    return `${this.rfc3339(t).slice(0, -1)}.${String(frac).padStart(3, '0')}000Z`;
  }

  /** Append a kubelet log line (its `t` is now). */
  kubeletLog(line: KubeletLogLine): void {
    this.kubeletLogs.push(line);
  }

  containerLog(containerId: string, stream: 'stdout' | 'stderr', text: string): void {
    this.containerLogs.push({ t: this.loop.now, containerId, stream, text });
  }
}

const ACTORS: readonly Actor[] = ['kubectl', 'apiserver', 'scheduler', 'kubelet', 'runtime', 'process', 'controller-manager'];
const ACTOR_CODE = Object.fromEntries(ACTORS.map((a, i) => [a, i])) as Record<Actor, number>;

/** A table of the strings a trace column takes (kinds, step keys): each gets a small number, 0 kept for none. */
interface Interned {
  readonly ids: Map<string, number>;
  readonly names: string[];
}
const KINDS: Interned = { ids: new Map(), names: [''] };
const KEYS: Interned = { ids: new Map(), names: [''] };

function interned(table: Interned, name: string): number {
  let id = table.ids.get(name);
  if (id === undefined) {
    id = table.names.length;
    // 14 bits each in the code; the model has a few hundred kinds and keys, all string literals
    if (id > 0x3fff) throw new RangeError(`podlife: more than ${0x3fff} distinct trace kinds or step keys`);
    table.ids.set(name, id);
    table.names.push(name);
  }
  return id;
}
