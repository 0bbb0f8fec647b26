// Shiki for Go excerpts, with the site's dual themes (github-light / github-dark as CSS variables).
import type { Element, Root } from 'hast';
import { type HighlighterGeneric, createHighlighter } from 'shiki';
import { readable } from './contrast.ts';

export const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

/**
 * Backgrounds code is read on, per theme (site.css --bg-code, and --highlight for a highlighted step):
 * token colours are kept at WCAG AA contrast on all of them.
 */
export const CODE_BACKGROUNDS = { light: ['#ffffff', '#fff8c5'], dark: ['#151b23', '#3b2e05'] };

function readableStyle(style: string): string {
  return style
    .replace(/(--shiki-light:)(#[0-9a-fA-F]{6})\b/, (_, k: string, c: string) => k + readable(c, CODE_BACKGROUNDS.light, 'black'))
    .replace(/(--shiki-dark:)(#[0-9a-fA-F]{6})\b/, (_, k: string, c: string) => k + readable(c, CODE_BACKGROUNDS.dark, 'white'));
}

let highlighter: Promise<HighlighterGeneric<'go', 'github-light' | 'github-dark'>> | undefined;

function getHighlighter() {
  highlighter ??= createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: ['go'] });
  return highlighter;
}

/** Shiki writes HTML attribute names (`class`, `tabindex`); hast tools expect property names. */
function normalizeProperties(node: Element): void {
  const { class: cls, tabindex, ...rest } = node.properties as Record<string, unknown>;
  node.properties = rest as Element['properties'];
  if (typeof cls === 'string') node.properties.className = cls.split(/\s+/).filter(Boolean);
  if (tabindex !== undefined) node.properties.tabIndex = Number(tabindex);
  if (node.tagName === 'span' && typeof node.properties.style === 'string') node.properties.style = readableStyle(node.properties.style);
  for (const child of node.children) if (child.type === 'element') normalizeProperties(child);
}

/** Highlight Go; returns the `<pre>` element, whose `<code>` holds one `span.line` per source line. */
export async function highlightGo(code: string): Promise<Element> {
  const hl = await getHighlighter();
  const root = hl.codeToHast(code, { lang: 'go', themes: THEMES, defaultColor: false }) as Root;
  const pre = root.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre');
  if (!pre) throw new Error('podlife: shiki returned no <pre> for a Go excerpt');
  normalizeProperties(pre);
  return pre;
}
