// A strict Content-Security-Policy for every built page, without giving up inline SVG diagrams and
// Shiki's colours. Astro's own CSP support cannot hash Shiki's (or mermaid's) inline styles, so after
// the build every page is rewritten once:
//   - each style="" attribute becomes a class whose rule lives in a per-page stylesheet, with
//     !important so it keeps the precedence an inline style had over the site's own rules;
//   - each <style> element (mermaid's, inside its SVG) moves into that stylesheet too;
//   - inline <script>s (the theme restore, the language redirect) are allowed by their sha256 hash;
// and a <meta http-equiv="content-security-policy"> allowing only the site's own scripts and styles goes
// first in <head>. Pages whose diagrams must render in the reader's browser (no Chromium at build time)
// also allow inline styles, which mermaid needs there.
import { createHash } from 'node:crypto';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { visit, SKIP } from 'unist-util-visit';

export interface CspPage {
  html: string;
  /** The page's extracted styles (empty when it had none). */
  css: string;
  policy: string;
}

/** The raw text of a <script> or <style> (its text children, as the browser hashes it). */
const rawText = (node: Element) => node.children.map((c) => (c.type === 'text' ? c.value : '')).join('');

const sha = (text: string, encoding: 'base64' | 'hex' = 'base64') => createHash('sha256').update(text).digest(encoding);

function important(declarations: string): string {
  return declarations
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.includes(':'))
    .map((d) => (/!important\s*$/i.test(d) ? d : `${d} !important`))
    .join(';');
}

/**
 * Rewrite one page. `cssHref(css)` names the stylesheet the page's extracted styles are written to.
 */
export function securePage(html: string, cssHref: (css: string) => string): CspPage {
  const tree = fromHtml(html) as Root;
  const rules = new Map<string, string>();
  const sheets: string[] = [];
  const scriptHashes = new Set<string>();
  let clientDiagrams = false;
  let head: Element | undefined;

  visit(tree, 'element', (node, index, parent) => {
    if (node.tagName === 'head') head = node;
    if (node.tagName === 'pre' && Array.isArray(node.properties.className) && node.properties.className.includes('mermaid')) clientDiagrams = true;
    if (node.tagName === 'style' && parent && index !== undefined) {
      sheets.push(rawText(node));
      parent.children.splice(index, 1);
      return [SKIP, index];
    }
    if (node.tagName === 'script' && !node.properties.src) {
      const code = rawText(node);
      if (code.trim()) scriptHashes.add(`'sha256-${sha(code)}'`);
    }
    const style = node.properties.style;
    if (typeof style === 'string' && !style.trim()) delete node.properties.style;
    if (typeof style === 'string' && style.trim()) {
      const body = important(style);
      const name = `s-${sha(body, 'hex').slice(0, 10)}`;
      rules.set(name, body);
      const cls = node.properties.className;
      node.properties.className = [...(Array.isArray(cls) ? cls : typeof cls === 'string' ? [cls] : []), name];
      delete node.properties.style;
    }
    return undefined;
  });

  const css = [...sheets, ...[...rules].map(([name, body]) => `.${name}{${body}}`)].join('\n');
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval'${[...scriptHashes].sort().map((h) => ` ${h}`).join('')}`,
    `style-src 'self'${clientDiagrams ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');

  if (head) {
    const extra: Element[] = [
      { type: 'element', tagName: 'meta', properties: { httpEquiv: 'content-security-policy', content: policy } as unknown as Element['properties'], children: [] },
    ];
    if (css) extra.push({ type: 'element', tagName: 'link', properties: { rel: ['stylesheet'], href: cssHref(css) }, children: [] });
    // After <meta charset> (which must come first), before anything that loads.
    const charset = head.children.findIndex((c) => c.type === 'element' && c.tagName === 'meta' && 'charSet' in c.properties);
    head.children.splice(charset + 1, 0, extra[0]);
    if (extra[1]) head.children.push(extra[1]);
  }
  return { html: toHtml(tree, { allowDangerousHtml: true }), css, policy };
}
