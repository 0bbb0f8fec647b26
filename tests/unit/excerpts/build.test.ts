// A real `podlife build` (Astro) of a throwaway project: a bad excerpt fails the build with the chapter
// file, the line, what is wrong and the fix, and no stack trace.
import { describe, expect, it } from 'vitest';
import { chapter, makeProject } from '../../helpers/project.ts';

const excerpt = (source: string) =>
  `Text.\n\n\`\`\`go\n${source}\nfunc (m *kubeGenericRuntimeManager) killPodWithSyncResult(ctx context.Context) {\n\t// 1. kill every container\n\tm.killContainersWithSyncResult(ctx)\n}\n\`\`\`\n`;

describe('the build refuses bad excerpts', () => {
  it('a malformed // Source: line, and an excerpt the lock does not pin', () => {
    const project = makeProject({
      'en/intro.md': chapter({ title: 'Intro', description: 'The first chapter.', order: 1 }, excerpt('// Source: kuberuntime_manager.go:1953')),
      'zh/intro.md': chapter({ title: '导论', description: '第一章。', order: 1 }),
    });
    const bad = project.podlife(['build']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('malformed source reference `// Source: kuberuntime_manager.go:1953`');
    expect(bad.output).toContain('content/chapters/en/intro.md:10');
    expect(bad.output).toContain('Fix: write it as `// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1450`');
    expect(bad.output).not.toMatch(/^\s+at\s/m);

    project.write('content/chapters/en/intro.md', chapter({ title: 'Intro', description: 'The first chapter.', order: 1 }, excerpt('// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1953')));
    const unpinned = project.podlife(['build']);
    expect(unpinned.code).not.toBe(0);
    expect(unpinned.output).toContain('is not in content/sources.lock.json: this excerpt (en/intro#killPodWithSyncResult) has never been pinned');
    expect(unpinned.output).toContain('content/chapters/en/intro.md:10');
    expect(unpinned.output).toContain('npm run sources:verify -- --update');
    expect(unpinned.output).not.toMatch(/^\s+at\s/m);
  }, 240_000);
});
