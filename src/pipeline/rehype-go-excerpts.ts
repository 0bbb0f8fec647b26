// rehype: render the excerpts remarkGoExcerpts checked and left as placeholders. Runs after Shiki, so
// the excerpt's own highlighting (with gutter, steps and links woven in) is final.
import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { renderExcerpt } from '../excerpts/render.ts';
import { EXCERPT_PLACEHOLDER } from './excerpt-context.ts';

export default function rehypeGoExcerpts() {
  return async function transform(tree: Root, file: VFile): Promise<void> {
    const jobs = file.data.podlifeExcerpts;
    if (!jobs?.size) return;
    const found: { node: Element; index: number; parent: { children: unknown[] } }[] = [];
    visit(tree, 'element', (node: Element, index, parent) => {
      if (parent && index !== undefined && typeof node.properties[EXCERPT_PLACEHOLDER] === 'string') {
        found.push({ node, index, parent: parent as { children: unknown[] } });
      }
    });
    for (const { node, index, parent } of found) {
      const id = node.properties[EXCERPT_PLACEHOLDER] as string;
      const job = jobs.get(id);
      if (!job) throw new Error(`podlife: no excerpt ${id} was prepared for ${file.path}`);
      parent.children[index] = await renderExcerpt(job.excerpt, job.pin, {
        lang: job.lang,
        upstream: job.upstream,
        anchor: job.anchor,
        callHref: (name) => job.calls[name],
      });
    }
  };
}
