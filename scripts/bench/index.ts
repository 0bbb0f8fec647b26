// `npm run bench`: every benchmark, one table, each figure against its budget (a figure over budget is
// marked ✗). Builds the book several times in throwaway copies, so it takes a few minutes.
//   npm run bench              everything
//   npm run bench -- --quick   skip the 50-chapter build and the 10,000-pod run
import { join } from 'node:path';
import { bookProject, coldWarm, growth, plainAstro } from './build.ts';
import { kb, pageWeights, printTable, scrubTiming } from './page.ts';
import { serve } from './serve.ts';
import { simBenchmarks } from './sim.ts';

interface Row {
  area: string;
  figure: string;
  value: string;
  budget: string;
  ok: boolean | undefined;
}

const quick = process.argv.includes('--quick');
const rows: Row[] = [];
const add = (area: string, figure: string, value: string, budget = '—', ok?: boolean) => rows.push({ area, figure, value, budget, ok });
const s = (x: number) => `${x.toFixed(1)} s`;
// A build row is ✓ when the build succeeded; a failed build shows as such rather than as a time.
const buildTime = (t: { seconds: number; ok: boolean }) => (t.ok ? s(t.seconds) : `build FAILED after ${s(t.seconds)}`);

// --- build ---------------------------------------------------------------------------------------
const { cold, warm } = coldWarm();
add('build', 'book, cold (no caches)', buildTime(cold), '—', cold.ok);
add('build', 'book, warm (diagram cache)', buildTime(warm), '—', warm.ok);
const counts = quick ? [1, 10] : [1, 10, 50];
for (const g of growth(counts)) add('build', `book + ${g.chapters} generated chapter${g.chapters > 1 ? 's' : ''} per language, warm`, buildTime(g), '—', g.ok);
const plain = plainAstro();
add('build', 'plain Astro build of the same Markdown', buildTime(plain), '—', plain.ok);
add('build', 'warm podlife build ÷ plain Astro', `${(warm.seconds / plain.seconds).toFixed(1)}×`);

// --- pages ---------------------------------------------------------------------------------------
const site = bookProject();
const built = site.podlife(['build'], { PODLIFE_DIAGRAM_CACHE: join(site.dir, '.diagram-cache'), PODLIFE_ASTRO_CACHE: join(site.dir, '.astro-cache') });
if (built.code !== 0) throw new Error(`bench: the book did not build:\n${built.output}`);
const dist = join(site.dir, 'dist');
const { pages, islandGz } = pageWeights(dist);
const readingJs = Math.max(...pages.map((p) => p.jsGz));
add('pages', 'JavaScript needed to read a chapter', '0 kB (every page is complete HTML; scripts only add interaction)', 'none', true);
add('pages', 'JS before interaction, largest page (gz)', kb(readingJs), '≤ 10 kB', readingJs <= 10_000);
add('pages', 'simulation island, engine included (gz)', kb(islandGz), '≤ 60 kB', islandGz <= 60_000);
for (const p of pages) add('pages', `${p.url} HTML / CSS / JS (gz)`, `${kb(p.htmlGz)} / ${kb(p.cssGz)} / ${kb(p.jsGz)}`);
const server = await serve(dist);
try {
  const player = pages.find((p) => p.hasPlayer && p.url.startsWith('/en/restarts'))?.url ?? pages.find((p) => p.hasPlayer)?.url;
  if (player) {
    const scrub = await scrubTiming(server.url, player);
    add('pages', `scrub step in the player (${player}, median of ${scrub.steps})`, `${scrub.medianMs.toFixed(1)} ms (max ${scrub.maxMs.toFixed(1)} ms)`, '≤ 16.7 ms (one frame)', scrub.medianMs <= 16.7);
  }
} finally {
  server.close();
}

// --- simulation ----------------------------------------------------------------------------------
const sim = simBenchmarks(quick ? [100, 1_000] : [100, 1_000, 10_000]);
for (const r of sim.lifecycle) {
  add('simulation', `lifecycle create → Running → delete, ${r.pods.toLocaleString('en-US')} pods${r.runs > 1 ? ` (${r.runs} runs together)` : ''}`, `${Math.round(r.podsPerSecond).toLocaleString('en-US')} pods/s (${Math.round(r.podsPerCpuSecond).toLocaleString('en-US')} per CPU s)`, '≥ 10,000 pods/s', r.podsPerSecond >= 10_000);
}
add('simulation', `stateAt(t) on a ${sim.stateAtEvents.toLocaleString('en-US')}-event trace`, `${sim.stateAtMs.toFixed(3)} ms`, '< 1 ms', sim.stateAtMs < 1);
add('simulation', 'peak memory (RSS)', `${Math.round(sim.peakRssMiB)} MiB`);

printTable(
  ['area', 'figure', 'value', 'budget', ''],
  rows.map((r) => [r.area, r.figure, r.value, r.budget, r.ok === undefined ? '' : r.ok ? '✓' : r.value.startsWith('build FAILED') ? '✗' : '✗ over budget']),
);
const over = rows.filter((r) => r.ok === false);
if (over.length) console.log(`\n${over.length} figure(s) over budget.`);
