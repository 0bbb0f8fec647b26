// rehype-diagrams with a real Chromium: inline SVG, one browser for many files, a cache that means an
// unchanged diagram is never rendered twice, unique ids per page, an SVG that depends on its diagram alone,
// clear syntax errors, recovery from a browser that died, and the no-browser fallback.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { browserLaunchCount, closeSharedBrowser, findChromium, sharedBrowser } from '../../../src/pipeline/browser.ts';
import rehypeDiagrams, { type DiagramOptions } from '../../../src/pipeline/rehype-diagrams.ts';

const state = '```mermaid\nstateDiagram-v2\n  [*] --> Pending\n  Pending --> Running\n```\n';
const flow = '```mermaid\nflowchart LR\n  A[kubectl run] --> B[scheduler]\n```\n';

function build(options: DiagramOptions) {
  return unified().use(remarkParse).use(remarkRehype).use(rehypeDiagrams, options).use(rehypeStringify);
}

async function render(markdown: string, options: DiagramOptions, path = 'content/chapters/en/test.md'): Promise<string> {
  return String(await build(options).process(new VFile({ path, value: markdown })));
}

const browser = findChromium();
afterAll(closeSharedBrowser);

describe.skipIf(!browser)('rendering with a browser', () => {
  it('turns mermaid blocks into inline SVG with ids unique on the page', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'podlife-diagrams-'));
    const html = await render(`# Title\n\n${state}\ntext\n\n${flow}\n${state}`, { cacheDir, browser });
    expect(html).not.toContain('language-mermaid');
    const ids = [...html.matchAll(/<svg id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(html).toMatch(/<figure class="diagram" data-diagram="[0-9a-f]{16}"><svg/);
    // Two distinct diagrams → two cache entries (the repeated one is rendered once).
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it('starts one browser for many files and never renders an unchanged diagram twice', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'podlife-diagrams-'));
    const before = browserLaunchCount();
    const pages = await Promise.all(
      ['a', 'b', 'c'].map((name, i) => render(`${state}\n\`\`\`mermaid\nflowchart TD\n  X${i} --> Y\n\`\`\`\n`, { cacheDir, browser }, `${name}.md`)),
    );
    expect(pages.every((p) => p.includes('<svg'))).toBe(true);
    expect(browserLaunchCount() - before).toBeLessThanOrEqual(1);
    expect(readdirSync(cacheDir)).toHaveLength(4);

    // A fresh pipeline with NO browser still renders from the cache: the diagram is not rendered again.
    const again = await render(state, { cacheDir, browser: null });
    expect(again).toContain('<svg');
    expect(again).not.toContain('class="mermaid"');
  });

  it('fails on a syntax error naming the file and the line in the chapter', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'podlife-diagrams-'));
    const md = '# Broken\n\nSome text.\n\n```mermaid\nstateDiagram-v2\n  Pending --> --> Running\n```\n';
    const err = await render(md, { cacheDir, browser }, 'content/chapters/en/broken.md').then(
      () => undefined,
      (e: unknown) => e as Error & { line?: number; file?: string },
    );
    expect(err).toBeDefined();
    expect(err!.message).toContain('Mermaid syntax error');
    expect(err!.message).toContain('mermaid.live');
    expect(err!.line).toBe(7); // the diagram's second line, where the error is
    expect(String(err)).toContain('content/chapters/en/broken.md:7');
  });
});

describe.skipIf(!browser)('the shared page', () => {
  const sequence = (participants: string[]) => `\`\`\`mermaid\nsequenceDiagram\n${participants.map((p, i) => `  ${p}->>${participants[(i + 1) % participants.length]}: step ${i}`).join('\n')}\n\`\`\`\n`;
  const svgs = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));

  it('gives a diagram the same SVG whatever the page rendered before it', async () => {
    // mermaid numbers a sequence diagram's participants (ids actor<n>, root-<n>) with a counter that lives as long
    // as the page: without taking it back to 0, the second render of the same diagram would get other ids
    const diagram = sequence(['kubelet', 'runtime', 'apiserver']);
    const first = mkdtempSync(join(tmpdir(), 'podlife-diagrams-'));
    await render(diagram, { cacheDir: first, browser });
    await render(sequence(['a', 'b', 'c', 'd', 'e']), { cacheDir: mkdtempSync(join(tmpdir(), 'podlife-diagrams-')), browser });
    const again = mkdtempSync(join(tmpdir(), 'podlife-diagrams-'));
    await render(diagram, { cacheDir: again, browser });
    const [a] = svgs(first);
    expect(a).toMatch(/id="actor0"/);
    expect(svgs(again)).toEqual([a]);
  });

  it('opens again after the browser went away, and ending the build then is quiet', async () => {
    // the browser killed outright (a crash, an OOM kill): the next diagram starts another, and the end of the build
    // closes what is left without an unhandled rejection
    await render(state, { cacheDir: mkdtempSync(join(tmpdir(), 'podlife-diagrams-')), browser });
    const before = browserLaunchCount();
    const running = await sharedBrowser(browser!);
    const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).toString();
    const chromiums = children.trim().split('\n').map((line) => line.trim().split(/\s+/)).filter(([, comm]) => /chrom/.test(comm ?? ''));
    expect(chromiums.length).toBeGreaterThan(0);
    for (const [pid] of chromiums) process.kill(Number(pid), 'SIGKILL');
    await expect.poll(() => running.isConnected()).toBe(false);
    const html = await render(flow, { cacheDir: mkdtempSync(join(tmpdir(), 'podlife-diagrams-')), browser });
    expect(html).toContain('<svg');
    expect(browserLaunchCount() - before).toBe(1);
    await expect(closeSharedBrowser()).resolves.toBeUndefined();
  });
});

describe('without a browser', () => {
  it('leaves diagrams for the reader\'s browser and warns once with how to install one', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'podlife-diagrams-'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const html = await render(`${state}\n${flow}`, { cacheDir, browser: null });
    await render(state, { cacheDir, browser: null });
    expect(html.match(/<pre class="mermaid">/g)).toHaveLength(2);
    expect(html).toContain('stateDiagram-v2');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/apt-get install -y chromium|playwright install chromium/);
    warn.mockRestore();
  });
});
