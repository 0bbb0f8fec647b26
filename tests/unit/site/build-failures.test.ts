// Broken chapters fail the build with the file named, and the last good build stays in dist/.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chapter, makeProject } from '../../helpers/project.ts';

const good = {
  'en/intro.md': chapter({ title: 'Intro', description: 'The first chapter.', order: 1 }),
  'zh/intro.md': chapter({ title: '导论', description: '第一章。', order: 1 }),
};

describe('the build refuses broken chapters', () => {
  it('a bad frontmatter field fails naming the file and the field; dist/ keeps the last good build', () => {
    const project = makeProject(good);
    const ok = project.podlife(['build']);
    expect(ok.code, ok.output).toBe(0);
    const built = readFileSync(join(project.dir, 'dist/en/intro/index.html'), 'utf8');

    project.write('content/chapters/en/broken.md', chapter({ title: 'Broken', description: 'x', order: 'two' }));
    const bad = project.podlife(['build']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('content/chapters/en/broken.md');
    expect(bad.output).toMatch(/order/);
    expect(bad.output).not.toMatch(/^\s+at\s/m); // no stack trace
    expect(bad.output).toContain('still holds the last good build');
    expect(readFileSync(join(project.dir, 'dist/en/intro/index.html'), 'utf8')).toBe(built);
    expect(existsSync(join(project.dir, 'dist/en/broken'))).toBe(false);
  }, 240_000);

  it('a mermaid syntax error fails naming the chapter file and the diagram line', () => {
    const project = makeProject({
      ...good,
      'en/diagram.md': chapter({ title: 'Diagram', description: 'Has a broken diagram.', order: 2 }, 'Intro.\n\n```mermaid\nflowchart LR\n  A --> --> B\n```\n'),
    });
    const bad = project.podlife(['build']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('content/chapters/en/diagram.md');
    expect(bad.output).toMatch(/Mermaid syntax error in the diagram that starts at line 9 \(at line 11\)/);
    expect(bad.output).not.toMatch(/^\s+at\s/m);
  }, 240_000);

  it('an unknown language folder fails naming the file and the languages allowed', () => {
    const project = makeProject({ ...good, 'fr/intro.md': chapter({ title: 'Intro', description: 'x', order: 1 }) });
    const bad = project.podlife(['build']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('content/chapters/fr/intro.md');
    expect(bad.output).toContain('zh, en');
  }, 240_000);

  it('a chapter in one language only builds, with a warning naming the file that is missing', () => {
    const project = makeProject({ ...good, 'en/only.md': chapter({ title: 'Only', description: 'In English only.', order: 2 }) });
    const r = project.podlife(['build']);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('content/chapters/en/only.md has no content/chapters/zh/only.md, so the zh book goes without this chapter');
    expect(existsSync(join(project.dir, 'dist/en/only/index.html'))).toBe(true);
  }, 240_000);

  it('two chapters with the same order fail naming both files', () => {
    const project = makeProject({ ...good, 'en/second.md': chapter({ title: 'Second', description: 'x', order: 1 }) });
    const bad = project.podlife(['build']);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/content\/chapters\/en\/(second|intro)\.md:\d+: frontmatter field "order" is 1, the same as in content\/chapters\/en\/(intro|second)\.md/);
  }, 240_000);
});
