// The discrete-event loop: a virtual clock in milliseconds and a queue of callbacks. Events at the same
// virtual time run in the order they were scheduled, so runs are reproducible.

import { derived } from './kept.ts';

export type Task = () => void;

/**
 * A step of a modelled goroutine: wait this many milliseconds of virtual time, or until `wait` wakes it
 * (at the latest after `timeout` ms), then continue.
 */
export type Sleep = { sleep: number } | { wait: (wake: () => void) => void; timeout: number };

/** A modelled goroutine: a generator that yields sleeps and finally returns a value. */
export type Proc<T = void> = Generator<Sleep, T, void>;

export class EventLoop {
  now = 0;
  // Most events share their time with others (ticks, latencies), so the queue keeps one FIFO bucket per distinct
  // time and a binary min-heap of those times: scheduling at a known time is an append, running it a walk. Within a
  // bucket, the order of scheduling is the order of the sequence numbers that broke ties before.
  // A bucket holds (task, argument) pairs: a task shared by many events takes its subject as the argument instead
  // of a closure per event.
  #times: number[] = [];
  readonly #buckets = new Map<number, unknown[]>();
  #pending = 0;

  get pending(): number {
    return this.#pending;
  }

  /** Run `task` (with `arg`) at virtual time t (>= now). */
  at(t: number, task: Task): void;
  at<A>(t: number, task: (arg: A) => void, arg: A): void;
  at(t: number, task: (arg: unknown) => void, arg?: unknown): void {
    if (t < this.now) t = this.now;
    this.#pending++;
    const bucket = this.#buckets.get(t);
    if (bucket !== undefined) {
      bucket.push(task, arg);
      return;
    }
    this.#buckets.set(t, [task, arg]);
    const times = this.#times;
    let i = times.length;
    times.push(t);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (times[p] < t) break;
      times[i] = times[p];
      i = p;
    }
    times[i] = t;
  }

  after(ms: number, task: Task): void;
  after<A>(ms: number, task: (arg: A) => void, arg: A): void;
  after(ms: number, task: (arg: unknown) => void, arg?: unknown): void {
    this.at(this.now + ms, task, arg);
  }

  /** Time of the next queued event, or Infinity. */
  peekTime(): number {
    return this.#times.length ? this.#times[0] : Infinity;
  }

  #popTime(): void {
    const times = this.#times;
    const last = times.pop()!;
    const n = times.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && times[r] < times[l] ? r : l;
      if (times[c] >= last) break;
      times[i] = times[c];
      i = c;
    }
    times[i] = last;
  }

  /** Run every event with time <= t, then set the clock to t. */
  runUntil(t: number): void {
    while (this.#times.length && this.#times[0] <= t) {
      const time = this.#times[0];
      this.now = time;
      // events scheduled for this time while it runs join its bucket and run in this walk
      const bucket = this.#buckets.get(time)!;
      let i = 0;
      try {
        for (; i < bucket.length; i += 2) {
          this.#pending--;
          (bucket[i] as (arg: unknown) => void)(bucket[i + 1]);
        }
      } finally {
        // an event that threw is done; the ones after it stay queued
        if (i < bucket.length) bucket.splice(0, i + 2);
      }
      this.#buckets.delete(time);
      this.#popTime();
    }
    if (t > this.now) this.now = t;
  }

  /**
   * Drive a modelled goroutine: each `yield { sleep }` suspends it for that much virtual time.
   * Zero sleeps continue at once, in the same event.
   */
  spawn<T>(proc: Proc<T>, done?: (value: T) => void): void {
    let token = 0;
    // a finished goroutine lets go of its generator and its callback: a wait's timeout still queued (a grace period
    // the container did not need) keeps only this closure until it fires, not the pod and the frames it ran with
    let running: Proc<T> | undefined = proc;
    let then = done;
    const step = (): void => {
      token++;
      for (;;) {
        if (running === undefined) return;
        const r = running.next();
        if (r.done) {
          const cb = then;
          running = undefined;
          then = undefined;
          cb?.(r.value);
          return;
        }
        const y = r.value;
        if ('sleep' in y) {
          if (y.sleep > 0) {
            this.after(y.sleep, step);
            return;
          }
          continue;
        }
        const mine = token;
        let woken = false;
        const wake = (): void => {
          if (woken || mine !== token) return;
          woken = true;
          // resume in a fresh event at the current time, never inside the waker's call stack
          this.after(0, step);
        };
        if (Number.isFinite(y.timeout)) this.after(y.timeout, wake);
        y.wait(wake);
        return;
      }
    };
    step();
  }
}

/**
 * `yield sleepFor(ms)` inside a modelled goroutine. The loop only reads a Sleep, so one object per duration is
 * shared by every goroutine (the model sleeps the same few latencies over and over).
 */
export function sleepFor(ms: number): Sleep {
  return derived(sleeps, ms, sleepOf);
}
const sleeps = new Map<number, Sleep>();
const sleepOf = (sleep: number): Sleep => ({ sleep });
