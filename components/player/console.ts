// The console: type the commands `podlife simulate` runs (kubectl, crictl, journalctl, pipes into grep …)
// and read their output at the current virtual time. ↑/↓ walk the history, as in a shell.
import { h, uid } from './dom.ts';
import { CommandHistory } from './history.ts';
import type { Labels } from './labels.ts';
import type { Write } from '../../src/sim/commands/shell.ts';

export interface ConsoleOutput {
  stdout: string;
  stderr: string;
  /** Both streams in the order written, when that is not stdout then stderr (shell.ts CommandResult). */
  writes?: Write[];
  /** A note from the player (not the command's output), e.g. that the scenario was re-simulated. */
  note?: string;
}

/** Entries kept on screen; older ones scroll away for good. */
const MAX_ENTRIES = 60;

export class Console {
  readonly root: HTMLElement;
  readonly input: HTMLInputElement;
  readonly #log: HTMLElement;
  readonly #history = new CommandHistory();

  /** Commands run one after another, in the order typed (the first one may wait for the tools to load). */
  #queue: Promise<void> = Promise.resolve();

  constructor(labels: Labels, host: string, run: (line: string) => Promise<ConsoleOutput & { at: string }>, onFirstFocus: () => void) {
    const inputId = uid('sim-console');
    this.input = h('input', {
      class: 'sim-console-input',
      attrs: { id: inputId, type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', enterkeyhint: 'go' },
    });
    this.#log = h('pre', { class: 'sim-console-log', attrs: { role: 'log', 'aria-live': 'polite', tabindex: 0, 'aria-label': labels.console } });
    const form = h('form', { class: 'sim-console-form' }, [
      h('label', { class: 'sim-console-prompt', attrs: { for: inputId } }, [
        h('span', { class: 'visually-hidden', text: labels.consoleInput }),
        h('span', { attrs: { 'aria-hidden': 'true' }, text: `root@${host}:~#` }),
      ]),
      this.input,
      h('button', { class: 'sim-button sim-button-text', text: labels.run, attrs: { type: 'submit' } }),
    ]);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const line = this.input.value;
      if (!line.trim()) return;
      this.#history.push(line);
      this.input.value = '';
      this.#queue = this.#queue
        .then(() => run(line))
        .then(
          (out) => this.#append(line, out),
          (e: unknown) => this.#append(line, { at: '', stdout: '', stderr: `${e instanceof Error ? e.message : String(e)}\n` }),
        );
    });
    this.input.addEventListener('focus', onFirstFocus, { once: true });
    this.input.addEventListener('keydown', (e) => {
      const next = e.key === 'ArrowUp' ? this.#history.up(this.input.value) : e.key === 'ArrowDown' ? this.#history.down() : undefined;
      if (next === undefined) return;
      e.preventDefault();
      this.input.value = next;
      this.input.setSelectionRange(next.length, next.length);
    });
    this.root = h('section', { class: 'sim-panel sim-panel-console', attrs: { 'aria-label': labels.console } }, [
      h('h3', { class: 'sim-panel-title', text: labels.console }),
      h('p', { class: 'sim-panel-hint', text: labels.consoleHint }),
      this.#log,
      form,
    ]);
  }

  #append(line: string, out: ConsoleOutput & { at: string }): void {
    const entry = h('span', { class: 'sim-console-entry' }, [
      out.at && h('span', { class: 'sim-console-at', text: `[${out.at}] ` }),
      h('span', { class: 'sim-console-cmd', text: `$ ${line}\n` }),
      ...(out.writes ?? [[1, out.stdout], [2, out.stderr]]).map(([fd, text]) => text && h('span', { class: fd === 1 ? 'sim-console-stdout' : 'sim-console-stderr', text: withNewline(text) })),
      out.note && h('span', { class: 'sim-console-note', text: withNewline(out.note) }),
    ]);
    this.#log.append(entry);
    while (this.#log.childElementCount > MAX_ENTRIES) this.#log.firstElementChild?.remove();
    this.#log.scrollTop = this.#log.scrollHeight;
  }
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
