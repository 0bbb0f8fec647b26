// The server's virtual clock: virtual time runs at `speed` times real time from a real start instant, or
// stands still when paused and moves only when told (the control endpoint). Real time comes from an
// injectable function so the mapping can be tested without waiting.

export type RealTime = () => number;

export interface ClockOptions {
  /** Virtual seconds per real second. */
  speed: number;
  paused: boolean;
  /** Real instant (ms) at which virtual time 0 begins to run; default: now. */
  startAt?: number;
  realTime?: RealTime;
}

export class VirtualClock {
  readonly #real: RealTime;
  #speed: number;
  #paused: boolean;
  /** Virtual time (ms) at the real instant #baseReal. */
  #baseVirtual = 0;
  #baseReal: number;

  constructor(opts: ClockOptions) {
    if (!(opts.speed > 0)) throw new RangeError(`speed must be positive (got ${opts.speed})`);
    this.#real = opts.realTime ?? (() => Date.now());
    this.#speed = opts.speed;
    this.#paused = opts.paused;
    this.#baseReal = opts.startAt ?? this.#real();
  }

  get speed(): number {
    return this.#speed;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** The virtual time (whole ms) the clock shows now. */
  target(): number {
    if (this.#paused) return this.#baseVirtual;
    const elapsed = Math.max(0, this.#real() - this.#baseReal);
    return this.#baseVirtual + Math.floor(elapsed * this.#speed);
  }

  /** Jump to virtual time v (the caller has checked it is not in the past); the clock runs on from there. */
  jumpTo(v: number): void {
    this.#baseVirtual = v;
    this.#baseReal = Math.max(this.#real(), this.#baseReal);
  }

  pause(): void {
    if (this.#paused) return;
    this.#baseVirtual = this.target();
    this.#baseReal = this.#real();
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#baseReal = Math.max(this.#real(), this.#baseReal);
    this.#paused = false;
  }

  setSpeed(speed: number): void {
    if (!(speed > 0)) throw new RangeError(`speed must be positive (got ${speed})`);
    this.#baseVirtual = this.target();
    this.#baseReal = Math.max(this.#real(), this.#baseReal);
    this.#speed = speed;
  }
}
