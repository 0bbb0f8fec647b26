// The trace: every event in order with its time, actor, what happened and the code step behind it.
// Choosing an event moves the player there; the list can be narrowed to the events of one step.
import type { TraceEvent } from '../../src/sim/types.ts';
import { h, nextFrame, setText } from './dom.ts';
import type { Labels } from './labels.ts';
import { formatClock } from './time.ts';

export class TraceList {
  readonly root: HTMLElement;
  readonly #list: HTMLOListElement;
  readonly #scroller: HTMLElement;
  readonly #filterBar: HTMLElement;
  readonly #filterKey: HTMLElement;
  readonly #labels: Labels;
  #rows: HTMLLIElement[] = [];
  #current = -1;
  #filter: string | undefined;

  /** Step key → where the book quotes it, for steps quoted in another chapter (a link beside the event). */
  readonly #stepHrefs: Record<string, string>;

  constructor(labels: Labels, on: { choose(index: number): void; clearFilter(): void }, stepHrefs: Record<string, string> = {}) {
    this.#labels = labels;
    this.#stepHrefs = stepHrefs;
    this.#list = h('ol', { class: 'sim-trace-list' });
    this.#list.addEventListener('click', (e) => {
      const button = (e.target as Element).closest<HTMLButtonElement>('button[data-index]');
      if (button) on.choose(Number(button.dataset.index));
    });
    // one Tab stop for the whole list (a roving tabindex): the arrow keys, Home and End move between its events
    this.#list.addEventListener('keydown', (e) => {
      const at = this.#rows.findIndex((r) => r.contains(document.activeElement));
      const shown = this.#rows.filter((r) => !r.hidden);
      const i = shown.indexOf(this.#rows[at]);
      const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: shown.length - 1 }[e.key];
      if (at < 0 || to === undefined || !shown[to]) return;
      e.preventDefault();
      this.#rove(shown[to]);
      shown[to].querySelector('button')!.focus();
    });
    this.#scroller = h('div', { class: 'sim-trace-scroll' }, [this.#list]);
    this.#filterKey = h('code', {});
    const clear = h('button', { class: 'sim-link-button', text: labels.showAll, attrs: { type: 'button' } });
    clear.addEventListener('click', () => on.clearFilter());
    this.#filterBar = h('p', { class: 'sim-trace-filter', attrs: { hidden: true } }, [`${labels.filtered} `, this.#filterKey, ' ', clear]);
    this.root = h('section', { class: 'sim-panel sim-panel-trace', attrs: { 'aria-label': labels.trace } }, [
      h('h3', { class: 'sim-panel-title', text: labels.trace }),
      h('p', { class: 'sim-panel-hint', text: labels.traceHint }),
      this.#filterBar,
      this.#scroller,
    ]);
  }

  setTrace(trace: readonly TraceEvent[]): void {
    this.#rows = trace.map((e, i) => {
      const key = e.key ? h('code', { class: 'sim-trace-key', text: e.key }) : h('span', { class: 'sim-trace-key sim-trace-nokey' });
      const href = e.key ? this.#stepHrefs[e.key] : undefined;
      const elsewhere = href && !href.startsWith('#')
        ? [h('a', { class: 'sim-trace-goto', text: '↗', attrs: { href, tabindex: -1, title: this.#labels.stepElsewhere(e.key!), 'aria-label': this.#labels.stepElsewhere(e.key!) } })]
        : [];
      const row = h('li', { class: 'sim-trace-row', attrs: { 'data-key': e.key } }, [
        h('button', { class: 'sim-trace-event', attrs: { type: 'button', tabindex: -1, 'data-index': i } }, [
          h('span', { class: 'sim-trace-time', text: formatClock(e.t) }),
          h('span', { class: `sim-trace-actor sim-actor-${e.actor}`, text: e.actor }),
          h('span', { class: 'sim-trace-detail', text: e.detail }),
          key,
        ]),
        ...elsewhere,
      ]);
      return row;
    });
    this.#list.replaceChildren(...this.#rows);
    if (this.#rows.length === 0) this.#list.append(h('li', { class: 'sim-empty', text: this.#labels.noEvents }));
    this.#current = -1;
    this.#stop = undefined;
    this.#applyFilter();
  }

  /** Make `row` the list's one Tab stop (its event, and its link to another chapter); the others take none. */
  #rove(row: HTMLLIElement | undefined): void {
    const set = (r: HTMLLIElement | undefined, tabIndex: number) => r?.querySelectorAll<HTMLElement>('button, a').forEach((el) => (el.tabIndex = tabIndex));
    if (row === this.#stop) return;
    set(this.#stop, -1);
    set(row, 0);
    this.#stop = row;
  }
  #stop: HTMLLIElement | undefined;

  setFilter(key: string | undefined): void {
    this.#filter = key;
    this.#applyFilter();
  }

  #applyFilter(): void {
    const key = this.#filter;
    this.#filterBar.hidden = key === undefined;
    setText(this.#filterKey, key ?? '');
    for (const row of this.#rows) row.hidden = key !== undefined && row.dataset.key !== key;
    const current = this.#rows[this.#current];
    this.#rove(current && !current.hidden ? current : this.#rows.find((r) => !r.hidden));
  }

  /** Mark the current event and keep it in view inside the list (never scrolling the page). */
  setCurrent(index: number): void {
    if (index === this.#current) return;
    const old = this.#rows[this.#current];
    if (old) {
      old.classList.remove('sim-trace-current');
      old.querySelector('button')?.removeAttribute('aria-current');
    }
    this.#current = index;
    const row = this.#rows[index];
    if (!row) return;
    row.classList.add('sim-trace-current');
    row.querySelector('button')?.setAttribute('aria-current', 'step');
    // the Tab stop follows the current event, unless the reader is moving through the list with the keys
    if (!this.#list.contains(document.activeElement) && !row.hidden) this.#rove(row);
    this.reveal();
  }

  /** The current event's button (what the reader returns to from its code step). */
  currentButton(): HTMLButtonElement | undefined {
    return this.#rows[this.#current]?.querySelector('button') ?? undefined;
  }

  /** Scroll the list (not the page) so that the current event shows, at the next frame. */
  reveal(): void {
    nextFrame(this, () => this.#reveal());
  }

  #reveal(): void {
    const row = this.#rows[this.#current];
    if (!row || row.hidden) return;
    const top = row.offsetTop; // the scroller is positioned, so this is relative to it
    const bottom = top + row.offsetHeight;
    const view = this.#scroller;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (bottom > view.scrollTop + view.clientHeight) view.scrollTop = bottom - view.clientHeight;
  }
}
