// The discrete-event loop: a virtual clock in milliseconds and a queue of callbacks. Events at the same
// virtual time run in the order they were scheduled (a sequence number breaks ties), so runs are reproducible.

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
  #times: number[] = [];
  #seqs: number[] = [];
  #tasks: Task[] = [];
  #seq = 0;

  get pending(): number {
    return this.#tasks.length;
  }

  /** Run `task` at virtual time t (>= now). */
  at(t: number, task: Task): void {
    if (t < this.now) t = this.now;
    const times = this.#times;
    const seqs = this.#seqs;
    const tasks = this.#tasks;
    const seq = this.#seq++;
    let i = tasks.length;
    times.push(t);
    seqs.push(seq);
    tasks.push(task);
    // sift up (binary min-heap keyed by time, then sequence)
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (times[p] < t || (times[p] === t && seqs[p] < seq)) break;
      times[i] = times[p];
      seqs[i] = seqs[p];
      tasks[i] = tasks[p];
      i = p;
    }
    times[i] = t;
    seqs[i] = seq;
    tasks[i] = task;
  }

  after(ms: number, task: Task): void {
    this.at(this.now + ms, task);
  }

  /** Time of the next queued event, or Infinity. */
  peekTime(): number {
    return this.#tasks.length ? this.#times[0] : Infinity;
  }

  #pop(): Task {
    const times = this.#times;
    const seqs = this.#seqs;
    const tasks = this.#tasks;
    const top = tasks[0];
    const lastT = times.pop()!;
    const lastS = seqs.pop()!;
    const lastTask = tasks.pop()!;
    const n = tasks.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && (times[r] < times[l] || (times[r] === times[l] && seqs[r] < seqs[l]))) c = r;
        if (times[c] > lastT || (times[c] === lastT && seqs[c] > lastS)) break;
        times[i] = times[c];
        seqs[i] = seqs[c];
        tasks[i] = tasks[c];
        i = c;
      }
      times[i] = lastT;
      seqs[i] = lastS;
      tasks[i] = lastTask;
    }
    return top;
  }

  /** Run every event with time <= t, then set the clock to t. */
  runUntil(t: number): void {
    while (this.#tasks.length && this.#times[0] <= t) {
      this.now = this.#times[0];
      this.#pop()();
    }
    if (t > this.now) this.now = t;
  }

  /**
   * Drive a modelled goroutine: each `yield { sleep }` suspends it for that much virtual time.
   * Zero sleeps continue at once, in the same event.
   */
  spawn<T>(proc: Proc<T>, done?: (value: T) => void): void {
    let token = 0;
    const step = (): void => {
      token++;
      for (;;) {
        const r = proc.next();
        if (r.done) {
          done?.(r.value);
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

/** `yield* sleep(ms)` inside a modelled goroutine. */
export function* sleep(ms: number): Proc {
  if (ms > 0) yield { sleep: ms };
}
