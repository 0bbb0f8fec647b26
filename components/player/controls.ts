// Play / pause, step back and forward, the time scrubber with a tick at each event, speed, and the
// clock. Keyboard: the buttons are buttons; on the scrubber ←/→ move one second (Shift: ten),
// PageUp/PageDown move one event, Home/End go to the ends.
import { h, icon, ICONS, setText, uid } from './dom.ts';
import type { Labels } from './labels.ts';
import { formatClock } from './time.ts';

export interface ControlHandlers {
  togglePlay(): void;
  back(): void;
  next(): void;
  /** Move to time t; `settled` is false while the scrubber is being dragged. */
  seek(t: number, settled: boolean): void;
  speed(factor: number): void;
}

const SPEEDS = [1, 2, 5, 10, 30, 60];
export const DEFAULT_SPEED = 10;

export class Controls {
  readonly root: HTMLElement;
  readonly #scrubber: HTMLInputElement;
  readonly #ticks: HTMLElement;
  readonly #play: HTMLButtonElement;
  readonly #back: HTMLButtonElement;
  readonly #next: HTMLButtonElement;
  readonly #clock: HTMLElement;
  readonly #endClock: HTMLElement;
  readonly #phase: HTMLElement;
  readonly #labels: Labels;
  #end = 0;
  #playing: boolean | undefined;

  constructor(labels: Labels, on: ControlHandlers) {
    this.#labels = labels;
    const button = (label: string, path: string, onClick: () => void) => {
      const b = h('button', { class: 'sim-button', attrs: { type: 'button', 'aria-label': label, title: label } }, [icon(path)]);
      // aria-disabled rather than disabled: a focused button that becomes disabled would drop the focus.
      b.addEventListener('click', () => {
        if (b.getAttribute('aria-disabled') !== 'true') onClick();
      });
      return b;
    };
    this.#back = button(labels.back, ICONS.back, () => on.back());
    this.#play = button(labels.play, ICONS.play, () => on.togglePlay());
    this.#next = button(labels.next, ICONS.next, () => on.next());

    const scrubberId = uid('sim-time');
    this.#scrubber = h('input', {
      class: 'sim-scrubber',
      attrs: { id: scrubberId, type: 'range', min: 0, max: 0, step: 'any', value: 0, 'aria-label': labels.time },
    });
    this.#scrubber.addEventListener('input', () => on.seek(Number(this.#scrubber.value), false));
    this.#scrubber.addEventListener('change', () => on.seek(Number(this.#scrubber.value), true));
    this.#scrubber.addEventListener('keydown', (e) => {
      const t = Number(this.#scrubber.value);
      const big = e.shiftKey ? 10_000 : 1000;
      let target: number | undefined;
      switch (e.key) {
        case 'ArrowRight':
        case 'ArrowUp':
          target = t + big;
          break;
        case 'ArrowLeft':
        case 'ArrowDown':
          target = t - big;
          break;
        case 'Home':
          target = 0;
          break;
        case 'End':
          target = this.#end;
          break;
        case 'PageUp':
          e.preventDefault();
          on.back();
          return;
        case 'PageDown':
          e.preventDefault();
          on.next();
          return;
        default:
          return;
      }
      e.preventDefault();
      on.seek(Math.min(this.#end, Math.max(0, target)), true);
    });
    this.#ticks = h('div', { class: 'sim-ticks', attrs: { 'aria-hidden': 'true' } });

    const speedId = uid('sim-speed');
    const speed = h(
      'select',
      { class: 'sim-speed', attrs: { id: speedId } },
      SPEEDS.map((s) => h('option', { text: `${s}×`, attrs: { value: s, selected: s === DEFAULT_SPEED } })),
    );
    speed.addEventListener('change', () => on.speed(Number(speed.value)));

    this.#clock = h('span', { class: 'sim-clock-now', text: '0s' });
    this.#endClock = h('span', { class: 'sim-clock-end', text: '0s' });
    this.#phase = h('span', { class: 'sim-phase-now', text: labels.noPod });

    this.root = h('div', { class: 'sim-controls', attrs: { role: 'group', 'aria-label': labels.controls } }, [
      h('div', { class: 'sim-buttons' }, [this.#back, this.#play, this.#next]),
      h('div', { class: 'sim-track' }, [this.#scrubber, this.#ticks]),
      h('div', { class: 'sim-readout' }, [
        h('span', { class: 'sim-clock', attrs: { 'aria-hidden': 'true' } }, [this.#clock, ' / ', this.#endClock]),
        h('span', { class: 'sim-phase' }, [`${labels.phase}: `, this.#phase]),
        h('label', { class: 'sim-speed-label', attrs: { for: speedId } }, [`${labels.speed} `, speed]),
      ]),
    ]);
  }

  /** The time range and the events on it. */
  setTimeline(end: number, times: readonly number[]): void {
    this.#end = end;
    this.#scrubber.max = String(end);
    const marks = times.map((t) => {
      const mark = h('span', { class: 'sim-tick' });
      // Positioned from script (CSSOM), which the Content-Security-Policy allows; no style attributes.
      mark.style.left = `${end > 0 ? (t / end) * 100 : 0}%`;
      return mark;
    });
    this.#ticks.replaceChildren(...marks);
    setText(this.#endClock, formatClock(end));
  }

  update(t: number, canBack: boolean, canNext: boolean): void {
    const text = formatClock(t);
    if (setText(this.#clock, text)) {
      this.#scrubber.setAttribute('aria-valuetext', text);
    }
    if (Number(this.#scrubber.value) !== t) this.#scrubber.value = String(t);
    this.#back.setAttribute('aria-disabled', String(!canBack));
    this.#next.setAttribute('aria-disabled', String(!canNext));
  }

  setPhase(phase: string | undefined): void {
    setText(this.#phase, phase ?? this.#labels.noPod);
  }

  setPlaying(playing: boolean): void {
    if (this.#playing === playing) return;
    this.#playing = playing;
    const label = playing ? this.#labels.pause : this.#labels.play;
    this.#play.setAttribute('aria-label', label);
    this.#play.title = label;
    this.#play.replaceChildren(icon(playing ? ICONS.pause : ICONS.play));
  }
}
