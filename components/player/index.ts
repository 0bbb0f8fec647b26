// The simulation player island. When a [data-sim-player] section scrolls into view, the site's script
// imports the entry of the page's language (en.ts or zh.ts: this module plus that language's strings)
// and calls mount(section). The first load is small: the engine replays the run the
// build recorded (data-scenario-replay). The console and the manifest editor bring the runner, the
// command layer and the scenario parser (tools.ts) when first used — the same code path as
// `podlife simulate`. Without a recorded replay, the player starts from the scenario's YAML directly.
import './player.css';
import type { Labels } from './labels.ts';
import type { Simulation } from './model.ts';
import { Player } from './player.ts';
import { ReplaySource, readReplay } from './replay.ts';
import type { SimSource } from './source.ts';
import { readMoment } from './url.ts';

const mounted = new WeakSet<HTMLElement>();

/** Mount the player in its section, with the interface strings of the page's language (en.ts, zh.ts). */
export function mountPlayer(section: HTMLElement, labels: Labels): void {
  if (mounted.has(section)) return;
  mounted.add(section);
  // The build reserved the player's place (data-sim-slot, as tall as the player) with a loading line in it.
  const status = section.querySelector<HTMLElement>(':scope > [data-sim-slot] > .sim-loading');
  if (!status) throw new Error(`the section for scenario "${section.dataset.scenario ?? ''}" has no data-sim-slot: rebuild the site`);
  section.setAttribute('aria-busy', 'true');
  void start(section)
    .then(({ source, title, tools }) => {
      // the build wrote the title in the page's language; the recorded run carries the scenario's `title`
      const player = new Player(section, source, { scenario: section.dataset.scenario ?? '', title: section.dataset.title || title, labels, tools, stepHrefs: stepHrefs(section) });
      status.replaceWith(player.root);
      // The build-time transcript stays on the page for comparison, folded: the live panels and the
      // console now show the same outputs at any moment.
      section.querySelector<HTMLDetailsElement>(':scope > [data-sim-static] > details.sim-transcript')?.removeAttribute('open');
      section.classList.add('sim-mounted');
      player.attached();
      // A shared moment (?scenario=…&t=…) is what the reader came for: show it, unless they already
      // scrolled or the URL names an anchor of its own.
      const shared = readMoment(location.search, section.dataset.scenario ?? '') !== undefined;
      if (shared && !location.hash && scrollY === 0) section.scrollIntoView({ block: 'start' });
    })
    .catch((e: unknown) => {
      // The static outputs stay (site.css shows them again): the page keeps working without the player.
      section.classList.add('sim-failed');
      status.classList.add('sim-error');
      status.textContent = `${labels.loadFailed} ${e instanceof Error ? e.message : String(e)}`;
    })
    .finally(() => section.removeAttribute('aria-busy'));
}

/** The section's map of step keys to their excerpts (written at build time); {} when absent or broken. */
function stepHrefs(section: HTMLElement): Record<string, string> {
  try {
    const map = JSON.parse(section.dataset.stepHrefs ?? '{}') as unknown;
    return map && typeof map === 'object' ? (map as Record<string, string>) : {};
  } catch {
    return {};
  }
}

async function start(section: HTMLElement): Promise<{ source: SimSource; title: string; tools: () => Promise<Simulation> }> {
  const scenario = section.dataset.scenario ?? '';
  const src = section.dataset.scenarioSrc;
  if (!src) throw new Error(`the section for scenario "${scenario}" has no data-scenario-src`);
  const replayUrl = section.dataset.scenarioReplay;
  const replay = replayUrl ? readReplay(await fetchJson(replayUrl), replayUrl) : undefined;
  const seedAttr = section.dataset.seed;
  // The runner must run what the replay recorded: its seed wins.
  const seed = replay?.seed ?? (seedAttr && /^\d+$/.test(seedAttr) ? Number(seedAttr) : undefined);
  let loading: Promise<Simulation> | undefined;
  const tools = () =>
    (loading ??= import('./tools.ts')
      .then((m) => m.loadSimulation(src, `${scenario || 'scenario'}.yaml`, seed))
      .catch((e: unknown) => {
        loading = undefined; // a later use tries again (the network may be back)
        throw e;
      }));
  if (replay) return { source: await ReplaySource.load(replay), title: replay.title, tools };
  const sim = await tools();
  return { source: sim, title: sim.scenario.title, tools };
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}
