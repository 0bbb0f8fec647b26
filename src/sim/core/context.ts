// What every modelled component shares: the clock and event loop, the seeded RNG, the change history (for
// stateAt), the trace, and the log sinks. Timestamps are formatted here the way the API server serialises them.

import type { Actor, ContainerLogLine, KubeletLogLine, TraceEvent } from '../types.ts';
import type { StepKey } from '../steps.ts';
import type { EventLoop } from './loop.ts';
import type { History } from './history.ts';
import type { ConfigStore } from '../api/configs.ts';
import { Rng } from './rng.ts';
import type { Timings } from './timings.ts';
import type { RedirectModule } from '../runtime/shell.ts';
import type { ArithFn, EnvBuiltin } from '../runtime/process.ts';
import type { FilesModule, HandlersModule } from '../kubelet/env.ts';

/** Which commands the images the model knows have (runtime/binaries.ts). */
export type BinariesModule = typeof import('../runtime/binaries.ts');

export class SimContext {
  readonly trace: TraceEvent[] = [];
  readonly kubeletLogs: KubeletLogLine[] = [];
  readonly containerLogs: ContainerLogLine[] = [];
  readonly loop: EventLoop;
  /** IDs, UIDs, PIDs, names. */
  readonly rng: Rng;
  readonly #seed: number;
  readonly history: History;
  readonly epoch: number;
  readonly timings: Timings;
  /** The containers' shell redirections (runtime/redirect.ts), unless a page's replay left them out. */
  redirect: RedirectModule | undefined = undefined;
  /** The shell's builtins over the containers' environment (kubelet/envvars.ts), unless a page's replay left them out. */
  envBuiltin: EnvBuiltin | undefined = undefined;
  /** The shell's arithmetic expansion (runtime/arith.ts, with the environment), unless a page's replay left it out. */
  arith: ArithFn | undefined = undefined;
  /** The files the kubelet and containerd write for a pod (kubelet/etcfiles.ts), unless a page's replay left them out. */
  files: FilesModule | undefined = undefined;
  /** Which commands the images the model knows have (runtime/binaries.ts), unless a page's replay left it out. */
  binaries: BinariesModule | undefined = undefined;
  /** The kubelet's hooks and probes (kubelet/handlers.ts), unless a page's replay left them out. */
  handlers: HandlersModule | undefined = undefined;
  /** The API server's ConfigMaps and Secrets (api/configs.ts), in an engine that has them. */
  configs: ConfigStore | undefined = undefined;

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

  emit(actor: Actor, kind: string, object: string, detail: string, key?: StepKey): void {
    const seq = this.trace.length;
    const t = this.loop.now;
    // one literal per shape (a key added afterwards would cost every keyed event a property array)
    this.trace.push(key ? { seq, t, actor, kind, object, detail, key } : { seq, t, actor, kind, object, detail });
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
