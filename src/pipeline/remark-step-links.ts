// remark: `[step 4](step:SyncPod#4)` links to that step wherever the book quotes it, in the page's
// language (an anchor on the same page, else the other chapter's URL). An unknown key fails the build.
import type { Link, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { SourceProblem } from '../excerpts/errors.ts';
import { getSourceIndex } from '../excerpts/source-index.ts';
import { type ExcerptPipelineOptions, chapterForFile, failWith } from './excerpt-context.ts';

const SCHEME = 'step:';

export default function remarkStepLinks(options: ExcerptPipelineOptions = {}) {
  return async function transform(tree: Root, file: VFile): Promise<void> {
    const links: Link[] = [];
    visit(tree, 'link', (node: Link) => {
      if (node.url.startsWith(SCHEME)) links.push(node);
    });
    if (!links.length) return;
    const chapter = chapterForFile(file, options);
    const index = await getSourceIndex(options);
    for (const link of links) {
      const key = decodeURIComponent(link.url.slice(SCHEME.length));
      const line = link.position?.start.line;
      if (!chapter) {
        failWith(
          file,
          new SourceProblem(`step link "${link.url}" outside a chapter`, 'step links work in content/chapters/<lang>/<slug>.md', String(file.path), line),
          link,
          'podlife:step-link',
        );
      }
      const step = index.step(key, chapter!.lang);
      if (!step) {
        const func = key.split('#')[0];
        const known = index.steps(chapter!.lang).filter((s) => s.key.split('#')[0] === func).map((s) => s.key);
        const hint = known.length
          ? `${func} has steps ${known.join(', ')} in the ${chapter!.lang} chapters; link to one of them`
          : !/^[A-Za-z_]\w*#\d+$/.test(key)
            ? 'write the key as <Func>#<n>, e.g. [step 4](step:SyncPod#4)'
            : `no ${chapter!.lang} chapter quotes ${func} with numbered steps; quote it (with \`// Step N:\` or \`// N.\` comments) or fix the name`;
        failWith(
          file,
          new SourceProblem(`unknown step key "${key}" in the link [${link.children.map((c) => ('value' in c ? c.value : '')).join('')}](${link.url})`, hint, chapter!.file, line, link.position?.start.column),
          link,
          'podlife:step-link',
        );
      }
      link.url = step.chapter.url === chapter!.url ? `#${step.anchor}` : step.href;
      link.title ??= step.text;
      link.data = { ...link.data, hProperties: { ...(link.data?.hProperties ?? {}), className: ['step-ref'], dataStepKey: step.key } };
    }
  };
}
