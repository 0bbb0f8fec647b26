// Shiki for Go excerpts, with the site's dual themes (github-light / github-dark as CSS variables).
import type { Element, Root } from 'hast';
import { type HighlighterGeneric, createHighlighter } from 'shiki';

export const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

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
