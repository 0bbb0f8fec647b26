// Contributor skeletons: a new chapter (zh + en) and a new scenario work as they are.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../../helpers/project.ts';

describe('podlife new', () => {
  it('creates a chapter in both languages that builds, after the existing ones', () => {
    const project = makeProject({}, { book: true, scenarios: 'all' });
    const last = Math.max(...[...readFileSync(join(project.dir, 'content/chapters/en/overview.md'), 'utf8').matchAll(/^order: (\d+)$/gm)].map((m) => Number(m[1])), 0);
    const made = project.podlife(['new', 'chapter', 'image-pulls', '--title', 'Image pulls']);
    expect(made.code, made.output).toBe(0);
    for (const lang of ['zh', 'en']) {
      const text = readFileSync(join(project.dir, 'content/chapters', lang, 'image-pulls.md'), 'utf8');
      const order = Number(/^order: (\d+)$/m.exec(text)![1]);
      expect(order).toBeGreaterThan(last);
    }
    const again = project.podlife(['new', 'chapter', 'image-pulls']);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain('already exist');
    const build = project.podlife(['build']);
    expect(build.code, build.output).toBe(0);
    const html = readFileSync(join(project.dir, 'dist/en/image-pulls/index.html'), 'utf8');
    expect(html).toContain('Image pulls');
    expect(html).toContain('output-sim'); // the skeleton's console block was filled by the simulation
    expect(existsSync(join(project.dir, 'dist/zh/image-pulls/index.html'))).toBe(true);
  }, 240_000);

  it('creates a scenario that runs', () => {
    const project = makeProject({});
    const made = project.podlife(['new', 'scenario', 'my-test']);
    expect(made.code, made.output).toBe(0);
    const run = project.podlife(['simulate', 'my-test']);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toContain('$ kubectl run my-test-pod');
    expect(run.stdout).toMatch(/my-test-pod\s+1\/1\s+Running/);
    // the skeleton's commented titles: line, filled in and uncommented, is a valid scenario
    const file = join(project.dir, 'content/scenarios/my-test.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# titles: \{zh: "…"\}/m);
    writeFileSync(file, text.replace(/^# titles: \{zh: "…"\}/m, 'titles: {zh: "我的测试"}'));
    const again = project.podlife(['simulate', 'my-test']);
    expect(again.code, again.output).toBe(0);
  });

  it('refuses bad names with the usage', () => {
    const project = makeProject({});
    const bad = project.podlife(['new', 'scenario', 'My Test']);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('lowercase letters, digits and dashes');
  });
});
