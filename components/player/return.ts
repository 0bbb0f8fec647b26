// The way back from the code to the simulation. Choosing a trace event scrolls the page to the step that
// caused it, often far from the player; that jump is a history entry of its own (the step's #anchor), so
// the browser's Back returns to the player where the reader left it (the browser restores the scroll
// position of the entry), and a "↩ back to the simulation" link beside the step does the same from the
// keyboard, handing the focus back to the chosen trace event.
import { h } from './dom.ts';

/** A history entry this module added: the page as it was, seen from a code step. */
interface JumpState {
  podlifeJump: string;
}

const isJump = (state: unknown, id: string): boolean => (state as JumpState | null)?.podlifeJump === id;

let players = 0;

export class ReturnLink {
  /** Tells this player's entries from another player's on the same page. */
  readonly #id = `sim-${++players}`;
  readonly #link: HTMLAnchorElement;
  readonly #back: () => HTMLElement | undefined;
  readonly #left: () => void;
  /** The trace event the reader jumped from, and where on the screen it was. */
  #from: { el: HTMLElement; top: number } | undefined;
  /** The code step of the last jump, where Forward puts the link again. */
  #step: HTMLElement | undefined;

  /**
   * `back()` is the element the reader returns to (the chosen trace event); `left()` runs when the
   * reader goes back, so the player can write its moment into the entry it returns to.
   */
  constructor(label: string, back: () => HTMLElement | undefined, left: () => void) {
    this.#back = back;
    this.#left = left;
    this.#link = h('a', { class: 'sim-return', attrs: { href: '#' } }, [h('span', { text: '↩ ', attrs: { 'aria-hidden': 'true' } }), label]);
    this.#link.addEventListener('click', (e) => {
      e.preventDefault();
      this.#return();
    });
    addEventListener('popstate', () => {
      if (isJump(history.state, this.#id)) {
        // Forward again, to the code: the way back comes back beside the step
        if (!this.#link.isConnected && this.#step?.isConnected) this.#place(this.#step);
        return;
      }
      if (!this.#link.isConnected) return;
      // Back (the browser's, or the link's): the event the reader chose where it was on the screen. The
      // browser restores the scroll too, but not over a smooth scroll to the step still running, nor
      // after something above the player changed height; an instant scroll ends the one and fixes the other.
      this.#link.remove();
      const from = this.#from;
      const restore = (): void => {
        if (from?.el.isConnected) scrollTo({ left: scrollX, top: scrollY + from.el.getBoundingClientRect().top - from.top, behavior: 'instant' });
      };
      restore();
      // and once more at the next frame: the smooth scroll to the step, when Back comes while it runs, can still
      // move the page by a frame's step after this (seen in Chromium: 8 to 65 px, one time in five under load)
      requestAnimationFrame(restore);
      this.#left();
      this.#back()?.focus({ preventScroll: true });
    });
  }

  /**
   * Before the page scrolls to `step` (an excerpt step with an id) from the trace event `from`: make the
   * jump a history entry, and put the way back beside the step. A jump from a jump replaces it, so one
   * Back always returns.
   */
  jump(step: HTMLElement, from: HTMLElement | undefined): void {
    const url = new URL(location.href);
    url.hash = step.id;
    const state: JumpState = { podlifeJump: this.#id };
    if (isJump(history.state, this.#id)) history.replaceState(state, '', url);
    else {
      this.#link.href = location.href; // where the link leads: the page as the reader left it
      this.#from = from && { el: from, top: from.getBoundingClientRect().top };
      history.pushState(state, '', url);
    }
    this.#step = step;
    this.#place(step);
  }

  /** The link beside the step, outside its code (so copying the code does not copy the link), focused. */
  #place(step: HTMLElement): void {
    const host = step.closest<HTMLElement>('figure') ?? step.parentElement!;
    host.classList.add('sim-return-host');
    host.append(this.#link);
    this.#link.style.top = `${step.getBoundingClientRect().top - host.getBoundingClientRect().top}px`;
    this.#link.focus({ preventScroll: true });
  }

  #return(): void {
    if (isJump(history.state, this.#id)) {
      history.back(); // popstate does the rest, with the scroll the reader had
      return;
    }
    // The entry is gone (the reader navigated on): bring the chosen event into view instead.
    this.#link.remove();
    const target = this.#back();
    target?.scrollIntoView({ block: 'center' });
    target?.focus({ preventScroll: true });
  }
}
