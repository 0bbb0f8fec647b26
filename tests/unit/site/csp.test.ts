import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { securePage } from '../../../src/pipeline/csp.ts';

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;

describe('securePage', () => {
  it('moves style attributes into classes whose rules keep inline precedence', () => {
    let written = '';
    const out = securePage(page('<pre class="astro-code" style="--shiki-light:#1F2328;--shiki-dark:#E6EDF3"><span style="color: red">x</span></pre>'), (css) => {
      written = css;
      return '/_podlife/css/page.css';
    });
    expect(out.html).not.toContain('style=');
    const classes = [...out.html.matchAll(/class="([^"]+)"/g)].map((m) => m[1]);
    expect(classes[0]).toMatch(/^astro-code s-[0-9a-f]{10}$/);
    expect(written).toMatch(/\.s-[0-9a-f]{10}\{--shiki-light:#1F2328 !important;--shiki-dark:#E6EDF3 !important\}/);
    expect(written).toMatch(/\.s-[0-9a-f]{10}\{color: red !important\}/);
    expect(out.html).toContain('<link rel="stylesheet" href="/_podlife/css/page.css">');
  });

  it('moves <style> elements (mermaid SVGs) out of the page and drops empty style attributes', () => {
    const out = securePage(page('<svg id="d1"><style>#d1 .node{fill:#ECECFF}</style><rect style=""></rect></svg>'), () => '/x.css');
    expect(out.html).not.toContain('<style');
    expect(out.html).not.toContain('style=');
    expect(out.css).toContain('#d1 .node{fill:#ECECFF}');
  });

  it('allows inline scripts by their hash and nothing else inline', () => {
    const code = "document.documentElement.dataset.theme='dark'";
    const out = securePage(page('<p>hi</p>', `<script>${code}</script>`), () => '/x.css');
    const hash = createHash('sha256').update(code).digest('base64');
    expect(out.policy).toContain(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash}'`);
    expect(out.policy).toContain("style-src 'self';");
    expect(out.policy).toContain("object-src 'none'");
    // The policy is the first thing after <meta charset>.
    expect(out.html).toMatch(/<head><meta charset="utf-8"><meta http-equiv="content-security-policy"/);
    expect(out.css).toBe('');
    expect(out.html).not.toContain('rel="stylesheet"');
  });

  it('lets pages that render diagrams in the browser use inline styles (mermaid needs them)', () => {
    const out = securePage(page('<figure class="diagram diagram-client"><pre class="mermaid">flowchart LR\nA-->B</pre></figure>'), () => '/x.css');
    expect(out.policy).toContain("style-src 'self' 'unsafe-inline'");
  });
});
