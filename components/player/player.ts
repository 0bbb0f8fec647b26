// One simulation player: the controls, the panels, the trace, the console and the manifest editor,
// kept in step with one moment of one simulation run. Moving time renders synchronously from the
// engine's stateAt and touches only the parts of the page whose text changed. The console and the
// editor need the runner and the command layer (tools.ts), loaded the first time they are used.
import type { ClusterState, Pod } from '../../src/sim/types.ts';
import { toYaml } from '../../src/sim/render/yaml.ts';
import { Console } from './console.ts';
import { Controls, DEFAULT_SPEED } from './controls.ts';
import { h } from './dom.ts';
import type { Labels } from './labels.ts';
import { ManifestEditor } from './manifest.ts';
import type { Simulation } from './model.ts';
import { PageLinks } from './page.ts';
import { PANEL_COMMANDS, type PanelName, panelText } from './panel-text.ts';
import { CommandPanel, StatusPanel } from './panels.ts';
import { ReturnLink } from './return.ts';
import { type SimSource, podsOf, sameRun } from './source.ts';
import { formatClock } from './time.ts';
import { type EventFilter, type Moment, eventTimes, firstOfKey, momentAt, previousTime, stepBack, stepForward } from './timeline.ts';
import { TraceList } from './trace-list.ts';
import { AddressWriter, readMoment, writeMoment } from './url.ts';

export interface PlayerOptions {
  /** The scenario's name, as the URL's `scenario=` names it. */
  scenario: string;
  title: string;
  labels: Labels;
  /** The runner-backed simulation of the same run (loads the heavy half once; later calls share it). */
  tools(): Promise<Simulation>;
  /** Step key → where the book quotes it (section data-step-hrefs), for steps quoted in other chapters. */
  stepHrefs?: Record<string, string>;
}

export class Player {
  readonly root: HTMLElement;
  readonly #section: HTMLElement;
  #sim: SimSource;
  #tools: Simulation | undefined;
  readonly #opts: PlayerOptions;
  readonly #labels: Labels;
  readonly #controls: Controls;
  readonly #panels: Record<PanelName, CommandPanel>;
  readonly #status: StatusPanel;
  readonly #podPicker: HTMLSelectElement;
  readonly #trace: TraceList;
  readonly #live: HTMLElement;
  readonly #edited: HTMLElement;
  readonly #page: PageLinks;
  readonly #return: ReturnLink;
  readonly #address: AddressWriter;
  #moment: Moment = { t: 0, index: -1 };
  #pod = '';
  #filter: string | undefined;
  #playing = false;
  #speed = DEFAULT_SPEED;
  #frame = 0;
  #lastFrame = 0;
  #before: { time: number | undefined; pod: string; text: string | undefined } | undefined;

