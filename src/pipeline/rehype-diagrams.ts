// ```mermaid blocks → inline SVG at build time, in one page of a shared Chromium with mermaid loaded once (mermaid-page.ts).
//
// Each diagram is cached on disk by a hash of its source (plus the mermaid version and config), so an
// unchanged diagram is never rendered twice, across builds. Rendered ids are rewritten to ids derived
// from that hash, so several diagrams on one page never collide. A syntax error fails the build with
// the chapter file and the diagram's line. Without any browser the build still succeeds: diagrams are
// left as <pre class="mermaid"> for the reader's browser to render, and one warning says how to
// install a browser.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Element, ElementContent, Root } from 'hast';
import { fromHtmlIsomorphic } from 'hast-util-from-html-isomorphic';
import { toHtml } from 'hast-util-to-html';
import { toText } from 'hast-util-to-text';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { findChromium, type FoundBrowser } from './browser.ts';
import { MERMAID_VERSION, renderDiagrams } from './mermaid-page.ts';
import { failAt } from './fail.ts';

export interface DiagramOptions {
  /** Where rendered SVGs are kept between builds. */
  cacheDir?: string;
  /** The browser to render with; `null` renders in the reader's browser instead. Default: findChromium(). */
  browser?: FoundBrowser | null;
  /** mermaid's own configuration (part of the cache key). */
  mermaidConfig?: Record<string, unknown>;
}

const PLACEHOLDER = 'PODLIFEDIAGRAM';
const DEFAULT_CONFIG = { theme: 'default', fontFamily: 'ui-sans-serif, system-ui, sans-serif', securityLevel: 'strict' };

let warnedNoBrowser = false;
let clientDiagramsUsed = false;

/** True when some page left its diagrams for the reader's browser (the integration then ships mermaid). */
export function clientDiagramsWereUsed(): boolean {
  return clientDiagramsUsed;
}

interface Found {
  pre: Element;
  parent: { children: ElementContent[] };
  source: string;
  hash: string;
}

function isMermaidPre(node: Element): Element | undefined {
  if (node.tagName !== 'pre') return undefined;
  const elements = node.children.filter((c): c is Element => c.type === 'element');
  const code = elements[0];
  if (elements.length !== 1 || code.tagName !== 'code') return undefined;
  const cls = code.properties?.className;
  return Array.isArray(cls) && cls.includes('language-mermaid') ? code : undefined;
}

export default function rehypeDiagrams(options: DiagramOptions = {}) {
  const cacheDir = options.cacheDir ?? process.env.PODLIFE_DIAGRAM_CACHE ?? join(process.cwd(), 'node_modules/.cache/podlife/diagrams');
  const mermaidConfig = { ...DEFAULT_CONFIG, ...options.mermaidConfig };
  const configKey = JSON.stringify(mermaidConfig);
  const memory = new Map<string, string>();
  let browser: FoundBrowser | null | undefined = options.browser;

  const hashOf = (source: string) =>
    createHash('sha256').update(`${MERMAID_VERSION}\0${configKey}\0${source}`).digest('hex').slice(0, 16);

  const cached = (hash: string): string | undefined => {
    if (memory.has(hash)) return memory.get(hash);
    const path = join(cacheDir, `${hash}.svg`);
    if (!existsSync(path)) return undefined;
    const svg = readFileSync(path, 'utf8');
    memory.set(hash, svg);
    return svg;
  };

  const store = (hash: string, svg: string) => {
    memory.set(hash, svg);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, `${hash}.svg`), svg);
  };

  async function render(found: Found[], file: VFile, browserFound: FoundBrowser): Promise<void> {
    const results = await renderDiagrams(browserFound, found.map((f) => f.source), mermaidConfig, PLACEHOLDER);
    const failed = results.findIndex((r) => r.status === 'rejected');
    if (failed >= 0) failDiagram(file, found[failed], (results[failed] as PromiseRejectedResult).reason);
    results.forEach((r, i) => {
      if (r.status !== 'fulfilled') return;
      // through hast and back, as the page inlines it
      const svg = fromHtmlIsomorphic(r.value, { fragment: true }).children[0];
      if (svg?.type !== 'element' || svg.tagName !== 'svg') return;
      store(found[i].hash, toHtml(svg, { space: 'svg' }).replaceAll(`${PLACEHOLDER}-${i}`, PLACEHOLDER));
    });
  }

  return async function transformer(tree: Root, file: VFile): Promise<void> {
    const found: Found[] = [];
    visit(tree, 'element', (node, index, parent) => {
      const code = isMermaidPre(node);
      if (!code || !parent || index === undefined) return;
      const source = toText(code, { whitespace: 'pre' }).replace(/\n$/, '');
      found.push({ pre: node, parent: parent as Found['parent'], source, hash: hashOf(source) });
    });
    if (found.length === 0) return;

    const missing = found.filter((f, i) => cached(f.hash) === undefined && found.findIndex((g) => g.hash === f.hash) === i);
    if (missing.length > 0) {
      if (browser === undefined) browser = process.env.PODLIFE_DIAGRAMS === 'client' ? null : findChromium();
      if (browser === null) {
        warnNoBrowser();
      } else {
        const found = browser;
        await render(missing, file, found);
      }
    }

    const seen = new Map<string, number>();
    for (const f of found) {
      const svg = cached(f.hash);
      const n = (seen.get(f.hash) ?? 0) + 1;
      seen.set(f.hash, n);
      const replacement: Element = svg === undefined ? clientSide(f) : inline(svg, `diagram-${f.hash.slice(0, 10)}${n > 1 ? `-${n}` : ''}`, f);
      f.parent.children[f.parent.children.indexOf(f.pre)] = replacement;
    }
  };
}

