// Messages of a trace-generated sequence diagram link to the excerpt step that produced them. Runs after
// rehype-diagrams: the n-th message text of the SVG is the n-th message of the generated source.
import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

function hasClass(node: Element, name: string): boolean {
  const cls = node.properties.className;
  return Array.isArray(cls) ? cls.includes(name) : String(cls ?? '').split(/\s+/).includes(name);
}

export default function rehypeTraceLinks() {
  return (tree: Root) => {
    visit(tree, 'element', (node) => {
      if (!hasClass(node, 'trace-diagram') || typeof node.properties.dataStepLinks !== 'string') return;
      const links = JSON.parse(node.properties.dataStepLinks) as (string | null)[];
      delete node.properties.dataStepLinks;
      const texts: { text: Element; parent: Element; index: number }[] = [];
      visit(node, 'element', (child, index, parent) => {
        if (child.tagName === 'text' && hasClass(child, 'messageText') && parent && index !== undefined) {
          texts.push({ text: child, parent: parent as Element, index });
        }
      });
      texts.forEach(({ text, parent }, i) => {
        const href = links[i];
        if (!href) return;
        const at = parent.children.indexOf(text);
        parent.children[at] = { type: 'element', tagName: 'a', properties: { href, className: ['trace-step-link'] }, children: [text] };
      });
      return 'skip';
    });
  };
}
