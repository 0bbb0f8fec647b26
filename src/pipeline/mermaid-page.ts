// One page per build with mermaid loaded once, where every diagram of every chapter is rendered.
//
// Loading mermaid (8 MB of JavaScript) into a fresh page takes about 1.5 s; rendering a diagram in it, 0.05–0.2 s. A
// build that opened a page per chapter spent most of its diagram time loading the same script sixteen times; here one
// page loads it once and renders the diagrams one after the other.
//
// A page kept for many diagrams must not let one diagram change another: mermaid's sequence diagrams number their
// participants with a counter that lives as long as the page (ids actor<n> and root-<n>), so the same diagram got
// other ids after other diagrams. Each SVG's counter ids are taken back to start at 0, as a fresh page gives them:
// a diagram's SVG depends on its source alone, whatever was rendered before it, which is what its cache key says.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright';
import { sharedBrowser, type FoundBrowser } from './browser.ts';

const require = createRequire(import.meta.url);
const MERMAID_DIR = dirname(require.resolve('mermaid/package.json'));
export const MERMAID_VERSION: string = require('mermaid/package.json').version;
// file URLs: a page opened from a file may load a script from a file (handing Playwright the script's text instead
// took four times as long: 8 MB through the DevTools protocol)
const MERMAID_SCRIPT = pathToFileURL(join(MERMAID_DIR, 'dist/mermaid.js')).href;
const PAGE = new URL('./mermaid-page.html', import.meta.url).href;

let page: Promise<Page> | undefined;
/** The renders waiting for the page: one at a time, so that one batch's diagrams never interleave with another's. */
let queue: Promise<unknown> = Promise.resolve();

async function openPage(found: FoundBrowser): Promise<Page> {
  const browser = await sharedBrowser(found);
  const context = await browser.newContext({ bypassCSP: true });
  const p = await context.newPage();
  await p.goto(PAGE);
  await p.addScriptTag({ url: MERMAID_SCRIPT });
  return p;
}

/** The page, opened on first use and again after the browser closed it (the end of a build, a dev server's restart). */
async function mermaidPage(found: FoundBrowser): Promise<Page> {
  if (page) {
    const open = await page.catch(() => undefined);
    if (open && !open.isClosed() && open.context().browser()?.isConnected()) return open;
  }
  const opening = openPage(found);
  page = opening;
  opening.catch(() => {
    if (page === opening) page = undefined;
  });
  return opening;
}

/** What the page sends back for one diagram: its SVG, or mermaid's error. */
type Rendered = { ok: true; svg: string } | { ok: false; message: string };

/**
 * Render diagrams (mermaid sources) with `config`; the i-th is rendered with the id `${prefix}-${i}`. Each result is
 * the SVG as XML, or the error mermaid gave for that diagram.
 */
export function renderDiagrams(found: FoundBrowser, sources: string[], config: Record<string, unknown>, prefix: string): Promise<PromiseSettledResult<string>[]> {
  const run = queue.then(async () => {
    const p = await mermaidPage(found);
    const results = await p.evaluate(inPage, { sources, config: { fontFamily: 'arial,sans-serif', ...config }, prefix });
    return results.map((r): PromiseSettledResult<string> => (r.ok ? { status: 'fulfilled', value: withCountersFromZero(r.svg) } : { status: 'rejected', reason: new Error(r.message) }));
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Runs in the page (serialised by Playwright: it may use nothing from this module). */
async function inPage({ sources, config, prefix }: { sources: string[]; config: Record<string, unknown>; prefix: string }): Promise<Rendered[]> {
  const m = (globalThis as unknown as { mermaid: { initialize(c: unknown): void; render(id: string, text: string, container: Element): Promise<{ svg: string }> } }).mermaid;
  let container = document.getElementById('podlife-diagrams');
  if (!container) {
    container = document.createElement('div');
    container.id = 'podlife-diagrams';
    container.ariaHidden = 'true';
    Object.assign(container.style, { maxHeight: '0', opacity: '0', overflow: 'hidden' });
    document.body.append(container);
  }
  m.initialize(config);
  const parser = new DOMParser();
  const serializer = new XMLSerializer();
  const out: Rendered[] = [];
  for (const [i, source] of sources.entries()) {
    try {
      const { svg } = await m.render(`${prefix}-${i}`, source, container);
      // the SVG as XML (void elements closed, namespaces explicit), as it is inlined in a page
      const element = parser.parseFromString(svg, 'text/html').getElementsByTagName('svg')[0];
      out.push({ ok: true, svg: serializer.serializeToString(element) });
    } catch (error) {
      out.push({ ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}

/**
 * The SVG with mermaid's page-long participant counter taken back to 0 (ids actor<n> and root-<n> share it), as a
 * diagram rendered alone in a fresh page has it.
 */
export function withCountersFromZero(svg: string): string {
  let min = Infinity;
  for (const m of svg.matchAll(/\bid="(?:actor|root-)(\d+)[_"]/g)) min = Math.min(min, Number(m[1]));
  if (min === Infinity || min === 0) return svg;
  return svg.replace(/\bid="(actor|root-)(\d+)(?=[_"])/g, (_, name: string, n: string) => `id="${name}${Number(n) - min}`);
}
