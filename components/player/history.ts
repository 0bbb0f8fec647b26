// The console's command history, as a shell's: ↑ walks back through earlier commands, ↓ walks forward
// and finally returns the line the reader was typing before they started walking.

export class CommandHistory {
  #items: string[] = [];
  /** Position while walking; equal to the length when not walking. */
  #pos = 0;
  #draft = '';
  readonly #limit: number;

  constructor(limit = 100) {
    this.#limit = limit;
  }

  get items(): readonly string[] {
    return this.#items;
  }

  /** Record a command that was run (blank lines and an immediate repeat are not recorded). */
  push(line: string): void {
    const trimmed = line.trim();
    if (trimmed && this.#items[this.#items.length - 1] !== trimmed) {
      this.#items.push(trimmed);
      if (this.#items.length > this.#limit) this.#items.shift();
    }
    this.#pos = this.#items.length;
    this.#draft = '';
  }

  /** The earlier command (↑), or undefined at the oldest. `current` is what the input holds now. */
  up(current: string): string | undefined {
    if (this.#pos === 0) return undefined;
    if (this.#pos === this.#items.length) this.#draft = current;
    return this.#items[--this.#pos];
  }

  /** The later command (↓); past the newest, the draft the reader had typed. Undefined when not walking. */
  down(): string | undefined {
    if (this.#pos >= this.#items.length) return undefined;
    this.#pos++;
    return this.#pos === this.#items.length ? this.#draft : this.#items[this.#pos];
  }
}