  constructor(section: HTMLElement, sim: SimSource, opts: PlayerOptions) {
    this.#section = section;
    this.#sim = sim;
    this.#opts = opts;
    const labels = (this.#labels = opts.labels);

    this.#controls = new Controls(labels, {
      togglePlay: () => (this.#playing ? this.pause() : this.play()),
      back: () => this.#step(-1),
      next: () => this.#step(1),
      seek: (t, settled) => {
        this.pause(false);
        const m = momentAt(this.#sim.trace, t);
        // the end of a drag (change after the input events) is at the moment already shown: settle it only
        if (settled && m.t === this.#moment.t && m.index === this.#moment.index) this.#settled(true);
        else this.#moveTo(m, { url: settled, announce: settled });
      },
      speed: (factor) => (this.#speed = factor),
    });
    this.#panels = {
      pods: new CommandPanel(labels.pods, PANEL_COMMANDS.pods, 'sim-panel-pods'),
      events: new CommandPanel(labels.events, PANEL_COMMANDS.events, 'sim-panel-events'),
      containers: new CommandPanel(labels.containers, PANEL_COMMANDS.containers, 'sim-panel-containers'),
    };
    this.#status = new StatusPanel(labels.status, labels.statusChanged);
    this.#podPicker = h('select', { class: 'sim-pod-picker', attrs: { 'aria-label': labels.status } });
    this.#podPicker.addEventListener('change', () => {
      this.#pod = this.#podPicker.value;
      this.#render();
    });
    this.#status.root.querySelector('figcaption')?.append(this.#podPicker);
    this.#trace = new TraceList(labels, {
      choose: (index) => this.#choose(index),
      clearFilter: () => this.#setFilter(undefined),
    }, opts.stepHrefs);
    const host = sim.stateAt(0).nodes[0]?.metadata.name ?? 'node';
    const console = new Console(labels, host, (line) => this.#command(line), () => void this.#loadTools().catch(() => {}));
    const editor = new ManifestEditor(labels, {
      load: async () => (await this.#loadTools()).firstManifest(),
      run: (yaml) => {
        const tools = this.#tools!;
        const problem = tools.runManifest(yaml);
        if (!problem) this.#show(tools);
        return problem;
      },
      reset: () => {
        const tools = this.#tools!;
        tools.reset();
        this.#show(tools);
        return tools.firstManifest();
      },
    });
    this.#live = h('p', { class: 'visually-hidden', attrs: { 'aria-live': 'polite', 'aria-atomic': 'true' } });
    this.#edited = h('span', { class: 'sim-badge sim-badge-edited', text: labels.edited, attrs: { hidden: true } });

    this.root = h('div', { class: 'sim-live' }, [
      h('div', { class: 'sim-head' }, [
        h('span', { class: 'sim-live-title', text: opts.title }),
        h('span', { class: 'sim-badges' }, [h('span', { class: 'sim-badge', text: labels.simulated }), this.#edited]),
      ]),
      this.#controls.root,
      this.#live,
      h('div', { class: 'sim-grid' }, [
        this.#panels.pods.root,
        h('div', { class: 'sim-grid-pair' }, [phasePanel(section, labels), this.#panels.events.root]),
        h('div', { class: 'sim-grid-pair' }, [this.#status.root, this.#trace.root]),
        this.#panels.containers.root,
        console.root,
      ]),
      editor.root,
    ]);
    this.#page = new PageLinks(section, this.root);
    this.#page.onStepLink((key) => this.#jumpToStep(key));
    this.#address = new AddressWriter(() => writeMoment(location.href, opts.scenario, this.#moment.t));
    // back from the code: the entry returned to gets the moment at once
    this.#return = new ReturnLink(labels.backToPlayer, () => this.#trace.currentButton(), () => this.#address.now());
    this.root.addEventListener('keydown', (e) => {
      if (e.key !== ' ' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement;
      if (target.closest('input:not([type="range"]), textarea, select, button, summary, a, [contenteditable]')) return;
      e.preventDefault();
      if (this.#playing) this.pause();
      else this.play();
    });

    this.#setTimeline();
    const asked = readMoment(location.search, opts.scenario);
    // the address changes only when the reader moves: loading the player leaves the chapter's URL as it was
    this.#moveTo(momentAt(sim.trace, Math.min(asked ?? 0, sim.end)), { url: false, announce: false });
  }

  /** Once on the page: scroll the trace to the current event (layout exists only now). */
  attached(): void {
    this.#trace.reveal();
  }

  play(): void {
    if (this.#playing) return;
    if (this.#moment.t >= this.#sim.end) this.#moveTo(momentAt(this.#sim.trace, 0), { announce: false });
    this.#playing = true;
    this.#controls.setPlaying(true);
    this.#lastFrame = performance.now();
    this.#frame = requestAnimationFrame((now) => this.#tick(now));
  }

  pause(settle = true): void {
    if (!this.#playing) return;
    this.#playing = false;
    cancelAnimationFrame(this.#frame);
    this.#controls.setPlaying(false);
    if (settle) this.#settled(true);
  }

  #tick(now: number): void {
    if (!this.#playing) return;
    const t = Math.min(this.#sim.end, this.#moment.t + (now - this.#lastFrame) * this.#speed);
    this.#lastFrame = now;
    this.#moveTo(momentAt(this.#sim.trace, t), { url: false, announce: false });
    if (t >= this.#sim.end) this.pause();
    else this.#frame = requestAnimationFrame((n) => this.#tick(n));
  }

  #keep(): EventFilter | undefined {
    const key = this.#filter;
    return key === undefined ? undefined : (e) => e.key === key;
  }

  #step(direction: 1 | -1): void {
    this.pause(false);
    const to = direction > 0 ? stepForward(this.#sim.trace, this.#moment, this.#keep()) : stepBack(this.#sim.trace, this.#moment, this.#keep());
    if (to) this.#moveTo(to);
  }

  #choose(index: number): void {
    const e = this.#sim.trace[index];
    if (!e) return;
    this.pause(false);
    this.#moveTo({ t: e.t, index });
    // A step out of sight is a jump away from the player: give it a way back (history, and a link there). The
    // entry it leaves keeps the moment chosen.
    const step = e.key ? this.#page.steps(e.key)[0] : undefined;
    if (step instanceof HTMLElement && step.id && !inView(step)) {
      this.#address.flush();
      this.#return.jump(step, this.#trace.currentButton());
    }
    this.#page.highlight(e.key, true);
  }

  #jumpToStep(key: string): void {
    const first = firstOfKey(this.#sim.trace, key);
    if (!first) return;
    this.pause(false);
    this.#setFilter(key);
    this.#moveTo(first);
  }

  #setFilter(key: string | undefined): void {
    this.#filter = key;
    this.#trace.setFilter(key);
    this.#render();
  }

  /** The runner-backed simulation, from now on also what the player shows (it is the same run). */
  async #loadTools(): Promise<Simulation> {
    const tools = await this.#opts.tools();
    if (this.#tools !== tools) {
      this.#tools = tools;
      if (sameRun(this.#sim, tools)) this.#sim = tools;
      else this.#show(tools);
    }
    return tools;
  }

  async #command(line: string) {
    const tools = await this.#loadTools();
    const t = this.#moment.t;
    const at = formatClock(t);
    const answer = tools.command(line, t);
    if (answer.resimulated) this.#show(tools);
    return { ...answer, at, note: answer.resimulated ? this.#labels.consoleResimulated(at) : undefined };
  }

  /** Show another run (edited manifest, a console command that changed the cluster) from the current time. */
  #show(sim: SimSource): void {
    this.#sim = sim;
    this.#edited.hidden = !this.#tools?.edited;
    this.pause(false);
    this.#before = undefined;
    this.#setTimeline();
    if (this.#filter !== undefined && !firstOfKey(this.#sim.trace, this.#filter)) this.#filter = undefined;
    this.#trace.setFilter(this.#filter);
    this.#moveTo(momentAt(this.#sim.trace, Math.min(this.#moment.t, this.#sim.end)), { url: false });
  }

  #setTimeline(): void {
    const sim = this.#sim;
    this.#controls.setTimeline(sim.end, eventTimes(sim.trace));
    this.#trace.setTrace(sim.trace);
    const pods = podsOf(sim.trace);
    if (!pods.includes(this.#pod)) this.#pod = pods[0] ?? '';
    this.#podPicker.replaceChildren(...pods.map((p) => h('option', { text: p.replace(/^default\//, ''), attrs: { value: p, selected: p === this.#pod } })));
    this.#podPicker.hidden = pods.length < 2;
    this.#status.setPod(this.#pod.replace(/^default\//, ''));
  }

  #moveTo(m: Moment, opts: { url?: boolean; announce?: boolean } = {}): void {
    this.#moment = m;
    this.#render();
    this.#settled(opts.url ?? true, opts.announce ?? true);
  }

  /** After a deliberate move: remember the moment in the URL (when the reader pauses) and tell assistive technology. */
  #settled(url: boolean, announce = true): void {
    const { t, index } = this.#moment;
    if (url) this.#address.later();
    if (announce) {
      const e = this.#sim.trace[index];
      this.#live.textContent = e ? this.#labels.atEvent(formatClock(t), e.detail) : formatClock(t);
    }
  }

  #render(): void {
    const sim = this.#sim;
    const { t, index } = this.#moment;
    const keep = this.#keep();
    this.#controls.update(t, stepBack(sim.trace, this.#moment, keep) !== undefined, stepForward(sim.trace, this.#moment, keep) !== undefined);

    const state = sim.stateAt(t);
    for (const name of Object.keys(this.#panels) as PanelName[]) this.#panels[name].show(panelText(name, state));

    const pod = findPod(state, this.#pod);
    const before = this.#statusBefore();
    this.#status.show(before, pod ? statusYaml(pod) : undefined, this.#labels.statusNone);
    this.#controls.setPhase(pod?.status.phase);
    this.#page.phase(pod?.status.phase);

    this.#trace.setCurrent(index);
    this.#page.highlight(sim.trace[index]?.key);
  }

  /** The pod's status YAML at the latest time before the current event (cached per event time). */
  #statusBefore(): string | undefined {
    const time = previousTime(this.#sim.trace, this.#moment);
    if (this.#before && this.#before.time === time && this.#before.pod === this.#pod) return this.#before.text;
    const pod = time === undefined ? undefined : findPod(this.#sim.stateAt(time), this.#pod);
    // No earlier event: nothing to compare with. The pod did not exist yet: every line is new.
    const text = time === undefined ? undefined : pod ? statusYaml(pod) : '';
    this.#before = { time, pod: this.#pod, text };
    return text;
  }
}

/**
 * The phase state diagram rendered at build time sits in the section's static part; next to the live
 * panels it can follow the pod, so it moves into the player (its SVG is unchanged).
 */
function phasePanel(section: HTMLElement, labels: Labels): HTMLElement | undefined {
  const diagram = section.querySelector<HTMLElement>('[data-sim-static] [data-sim-phases]');
  if (!diagram) return undefined;
  return h('figure', { class: 'sim-panel sim-panel-phases' }, [h('figcaption', {}, [h('span', { class: 'sim-panel-title', text: labels.phases })]), diagram]);
}

function inView(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight;
}

function findPod(state: ClusterState, key: string): Pod | undefined {
  return state.pods.find((p) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}` === key);
}

// Recorded objects never change (the engine's history is copy-on-write), so a pod object maps to one text.
const yamlOf = new WeakMap<Pod, string>();

function statusYaml(pod: Pod): string {
  let text = yamlOf.get(pod);
  if (text === undefined) {
    text = toYaml({ status: pod.status });
    yamlOf.set(pod, text);
  }
  return text;
}
