// Tables scroll sideways inside a wrapper that takes keyboard focus and has a name (axe: scrollable-region-focusable),
// as wide diagrams do. The wrapper is always focusable, not only when its table overflows: whether it does depends
// on the reader's viewport, font size and zoom, which the static HTML can't know, and reading needs no JavaScript
// to fix it up afterwards. A tab stop on a table that happens to fit costs one key press; a table that overflows
// and can't be scrolled by keyboard hides its last columns.
import type { Element, ElementContent, Root } from 'hast';
import { visit } from 'unist-util-visit';
import { pageLang, wordsFor } from './labels.ts';
import type { VFile } from 'vfile';

const HEADING = /^h[1-6]$/;

function text(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  return node.children.map(text).join('');
}

/** Already wrapped (by hand in the Markdown, or an earlier run): left as it is. */
function isWrap(node: Root | Element): boolean {
  return node.type === 'element' && Array.isArray(node.properties.className) && node.properties.className.includes('table-wrap');
}

export default function rehypeTables() {
  return (tree: Root, file: VFile) => {
    const words = wordsFor(pageLang(file));
    let heading = '';
    const used = new Map<string, number>();
    visit(tree, 'element', (node, index, parent) => {
      if (HEADING.test(node.tagName)) {
        heading = text(node).replace(/\s+/g, ' ').trim();
        return;
      }
      if (node.tagName !== 'table' || !parent || index === undefined || isWrap(parent)) return;
      const caption = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'caption');
      const base = words.table(caption ? text(caption).replace(/\s+/g, ' ').trim() : heading);
      // Each region is a landmark: two with the same name on a page couldn't be told apart.
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      parent.children[index] = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['table-wrap'], tabIndex: 0, role: 'region', ariaLabel: n > 1 ? words.nth(base, n) : base },
        children: [node],
      };
      return 'skip';
    });
  };
}
