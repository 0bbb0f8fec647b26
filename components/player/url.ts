// The moment a reader is looking at, kept in the page's URL (`?scenario=crash-loop&t=503s`) so it can
// be shared. Several players may sit on one page: the query names the scenario it belongs to, and only
// the player showing that scenario reads it (a query without `scenario` applies to every player).
import { formatUrlTime, parseMoment } from './time.ts';

/** The moment the URL asks this scenario's player to show, if any. */
export function readMoment(search: string, scenario: string): number | undefined {
  const params = new URLSearchParams(search);
  const named = params.get('scenario');
  if (named !== null && named !== scenario) return undefined;
  const t = params.get('t');
  return t === null ? undefined : parseMoment(t);
}

/**
 * The URL that records `t` for `scenario`, keeping every other query parameter and the #fragment.
 * `href` must be absolute (location.href).
 */
export function writeMoment(href: string, scenario: string, t: number): string {
  const url = new URL(href);
  url.searchParams.set('scenario', scenario);
  url.searchParams.set('t', formatUrlTime(t));
  return url.toString();
}

/**
 * Writes a player's moment into the address. history.replaceState is the dearest part of a settled move (in
 * Chromium on the benchmark machine, 9 of a step's 15 ms), so a move asks for it `later`: once the reader has
 * stopped for a moment, outside the frame that shows the move, and once for a held arrow key or a run of clicks.
 * It is written at once where the address must already be right: before the page is left (a link, pagehide),
 * before a jump to the code adds a history entry of its own, and when the reader comes back to the player.
 */
export class AddressWriter {
  readonly #url: () => string;
  readonly #delayMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `url()` is the address for the moment shown now (location.href with the moment written in). */
  constructor(url: () => string, delayMs = 250) {
    this.#url = url;
    this.#delayMs = delayMs;
    addEventListener('pagehide', () => this.flush());
    // a link is followed after its click: the entry being left keeps the moment
    document.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('a[href]')) this.flush();
    }, true);
  }

  /** After a move: write the address when the reader pauses. */
  later(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.now(), this.#delayMs);
  }

  /** Write a pending address now (nothing when none is pending). */
  flush(): void {
    if (this.#timer !== undefined) this.now();
  }

  /** Write the address now. */
  now(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const next = this.#url();
    if (next !== location.href) history.replaceState(history.state, '', next);
  }
}
