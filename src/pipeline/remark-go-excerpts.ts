// remark: Go code blocks that carry a source reference become excerpts. Each is parsed with the Go
// grammar, pinned to its lock entry and checked (bad references, unpinned or edited excerpts, repeated
// steps fail the build at the chapter's line); the block is replaced by a placeholder that
// rehypeGoExcerpts renders after Shiki has run (Shiki would otherwise re-highlight the result).
import type { Code, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { ExcerptError, SourceProblem, locate } from '../excerpts/errors.ts';
import type { LockEntry } from '../excerpts/lock.ts';
import { type Excerpt, excerptAnchor } from '../excerpts/model.ts';
import { isExcerptBlock, parseExcerpt } from '../excerpts/parse.ts';
import { pinExcerpt } from '../excerpts/pin.ts';
import { readStepComment } from '../excerpts/step-comments.ts';
import { failAt } from './fail.ts';
import { getSourceIndex } from '../excerpts/source-index.ts';
import { EXCERPT_PLACEHOLDER, type ExcerptJob, type ExcerptPipelineOptions, chapterForFile, failWith } from './excerpt-context.ts';

export default function remarkGoExcerpts(options: ExcerptPipelineOptions = {}) {
  return async function transform(tree: Root, file: VFile): Promise<void> {
    const chapter = chapterForFile(file, options);
    if (!chapter) return;
    const found: { node: Code; index: number; parent: { children: unknown[] } }[] = [];
    visit(tree, 'code', (node: Code, index, parent) => {
      if (parent && index !== undefined && isExcerptBlock(node.lang, node.value, node.meta)) {
        found.push({ node, index, parent: parent as { children: unknown[] } });
      } else if (node.lang === 'go') {
        // numbered steps mean an excerpt was meant: without its reference the block would be plain code, and
        // the step links to it would fail far from the cause
        const at = node.value.split('\n').findIndex((line) => /^\s*\/\//.test(line) && readStepComment(line.trim()));
        if (at >= 0) {
          failAt(file, `this go block has numbered step comments (line ${(node.position?.start.line ?? 0) + 1 + at}) but no source reference, so it is not an excerpt: make its first line // Source: <path in kubernetes/kubernetes> L<line of the func>, or add source="<path>#L<line>" to the fence.`, node.position, 'podlife:excerpt');
        }
      }
    });
    if (!found.length) return;

    const index = await getSourceIndex(options);
    const lock = index.lock;
    if (!lock) {
      const problem = index.problems.find((p) => p.file === index.lockFile);
      failWith(file, problem ?? new SourceProblem('the source lock could not be read', 'run `npm run sources:verify -- --update`', index.lockFile), found[0].node, 'podlife:excerpt-lock');
    }

    const jobs = new Map<string, ExcerptJob>();
    const names = new Map<string, number>();
    const anchors = new Map<string, number>();
    for (const { node, index: at, parent } of found) {
      const fenceLine = node.position?.start.line ?? 1;
      let excerpt: Excerpt | undefined;
      try {
        excerpt = await parseExcerpt(node.value, { meta: node.meta });
      } catch (err) {
        if (err instanceof ExcerptError) {
          failWith(file, locate(err, chapter.file, fenceLine + 1, (node.position?.start.column ?? 1) - 1), node, 'podlife:excerpt');
        }
        throw err;
      }
      if (!excerpt) continue;
      const count = (names.get(excerpt.decl.name) ?? 0) + 1;
      names.set(excerpt.decl.name, count);
      const id = `${chapter.lang}/${chapter.slug}#${excerpt.decl.name}${count > 1 ? `~${count}` : ''}`;
      const anchor = excerptAnchor(excerpt.decl.name) + (count > 1 ? `-${count}` : '');

      for (const step of excerpt.steps) {
        const line = fenceLine + 1 + excerpt.offset + step.line;
        const first = anchors.get(step.anchor);
        if (first !== undefined) {
          failWith(
            file,
            new SourceProblem(
              `step ${step.key} is quoted twice on this page (lines ${first} and ${line}); its anchor #${step.anchor} must be unique`,
              `keep the step comment in one excerpt and elide it (\`// ...\`) in the other`,
              chapter.file,
              line,
            ),
            node,
            'podlife:excerpt-step',
          );
        }
        anchors.set(step.anchor, line);
      }

      const pinned = pinExcerpt({ id, excerpt, file: chapter.file, firstCodeLine: fenceLine + 1 }, lock!, index.lockFile);
      if (pinned instanceof SourceProblem) failWith(file, pinned, node, 'podlife:excerpt-lock');

      const calls: Record<string, string> = {};
      for (const call of excerpt.calls) {
        const target = index.excerptOf(call.name, chapter.lang);
        if (!target || target.name === excerpt.decl.name) continue;
        calls[call.name] = target.chapter.url === chapter.url ? `#${target.anchor}` : target.href;
      }
      jobs.set(id, { excerpt, pin: pinned as LockEntry, lang: chapter.lang, anchor, upstream: lock!.upstream, calls });
      parent.children[at] = {
        type: 'goExcerpt',
        data: { hName: 'div', hProperties: { [EXCERPT_PLACEHOLDER]: id } },
        position: node.position,
      };
    }
    file.data.podlifeExcerpts = jobs;
  };
}
