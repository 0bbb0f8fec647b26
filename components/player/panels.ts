// The panels that follow the current time: what `kubectl get pods -o wide`, `kubectl get events` and
// `crictl ps` print at that moment, and the pod's status as YAML with what the last event changed.
import { h, nextFrame, setText } from './dom.ts';
import { type DiffLine, diffLines, toLines } from './diff.ts';

/** A titled terminal-like panel showing one command's output. */
export class CommandPanel {
  readonly root: HTMLElement;
  readonly command: string;
  readonly #out: HTMLElement;

  constructor(title: string, command: string, className: string) {
    this.command = command;
    this.#out = h('pre', { class: 'sim-out', attrs: { tabindex: 0 } });
    this.root = h('figure', { class: `sim-panel ${className}` }, [
      h('figcaption', {}, [h('span', { class: 'sim-panel-title', text: title }), ' ', h('code', { text: `$ ${command}` })]),
      this.#out,
    ]);
  }

  /** Show an output; returns whether anything on screen changed. */
  show(text: string): boolean {
    return setText(this.#out, text);
  }
}

/** The pod's status YAML, each line marked as kept, added or removed since the previous event. */
export class StatusPanel {
  readonly root: HTMLElement;
  readonly #out: HTMLElement;
  readonly #title: HTMLElement;
  #shown: string | undefined;

  constructor(title: string, hint: string) {
    this.#title = h('code', {});
    this.#out = h('pre', { class: 'sim-out sim-yaml', attrs: { tabindex: 0 } });
    this.root = h('figure', { class: 'sim-panel sim-panel-status' }, [
      h('figcaption', {}, [h('span', { class: 'sim-panel-title', text: title }), ' ', this.#title]),
      this.#out,
      h('p', { class: 'sim-panel-hint', text: hint }),
    ]);
  }

  setPod(podName: string): void {
    setText(this.#title, `$ kubectl get pod ${podName} -o yaml  # .status`);
  }

  /** Show `now`, marking what differs from `before` (undefined: nothing to compare with). */
  show(before: string | undefined, now: string | undefined, emptyText: string): void {
    const key = `${before ?? '\0'}\u0001${now ?? '\0'}`;
    if (key === this.#shown) return;
    this.#shown = key;
    if (now === undefined) {
      this.#out.replaceChildren(h('span', { class: 'sim-empty', text: emptyText }));
      return;
    }
    const lines: DiffLine[] = before === undefined ? toLines(now).map((text) => ({ kind: 'same', text })) : diffLines(toLines(before), toLines(now));
    const nodes = lines.map(lineNode);
    this.#out.replaceChildren(...nodes);
    // Bring the first change into view inside the panel (never scrolling the page).
    const first = nodes.find((n) => !n.classList.contains('sim-line-same'));
    if (!first) return;
    nextFrame(this, () => {
      const top = first.offsetTop;
      const out = this.#out;
      if (top < out.scrollTop || top > out.scrollTop + out.clientHeight - first.offsetHeight) out.scrollTop = Math.max(0, top - out.clientHeight / 3);
    });
  }
}

function lineNode(line: DiffLine): HTMLElement {
  // <ins>/<del> carry the meaning for assistive technology; the +/− gutter is drawn by CSS.
  const tag = line.kind === 'added' ? 'ins' : line.kind === 'removed' ? 'del' : 'span';
  return h(tag, { class: `sim-line sim-line-${line.kind}`, text: `${line.text}\n` });
}
