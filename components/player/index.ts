// The simulation player island. The site's script imports this module when a [data-sim-player] section
// scrolls into view and calls mount(section): fetch the scenario, run it in the browser with the same
// engine and runner as `podlife simulate`, and put the player in front of the section's static outputs.
import './player.css';
import { parseScenario } from '../../src/sim/index.ts';
import { runnable } from '../../src/sim/run.ts';
import { h } from './dom.ts';
import { labelsFor } from './labels.ts';
import { Simulation } from './model.ts';
import { Player } from './player.ts';

const mounted = new WeakSet<HTMLElement>();

export function mount(section: HTMLElement): void {
  if (mounted.has(section)) return;
  mounted.add(section);
  const labels = labelsFor(section.dataset.lang ?? document.documentElement.lang.slice(0, 2));
  const status = h('p', { class: 'sim-loading', attrs: { role: 'status' }, text: labels.loading });
  section.prepend(status);
  section.setAttribute('aria-busy', 'true');
  void load(section)
    .then(({ sim, scenario }) => {
      const player = new Player(section, sim, {
        scenario,
        title: sim.scenario.title,
        labels,
      });
      status.replaceWith(player.root);
      player.attached();
      foldTranscript(section, labels.transcript);
      section.classList.add('sim-mounted');
    })
    .catch((e: unknown) => {
      // The static outputs stay: the page keeps working without the player.
      status.classList.add('sim-error');
      status.textContent = `${labels.loadFailed} ${e instanceof Error ? e.message : String(e)}`;
    })
    .finally(() => section.removeAttribute('aria-busy'));
}

async function load(section: HTMLElement): Promise<{ sim: Simulation; scenario: string }> {
  const scenario = section.dataset.scenario ?? '';
  const src = section.dataset.scenarioSrc;
  if (!src) throw new Error(`the section for scenario "${scenario}" has no data-scenario-src`);
  const response = await fetch(src);
  if (!response.ok) throw new Error(`${src}: HTTP ${response.status}`);
  const text = await response.text();
  const file = `${scenario || 'scenario'}.yaml`;
  const parsed = parseScenario(text, file);
  const seedAttr = section.dataset.seed;
  const seed = seedAttr && /^\d+$/.test(seedAttr) ? Number(seedAttr) : (parsed.seed ?? 1);
  // The same path as `podlife simulate`: parseScenario → runnable → runScenario.
  return { sim: new Simulation(runnable(parsed), seed), scenario };
}

/**
 * The build-time transcript stays on the page for comparison, folded: the live panels and the console
 * now show the same outputs at any moment.
 */
function foldTranscript(section: HTMLElement, summary: string): void {
  const outputs = [...section.querySelectorAll<HTMLElement>('[data-sim-static] > figure.output')];
  if (outputs.length === 0) return;
  const details = h('details', { class: 'sim-transcript' }, [h('summary', { text: summary })]);
  outputs[0].before(details);
  details.append(...outputs);
}
