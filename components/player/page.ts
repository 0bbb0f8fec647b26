// What the player lights up outside itself: the quoted code step of the current event in the page's Go
// excerpts (elements with data-step-key, the step's anchor id inside), and the pod's phase in the phase
// state diagram rendered at build time (mermaid SVG, states with ids like "…-state-Running-5").
export const ACTIVE_STEP_CLASS = 'sim-active-step';
export const CURRENT_PHASE_CLASS = 'sim-phase-current';

const PHASE_ID = /(?:^|-)state-(Pending|Running|Succeeded|Failed|Unknown)-\d+$/;

export class PageLinks {
  readonly #root: HTMLElement;
  #active: Element[] = [];
  #activeKey: string | undefined;
  #phaseNodes = new Map<string, Element[]>();
  #phase: string | undefined;

  /** `root` is the player's section; `parts` are places outside it yet (the player before it is attached). */
  constructor(root: HTMLElement, ...parts: HTMLElement[]) {
    this.#root = root;
    for (const g of [root, ...parts].flatMap((r) => [...r.querySelectorAll('svg g[id]')])) {
      const m = PHASE_ID.exec(g.id);
      if (!m) continue;
      const list = this.#phaseNodes.get(m[1]) ?? [];
      list.push(g);
      this.#phaseNodes.set(m[1], list);
    }
  }

  /** The page's elements quoting a step. */
  steps(key: string): Element[] {
    return [...document.querySelectorAll(`[data-step-key="${CSS.escape(key)}"]`)];
  }

  /** Light up the step of the current event (none: undefined); optionally bring it into view. */
  highlight(key: string | undefined, scroll = false): void {
    if (key !== this.#activeKey) {
      for (const el of this.#active) el.classList.remove(ACTIVE_STEP_CLASS);
      this.#activeKey = key;
      this.#active = key ? this.steps(key) : [];
      for (const el of this.#active) el.classList.add(ACTIVE_STEP_CLASS);
    }
    if (scroll && this.#active[0]) {
      const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
      this.#active[0].scrollIntoView({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
    }
  }

  /** Mark the pod's phase in the phase diagram. */
  phase(phase: string | undefined): void {
    if (phase === this.#phase) return;
    for (const el of this.#phaseNodes.get(this.#phase ?? '') ?? []) el.classList.remove(CURRENT_PHASE_CLASS);
    this.#phase = phase;
    for (const el of this.#phaseNodes.get(phase ?? '') ?? []) el.classList.add(CURRENT_PHASE_CLASS);
  }

  /**
   * Call `onStep(key)` when the reader follows a step's own anchor in an excerpt (`<a href="#syncpod-4">`
   * inside the element with data-step-key and id "syncpod-4"). Call links inside a step are not steps.
   */
  onStepLink(onStep: (key: string) => void): void {
    document.addEventListener('click', (e) => {
      const link = (e.target as Element | null)?.closest?.('a[href^="#"]');
      const step = link?.closest<HTMLElement>('[data-step-key]');
      if (!link || !step?.dataset.stepKey || link.getAttribute('href') !== `#${step.id}`) return;
      if (this.#root.contains(link)) return;
      onStep(step.dataset.stepKey);
    });
  }
}
