// Page weight and player responsiveness, measured on a built site.
//   npm run bench:page            (builds nothing: run `npm run build` first)
// For each chapter: HTML bytes (raw, gzipped), CSS and JS the page loads before any interaction
// (gzipped; JS = module scripts and their static imports), the simulation island's JavaScript (gzipped;
// what the player's dynamic import adds), and the time of one scrub step in the player in Chromium.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from '../../src/pipeline/browser.ts';

export interface PageWeight {
  url: string;
  htmlBytes: number;
  htmlGz: number;
  cssGz: number;
  jsGz: number;
  hasPlayer: boolean;
}

const gz = (buf: Buffer | string) => gzipSync(buf, { level: 9 }).length;

function assetPath(dist: string, href: string): string {
  return join(dist, href.replace(/^\//, '').split(/[?#]/)[0]);
}

/** A JS file and every file it imports statically (not `import()`), as paths under dist. */
function staticClosure(dist: string, entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry) || !existsSync(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'`]([^"'`]+)["'`]/g)) {
    staticClosure(dist, m[1].startsWith('/') ? assetPath(dist, m[1]) : join(entry, '..', m[1]), seen);
  }
  return seen;
}

const LANGS = ['zh', 'en'];

/**
 * Files a module reaches through dynamic import() (and their static imports). The player has one entry
 * per language (player/en.ts, player/zh.ts, built as en.<hash>.js, zh.<hash>.js): a page loads only its
 * own language's, so that is the one counted.
 */
function dynamicClosure(dist: string, files: Set<string>, lang: string): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/import\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) {
      if (!m[1].startsWith('.') && !m[1].startsWith('/_astro/')) continue; // e.g. /pagefind/ (loaded on search)
      const target = m[1].startsWith('/') ? assetPath(dist, m[1]) : join(file, '..', m[1]);
      const entryLang = LANGS.find((l) => basename(target).startsWith(`${l}.`));
      if (entryLang && entryLang !== lang) continue;
      for (const f of staticClosure(dist, target)) if (!files.has(f)) out.add(f);
    }
  }
  return out;
}

function chapters(dist: string): string[] {
  const out: string[] = [];
  for (const lang of ['zh', 'en']) {
    const dir = join(dist, lang);
    if (!existsSync(dir)) continue;
    for (const slug of readdirSync(dir).sort()) if (existsSync(join(dir, slug, 'index.html'))) out.push(`/${lang}/${slug}/`);
  }
  return out;
}

export function pageWeights(dist = 'dist'): { pages: PageWeight[]; islandGz: number; islandFiles: string[] } {
  const pages: PageWeight[] = [];
  // The island per language: what a reader of a page with a player downloads when it comes into view.
  const islands = new Map<string, Set<string>>();
  for (const url of chapters(dist)) {
    const html = readFileSync(join(dist, url, 'index.html'));
    const text = html.toString('utf8');
    const css = [...text.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => assetPath(dist, m[1]));
    const scripts = [...text.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => assetPath(dist, m[1]));
    const inline = [...text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('');
    const js = new Set<string>();
    for (const s of scripts) staticClosure(dist, s, js);
    const hasPlayer = text.includes('data-sim-player');
    const lang = url.split('/')[1];
    if (hasPlayer && !islands.has(lang)) islands.set(lang, dynamicClosure(dist, js, lang));
    pages.push({
      url,
      htmlBytes: html.length,
      htmlGz: gz(html),
      cssGz: css.reduce((n, f) => n + gz(readFileSync(f)), 0),
      jsGz: [...js].reduce((n, f) => n + gz(readFileSync(f)), 0) + (inline ? gz(inline) : 0),
      hasPlayer,
    });
  }
  // The island is whatever the player's import pulls in beyond the page's own scripts, each file gzipped
  // as the browser receives it; the larger of the languages' is reported.
  let island = new Set<string>();
  let islandGz = 0;
  for (const files of islands.values()) {
    const size = [...files].reduce((n, f) => n + gz(readFileSync(f)), 0);
    if (size > islandGz) [island, islandGz] = [files, size];
  }
  return { pages, islandGz, islandFiles: [...island].map((f) => f.slice(dist.length + 1)) };
}

export interface ScrubTiming {
  url: string;
  steps: number;
  medianMs: number;
  maxMs: number;
}

/**
 * Work per scrub step in Chromium: the input handler, plus the next frame's callbacks and the layout
 * they cause (everything the player does to show the new moment), without the idle wait for the frame.
 */
export async function scrubTiming(baseUrl: string, url: string, steps = 40): Promise<ScrubTiming> {
  const found = findChromium();
  if (!found) throw new Error('no Chromium for the page benchmark (see README: Requirements)');
  const browser = await chromium.launch({ executablePath: found.source === 'playwright' ? undefined : found.executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(new URL(url, baseUrl).href);
    const player = page.locator('[data-sim-player]').first();
    await player.scrollIntoViewIfNeeded();
    const scrubber = player.locator('input.sim-scrubber');
    await scrubber.waitFor({ state: 'visible', timeout: 30_000 });
    const times = await scrubber.evaluate(async (input: HTMLInputElement, n: number) => {
      const max = Number(input.max);
      const out: number[] = [];
      for (let i = 1; i <= n; i++) {
        const value = ((i * 7919) % n) / n * max; // a spread of moments, not in order
        const start = performance.now();
        input.value = String(value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
        const sync = performance.now() - start;
        // The next frame: its callbacks (the player renders there) and the layout they cause.
        const frame = await new Promise<number>((r) =>
          requestAnimationFrame((frameStart) => {
            document.body.getBoundingClientRect();
            r(performance.now() - Math.max(frameStart, start + sync));
          }),
        );
        out.push(sync + Math.max(0, frame));
      }
      return out;
    }, steps);
    const sorted = [...times].sort((a, b) => a - b);
    return { url, steps, medianMs: sorted[Math.floor(sorted.length / 2)], maxMs: sorted[sorted.length - 1] };
  } finally {
    await browser.close();
  }
}

// kB as the budgets are written: 1,000 bytes (the stricter reading: a budget met here is met in KiB too)
export function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

async function main(): Promise<void> {
  const dist = process.argv[2] ?? 'dist';
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`bench:page: no built site in ${dist}/ — run npm run build first.`);
    process.exitCode = 2;
    return;
  }
  const { pages, islandGz } = pageWeights(dist);
  const { serve } = await import('./serve.ts');
  const server = await serve(dist);
  const scrub: Record<string, ScrubTiming> = {};
  try {
    for (const p of pages.filter((q) => q.hasPlayer)) scrub[p.url] = await scrubTiming(server.url, p.url);
  } finally {
    server.close();
  }
  const rows = pages.map((p) => [p.url, String(p.htmlBytes), kb(p.htmlGz), kb(p.cssGz), kb(p.jsGz), p.hasPlayer ? kb(islandGz) : '—', scrub[p.url] ? `${scrub[p.url].medianMs.toFixed(1)} ms (max ${scrub[p.url].maxMs.toFixed(1)})` : '—']);
  printTable(['page', 'HTML bytes', 'HTML gz', 'CSS gz', 'JS gz before interaction', 'island gz', 'scrub step (median)'], rows);
}

export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

if (import.meta.main) await main();
