// client-go's flowcontrol.Backoff, on virtual time. The kubelet's crash-loop back-off overrides the expiry with a
// fixed 600 s (a container that finished more than 10 minutes after the last back-off update starts over at 10 s).
// upstream: staging/src/k8s.io/client-go/util/flowcontrol/backoff.go; pkg/kubelet/kubelet.go (HasExpiredFunc)

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class Backoff {
  readonly initial: number;
  readonly max: number;
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #hasExpired: (eventTime: number, lastUpdate: number, max: number) => boolean;

  constructor(
    initial: number, max: number, now: () => number,
    hasExpired: (eventTime: number, lastUpdate: number, max: number) => boolean = (e, l, m) => e - l > m * 2,
  ) {
    this.initial = initial;
    this.max = max;
    this.#now = now;
    this.#hasExpired = hasExpired;
  }

  /** Current back-off for the key (0 when none). */
  get(id: string): number {
    return this.#entries.get(id)?.backoff ?? 0;
  }

  // upstream: backoff.go (*Backoff).Next
  next(id: string, eventTime: number): void {
    const e = this.#entries.get(id);
    if (!e || this.#hasExpired(eventTime, e.lastUpdate, this.max)) {
      this.#entries.set(id, { backoff: this.initial, lastUpdate: this.#now() });
      return;
    }
    e.backoff = Math.min(e.backoff * 2, this.max);
    e.lastUpdate = this.#now();
  }

  // upstream: backoff.go (*Backoff).IsInBackOffSince
  isInBackOffSince(id: string, eventTime: number): boolean {
    const e = this.#entries.get(id);
    if (!e) return false;
    if (this.#hasExpired(eventTime, e.lastUpdate, this.max)) return false;
    return this.#now() - eventTime < e.backoff;
  }

  // upstream: backoff.go (*Backoff).IsInBackOffSinceUpdate
  isInBackOffSinceUpdate(id: string, eventTime: number): boolean {
    const e = this.#entries.get(id);
    if (!e) return false;
    if (this.#hasExpired(eventTime, e.lastUpdate, this.max)) return false;
    return eventTime - e.lastUpdate < e.backoff;
  }

  /** When the current back-off of a key ends, counted from eventTime. */
  until(id: string, eventTime: number): number {
    return eventTime + this.get(id);
  }

  // upstream: backoff.go (*Backoff).GC: drop entries idle for twice the max
  gc(): void {
    const now = this.#now();
    for (const [k, e] of this.#entries) if (now - e.lastUpdate > this.max * 2) this.#entries.delete(k);
  }

  delete(id: string): void {
    this.#entries.delete(id);
  }
}
