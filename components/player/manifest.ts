// The editable pod manifest: change the pod, run the scenario again with it. A manifest that cannot run
// leaves the current run on screen and shows why, with a button that selects the offending line.
import { h, uid } from './dom.ts';
import type { Labels } from './labels.ts';
import type { ManifestProblem } from './model.ts';

export interface ManifestHandlers {
  /** The manifest the editor starts from (loads the simulation's tools); undefined: no pod to edit. */
  load(): Promise<string | undefined>;
  run(yaml: string): ManifestProblem | undefined;
  reset(): string | undefined;
}

export class ManifestEditor {
  readonly root: HTMLDetailsElement;
  readonly #text: HTMLTextAreaElement;
  readonly #message: HTMLElement;
  readonly #labels: Labels;

  /** The editor opens empty; the first time it opens, it loads the scenario's pod into the textarea. */
  constructor(labels: Labels, on: ManifestHandlers) {
    this.#labels = labels;
    const id = uid('sim-manifest');
    const messageId = `${id}-msg`;
    this.#text = h('textarea', {
      class: 'sim-manifest-text',
      attrs: { id, rows: 8, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', 'aria-describedby': messageId, disabled: true },
    });
    this.#message = h('p', { class: 'sim-manifest-message', attrs: { id: messageId, role: 'status' } });
    const runButton = h('button', { class: 'sim-button sim-button-text', text: labels.manifestRun, attrs: { type: 'button' } });
    const resetButton = h('button', { class: 'sim-button sim-button-text', text: labels.manifestReset, attrs: { type: 'button' } });
    runButton.addEventListener('click', () => this.#show(on.run(this.#text.value)));
    resetButton.addEventListener('click', () => {
      const text = on.reset();
      if (text !== undefined) this.#text.value = text;
      this.#info(labels.resetDone);
    });
    const buttons = [runButton, resetButton];
    for (const b of buttons) b.disabled = true;
    this.root = h('details', { class: 'sim-manifest' }, [
      h('summary', { text: labels.manifest }),
      h('p', { class: 'sim-panel-hint', text: labels.manifestHint }),
      h('label', { class: 'sim-manifest-label', text: labels.manifestLabel, attrs: { for: id } }),
      this.#text,
      h('div', { class: 'sim-manifest-actions' }, [runButton, resetButton]),
      this.#message,
    ]);
    this.root.addEventListener(
      'toggle',
      () => {
        this.#info(labels.loading);
        on.load().then(
          (text) => {
            if (text === undefined) {
              this.#info(labels.manifestNone);
              return;
            }
            this.#text.value = text;
            this.#text.rows = Math.min(24, Math.max(8, text.split('\n').length));
            this.#text.disabled = false;
            for (const b of buttons) b.disabled = false;
            this.#info('');
          },
          (e: unknown) => this.#show({ message: e instanceof Error ? e.message : String(e) }),
        );
      },
      { once: true },
    );
  }

  #info(text: string): void {
    this.#message.classList.remove('sim-error');
    this.#message.setAttribute('role', 'status');
    this.#message.textContent = text;
  }

  #show(problem: ManifestProblem | undefined): void {
    if (!problem) {
      this.#text.removeAttribute('aria-invalid');
      this.#info(this.#labels.manifestOk);
      return;
    }
    this.#text.setAttribute('aria-invalid', 'true');
    this.#message.classList.add('sim-error');
    this.#message.setAttribute('role', 'alert');
    const parts: (Node | string)[] = [];
    if (problem.line !== undefined) {
      const line = problem.line;
      const go = h('button', { class: 'sim-link-button', text: this.#labels.manifestLine(line), attrs: { type: 'button' } });
      go.addEventListener('click', () => this.#selectLine(line));
      parts.push(go);
    }
    parts.push(problem.message);
    this.#message.replaceChildren(...parts);
  }

  #selectLine(line: number): void {
    const lines = this.#text.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    const end = start + (lines[line - 1]?.length ?? 0);
    this.#text.focus();
    this.#text.setSelectionRange(start, end);
  }
}
