// Building the player's DOM. Text only ever goes in as text nodes (textContent), never as markup: the
// page runs under a strict Content-Security-Policy, and scenario, manifest and console text is data.

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  /** Attributes (never `style`: styles live in player.css, or are set through element.style). */
  attrs?: Record<string, string | number | boolean | undefined>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A 16×16 icon from one SVG path, hidden from assistive technology (its button carries the label). */
export function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const p = document.createElementNS(SVG, 'path');
  p.setAttribute('d', path);
  p.setAttribute('fill', 'currentColor');
  svg.append(p);
  return svg;
}

export const ICONS = {
  play: 'M4 2.5v11l9-5.5z',
  pause: 'M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z',
  back: 'M3 2.5h2v11H3zM14 2.5v11L6 8z',
  next: 'M11 2.5h2v11h-2zM2 2.5v11L10 8z',
} as const;

/** Replace an element's text only when it differs (no layout work for an unchanged panel). */
export function setText(el: Element, text: string): boolean {
  if (el.textContent === text) return false;
  el.textContent = text;
  return true;
}

let ids = 0;
/** A page-unique id for label/aria wiring (several players can share a page). */
export function uid(prefix: string): string {
  return `${prefix}-${++ids}`;
}

const pending = new Map<object, () => void>();
let frame = 0;

/**
 * Run `fn` at the next animation frame, once per `owner` however often it is asked. Scroll adjustments
 * read layout; done here they share the frame's own layout instead of forcing one per change.
 */
export function nextFrame(owner: object, fn: () => void): void {
  pending.set(owner, fn);
  frame ||= requestAnimationFrame(() => {
    frame = 0;
    const jobs = [...pending.values()];
    pending.clear();
    for (const job of jobs) job();
  });
}
