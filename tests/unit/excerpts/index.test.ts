// The source index over all chapters: keys to chapter URLs and anchors per language, upstream lines
// from the lock, the functions quoted (for call links), missing keys, problems, and rebuilding on edits.
import { describe, expect, it } from 'vitest';
import { buildSourceIndex, getSourceIndex } from '../../../src/excerpts/source-index.ts';
import { FIXTURE_BOOK, copyBook, edit } from './helpers.ts';

describe('the source index of the fixture book', () => {
  it('maps each step key to its chapter, anchor, upstream path and line, per language', async () => {
    const index = await buildSourceIndex({ root: FIXTURE_BOOK });
    expect(index.languages).toEqual(['en', 'zh']);
    const step = index.step('SyncPod#3', 'en')!;
    expect(step).toMatchObject({
      key: 'SyncPod#3',
      n: 3,
      text: 'Start the containers.',
      anchor: 'syncpod-3',
      href: '/en/elided/#syncpod-3',
      path: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go',
      line: 50, // the fixture lock is verified for this excerpt
      excerptId: 'en/elided#SyncPod',
    });
    expect(step.chapter).toMatchObject({ file: 'content/chapters/en/elided.md', lang: 'en', slug: 'elided', url: '/en/elided/' });
    expect(index.step('SyncPod#3', 'zh')!.href).toBe('/zh/elided/#syncpod-3');
    expect(index.step('SyncPod#3', 'fr')).toBeUndefined();
  });

  it("gives an author's step the line of the upstream code it annotates", async () => {
    const index = await buildSourceIndex({ root: FIXTURE_BOOK });
    expect(index.step('backOffFor#1', 'en')).toMatchObject({ line: 60, anchor: 'backofffor-1' });
    expect(index.step('backOffFor#2', 'en')!.line).toBe(63);
  });

  it('lists steps in book order and knows which functions are quoted where', async () => {
    const index = await buildSourceIndex({ root: FIXTURE_BOOK });
    expect(index.steps('en').map((s) => s.key)).toEqual([
      'SyncPod#1', 'SyncPod#2', 'SyncPod#3', 'backOffFor#1', 'backOffFor#2', 'killContainer#1', 'killContainer#2',
    ]);
    expect(index.excerptOf('createPodSandbox', 'en')).toMatchObject({ href: '/en/moved/#excerpt-createpodsandbox', anchor: 'excerpt-createpodsandbox' });
    expect(index.excerptOf('createPodSandbox', 'zh')).toBeUndefined();
  });

  it('reports the keys a language does not quote', async () => {
    const index = await buildSourceIndex({ root: FIXTURE_BOOK });
    expect(index.missing(['SyncPod#1', 'SyncPod#9', 'backOffFor#1'])).toEqual([
      { key: 'SyncPod#9', lang: 'en' },
      { key: 'SyncPod#9', lang: 'zh' },
      { key: 'backOffFor#1', lang: 'zh' },
    ]);
    expect(index.missing(['backOffFor#1'], 'en')).toEqual([]);
  });

  it('keeps the problems of each chapter: a verified entry the reference contradicts, nothing else', async () => {
    const index = await buildSourceIndex({ root: FIXTURE_BOOK });
    expect(index.problems.map((p) => `${p.file}:${p.line}`)).toEqual(['content/chapters/en/moved.md:8']);
    expect(index.problems[0].message).toMatch(/verification found createPodSandbox at L12/);
    expect(index.excerpts.find((e) => e.id === 'en/moved#createPodSandbox')!.pin).toBeUndefined();
    expect(index.excerpts.find((e) => e.id === 'en/exact#computePodActions')!.pin).toMatchObject({ verified: true });
  });

  it('keeps a broken chapter from hiding the others, and names it', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', 'L58', 'line 58');
    const index = await buildSourceIndex({ root });
    expect(index.problems.map((p) => `${p.file}:${p.line}`)).toContain('content/chapters/en/numbered.md:8');
    expect(index.step('backOffFor#1', 'en')).toBeUndefined();
    expect(index.step('SyncPod#1', 'en')).toBeDefined();
  });

  it('prefixes URLs with the site base', async () => {
    const index = await buildSourceIndex({ root: FIXTURE_BOOK, base: '/docs' });
    expect(index.step('SyncPod#1', 'en')!.href).toBe('/docs/en/elided/#syncpod-1');
  });

  it('is built once, and rebuilt when a chapter changes', async () => {
    const root = copyBook();
    const first = await getSourceIndex({ root });
    expect(await getSourceIndex({ root })).toBe(first);
    edit(root, 'content/chapters/en/elided.md', '// Step 3: Start the containers.', '// Step 3: Start every container.');
    const second = await getSourceIndex({ root });
    expect(second).not.toBe(first);
    expect(second.step('SyncPod#3', 'en')!.text).toBe('Start every container.');
  });
});
