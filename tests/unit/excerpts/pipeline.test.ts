// The unified plugins as the site runs them (remark → remark-rehype → rehype): a chapter renders with
// its excerpts and step links, and each kind of bad input fails with the chapter file, the line, what is
// wrong and how to fix it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { describe, expect, it } from 'vitest';
import rehypeGoExcerpts from '../../../src/pipeline/rehype-go-excerpts.ts';
import remarkGoExcerpts from '../../../src/pipeline/remark-go-excerpts.ts';
import remarkStepLinks from '../../../src/pipeline/remark-step-links.ts';
import { FIXTURE_BOOK, copyBook, edit } from './helpers.ts';

async function renderChapter(root: string, file: string): Promise<string> {
  const processor = unified()
    .use(remarkParse)
    .use(remarkGoExcerpts, { root })
    .use(remarkStepLinks, { root })
    .use(remarkRehype)
    .use(rehypeGoExcerpts)
    .use(rehypeStringify);
  const full = path.join(root, file);
  return String(await processor.process(new VFile({ path: full, value: readFileSync(full, 'utf8') })));
}

async function failure(root: string, file: string): Promise<Error> {
  try {
    await renderChapter(root, file);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${file} rendered without an error`);
}

describe('a chapter through the pipeline', () => {
  it('renders its excerpts and resolves step links in its own language', async () => {
    const html = await renderChapter(FIXTURE_BOOK, 'content/chapters/en/elided.md');
    expect(html).toContain('<figure class="excerpt" id="excerpt-syncpod" data-excerpt="SyncPod" data-verified="true">');
    expect(html).toMatch(/<span class="line" data-line="34">/);
    expect(html).toContain('<a href="#syncpod-3" title="Start the containers." class="step-ref" data-step-key="SyncPod#3">Step 3</a>');
    // a call to a function quoted in another chapter links there
    expect(html).toContain('<a class="excerpt-call" href="/en/exact/#excerpt-computepodactions"');
    expect(html).not.toContain('data-podlife-excerpt');

    const zh = await renderChapter(FIXTURE_BOOK, 'content/chapters/zh/elided.md');
    expect(zh).toContain('<a href="#syncpod-3"');
    expect(zh).not.toContain('excerpt-call'); // zh quotes no computePodActions or createPodSandbox
  });

  it('links a step quoted in another chapter to that chapter', async () => {
    const html = await renderChapter(FIXTURE_BOOK, 'content/chapters/en/exact.md');
    expect(html).toContain('<a href="/en/elided/#syncpod-2" title="Replace the sandbox when it is gone." class="step-ref" data-step-key="SyncPod#2">step 2 of SyncPod</a>');
  });

  it('leaves Go blocks without a reference to the site\'s ordinary highlighting', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/exact.md', 'The whole of', '```go\nfmt.Println("not an excerpt")\n```\n\nThe whole of');
    const html = await renderChapter(root, 'content/chapters/en/exact.md');
    expect(html).toContain('<pre><code class="language-go">fmt.Println("not an excerpt")');
  });
});

describe('bad input fails the build with file, line, what is wrong and the fix', () => {
  it('a go block with numbered steps but no source reference: it says so, instead of a step link failing elsewhere', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', '// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L58\n', '');
    const err = await failure(root, 'content/chapters/en/numbered.md');
    expect(err.message).toMatch(/this go block has numbered step comments \(line \d+\) but no source reference, so it is not an excerpt: make its first line \/\/ Source: /);
    expect(String(err)).toContain(`${path.join(root, 'content/chapters/en/numbered.md')}:7:`);
  });
  it('a malformed // Source: line', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', '// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L58', '// Source: kuberuntime_manager.go:58');
    const err = await failure(root, 'content/chapters/en/numbered.md');
    expect(err.message).toContain('malformed source reference `// Source: kuberuntime_manager.go:58`');
    expect(err.message).toContain('(content/chapters/en/numbered.md:8)');
    expect(err.message).toContain('Fix: write it as `// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1450`');
    expect(String(err)).toContain(`${path.join(root, 'content/chapters/en/numbered.md')}:8:`);
  });

  it('a path missing from the lock', async () => {
    const root = copyBook();
    edit(root, 'content/sources.lock.json', '"en/exact#computePodActions"', '"en/exact#somethingElse"');
    const err = await failure(root, 'content/chapters/en/exact.md');
    expect(err.message).toMatch(/^pkg\/kubelet\/kuberuntime\/kuberuntime_manager\.go \(computePodActions\) is not in content\/sources\.lock\.json: this excerpt \(en\/exact#computePodActions\) has never been pinned/);
    expect(err.message).toContain('(content/chapters/en/exact.md:10)');
    expect(err.message).toContain('Fix: record it with `npm run sources:verify -- --update`');
  });

  it('a reference that points at another file than the lock pins', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', 'kuberuntime_manager.go L58', 'kuberuntime_backoff.go L58');
    const err = await failure(root, 'content/chapters/en/numbered.md');
    expect(err.message).toContain('the lock pins pkg/kubelet/kuberuntime/kuberuntime_manager.go for this excerpt, but its reference says pkg/kubelet/kuberuntime/kuberuntime_backoff.go');
    expect(err.message).toContain('(content/chapters/en/numbered.md:8)');
  });

  it('two steps with the same number in one function', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', '// 2. Back-off over: count this restart.', '// 1. Back-off over: count this restart.');
    const err = await failure(root, 'content/chapters/en/numbered.md');
    expect(err.message).toContain('step 1 of backOffFor appears twice in this excerpt (code lines 4 and 8)');
    expect(err.message).toContain('(content/chapters/en/numbered.md:15)');
    expect(err.message).toContain('Fix: number each step of backOffFor once');
  });

  it('a step: link to a key that does not exist', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/elided.md', '(step:SyncPod#3)', '(step:SyncPod#7)');
    const err = await failure(root, 'content/chapters/en/elided.md');
    expect(err.message).toContain('unknown step key "SyncPod#7" in the link [Step 3](step:SyncPod#7)');
    expect(err.message).toContain('(content/chapters/en/elided.md:7)');
    expect(err.message).toContain('Fix: SyncPod has steps SyncPod#1, SyncPod#2, SyncPod#3 in the en chapters; link to one of them');
  });

  it('a step: link that is not a key at all', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/elided.md', '(step:SyncPod#3)', '(step:the-sandbox)');
    const err = await failure(root, 'content/chapters/en/elided.md');
    expect(err.message).toContain('Fix: write the key as <Func>#<n>, e.g. [step 4](step:SyncPod#4)');
  });

  it('an excerpt edited since the lock was written, at the edited line', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/exact.md', '\treturn changes\n', '\treturn podActions{}\n');
    const err = await failure(root, 'content/chapters/en/exact.md');
    expect(err.message).toContain('this line is not the one the lock recorded here (the excerpt was edited)');
    expect(err.message).toContain('(content/chapters/en/exact.md:21)');
    expect(err.message).toContain('npm run sources:verify -- --update');
  });

  it('a reference that verification contradicts (upstream moved)', async () => {
    const err = await failure(FIXTURE_BOOK, 'content/chapters/en/moved.md');
    expect(err.message).toContain('verification found createPodSandbox at L12 of pkg/kubelet/kuberuntime/kuberuntime_sandbox.go, but the reference says L10');
    expect(err.message).toContain('Fix: upstream moved: change the reference to L12');
  });

  it('the same step twice on one page', async () => {
    const root = copyBook();
    const chapter = 'content/chapters/en/elided.md';
    const body = readFileSync(path.join(root, chapter), 'utf8');
    const block = body.slice(body.indexOf('```go'), body.lastIndexOf('```') + 3);
    edit(root, chapter, block, `${block}\n\n${block}`);
    const err = await failure(root, chapter);
    expect(err.message).toContain('step SyncPod#1 is quoted twice on this page (lines 12 and 34); its anchor #syncpod-1 must be unique');
    expect(err.message).toContain('Fix: keep the step comment in one excerpt and elide it');
  });
});
