// The record of every change to the cluster, so that stateAt(t) can rebuild the cluster at any earlier time.
// Objects are immutable once recorded (copy-on-write): a change stores a new object under its key. Checkpoints
// (full copies of every collection) are built lazily, spaced so that copying stays amortised O(1) per change;
// stateAt(t) = nearest checkpoint + replay of at most one interval, found by binary search on time.

export type Collection = Map<string, unknown>;

interface Checkpoint {
  /** Index of the first change NOT included. */
  pos: number;
  colls: Collection[];
}

const MIN_INTERVAL = 256;

export class History {
  readonly names: string[] = [];
  #index = new Map<string, number>();
  /** The live collections (the state now). */
  readonly live: Collection[] = [];

  // the change log, as parallel arrays
  #times: number[] = [];
  #colls: number[] = [];
  #keys: string[] = [];
  #values: unknown[] = [];

  #checkpoints: Checkpoint[] = [];
  #cursor: Collection[] = [];
  #cursorPos = 0;
  #sinceCheckpoint = 0;

  /** The numeric id of a collection (created on first use). */
  collection(name: string): number {
    let id = this.#index.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.#index.set(name, id);
      this.live.push(new Map());
      this.#cursor.push(new Map());
      for (const cp of this.#checkpoints) cp.colls.push(new Map());
    }
    return id;
  }

  has(name: string): boolean {
    return this.#index.has(name);
  }

  /** Record that `key` in collection `coll` became `value` (undefined = deleted) at time t. */
  put(t: number, coll: number, key: string, value: unknown): void {
    this.#times.push(t);
    this.#colls.push(coll);
    this.#keys.push(key);
    this.#values.push(value);
    if (value === undefined) this.live[coll].delete(key);
    else this.live[coll].set(key, value);
  }

  get length(): number {
    return this.#times.length;
  }

  /** Number of changes with time <= t. */
  countUpTo(t: number): number {
    const times = this.#times;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The times of the changes in (from, to], each once, in order. */
  timesBetween(from: number, to: number): number[] {
    const times = this.#times;
    const out: number[] = [];
    for (let i = this.countUpTo(from); i < times.length && times[i] <= to; i++) if (out[out.length - 1] !== times[i]) out.push(times[i]);
    return out;
  }

  #liveSize(): number {
    let n = 0;
    for (const c of this.#cursor) n += c.size;
    return n;
  }

  /** Advance the checkpoint cursor over the log, copying a checkpoint each interval. */
  #extendCheckpoints(): void {
    const end = this.#times.length;
    if (this.#checkpoints.length === 0) this.#checkpoints.push({ pos: 0, colls: this.#cursor.map(() => new Map()) });
    const cursor = this.#cursor;
    for (let i = this.#cursorPos; i < end; i++) {
      const c = cursor[this.#colls[i]];
      const v = this.#values[i];
      if (v === undefined) c.delete(this.#keys[i]);
      else c.set(this.#keys[i], v);
      if (++this.#sinceCheckpoint >= Math.max(MIN_INTERVAL, this.#liveSizeCached)) {
        this.#checkpoints.push({ pos: i + 1, colls: cursor.map((m) => new Map(m)) });
        this.#sinceCheckpoint = 0;
        this.#liveSizeCached = this.#liveSize();
      }
    }
    this.#cursorPos = end;
  }
  #liveSizeCached = 0;

  /** The collections as they were after the first `count` changes. Returns fresh Maps the caller may keep. */
  snapshot(count: number): Collection[] {
    this.#extendCheckpoints();
    const cps = this.#checkpoints;
    let lo = 0;
    let hi = cps.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (cps[mid].pos <= count) lo = mid;
      else hi = mid - 1;
    }
    const cp = cps[lo];
    const colls = cp.colls.map((m) => new Map(m));
    while (colls.length < this.names.length) colls.push(new Map());
    for (let i = cp.pos; i < count; i++) {
      const c = colls[this.#colls[i]];
      const v = this.#values[i];
      if (v === undefined) c.delete(this.#keys[i]);
      else c.set(this.#keys[i], v);
    }
    return colls;
  }
}