/** The smallest scale a wide diagram is drawn at: mermaid's 16 px text stays above 11 px. */
const MIN_SCALE = 0.7;
/** The text column's width in CSS pixels (.prose max-width: 52rem). */
const COLUMN = 832;

function inline(svg: string, id: string, f: Found): Element {
  const svgNode = fromHtmlIsomorphic(svg.replaceAll(PLACEHOLDER, id), { fragment: true }).children[0] as Element;
  const properties: Element['properties'] = { className: ['diagram'], dataDiagram: f.hash };
  // Fitted to the column, a long sequence diagram (a whole run's trace is over 2,000 units wide) would shrink its
  // text to 4 px: one that would go below MIN_SCALE keeps that scale, and its figure scrolls sideways instead.
  const width = Number(String(svgNode.properties.viewBox ?? '').split(/\s+/)[2]);
  if (width * MIN_SCALE > COLUMN) {
    svgNode.properties.width = String(Math.round(width * MIN_SCALE));
    properties.className = ['diagram', 'diagram-wide'];
    // a region that scrolls must take the keyboard too (the arrow keys scroll it once focused)
    properties.tabIndex = 0;
  }
  return {
    type: 'element',
    tagName: 'figure',
    properties,
    children: [svgNode],
  };
}

function clientSide(f: Found): Element {
  clientDiagramsUsed = true;
  return {
    type: 'element',
    tagName: 'figure',
    properties: { className: ['diagram', 'diagram-client'], dataDiagram: f.hash },
    children: [{ type: 'element', tagName: 'pre', properties: { className: ['mermaid'] }, children: [{ type: 'text', value: f.source }] }],
  };
}

function warnNoBrowser(): void {
  clientDiagramsUsed = true;
  if (warnedNoBrowser) return;
  warnedNoBrowser = true;
  if (process.env.PODLIFE_DIAGRAMS === 'client') return;
  console.warn(
    '[podlife] No Chromium found for rendering diagrams at build time (looked for Playwright\'s own browser, ' +
      '$PLAYWRIGHT_CHROMIUM_EXECUTABLE, /usr/bin/chromium). The site is built anyway and diagrams render in ' +
      'the reader\'s browser. To render them at build time install one: `sudo apt-get install -y chromium` ' +
      '(Debian/Ubuntu), or `npx playwright install chromium`, or point PLAYWRIGHT_CHROMIUM_EXECUTABLE at a Chromium.',
  );
}

function failDiagram(file: VFile, f: Found, error: unknown): never {
  const raw = error instanceof Error ? error.message : typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : String(error);
  const fenceLine = f.pre.position?.start.line;
  const inDiagram = /line (\d+)/i.exec(raw);
  const line = fenceLine !== undefined ? fenceLine + (inDiagram ? Number(inDiagram[1]) : 1) : undefined;
  const detail = raw.split('\n').filter((l) => l.trim() !== '').slice(0, 4).join('\n    ');
  const message =
    `Mermaid syntax error in the diagram ${fenceLine !== undefined ? `that starts at line ${fenceLine}` : ''}` +
    `${line !== undefined ? ` (at line ${line})` : ''}:\n    ${detail}\n` +
    '  Fix the diagram: check it against https://mermaid.js.org/intro/syntax-reference.html or paste it into https://mermaid.live.';
  failAt(file, message, line !== undefined ? { line, column: 1 } : f.pre.position, 'diagram');
}
