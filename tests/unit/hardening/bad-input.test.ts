// The bad-input corpus (tests/fixtures/bad/<case>/): each broken input goes through the real build or
// the real CLI, which must exit non-zero, name the file and the line, say what to do, and show no
// stack trace.
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chapter, makeProject } from '../../helpers/project.ts';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/bad');

interface Expected {
  command: 'build' | 'simulate';
  file: string;
  line: number;
  message: string;
  fix: string;
}

const cases = readdirSync(CORPUS).sort().map((name) => ({ name, expected: parse(readFileSync(join(CORPUS, name, 'expected.yaml'), 'utf8')) as Expected }));

describe('bad input gets a clear error', () => {
  it('the corpus has at least 20 kinds of broken input', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)('$name', ({ name, expected }) => {
    const project = makeProject(
      {
        'en/intro.md': chapter({ title: 'Intro', description: 'The first chapter.', order: 1 }),
        'zh/intro.md': chapter({ title: '导论', description: '第一章。', order: 1 }),
      },
      { scenarios: ['nginx'] },
    );
    cpSync(join(CORPUS, name, 'files'), project.dir, { recursive: true });
    const result = project.podlife(expected.command === 'build' ? ['build'] : ['simulate', 'bad']);
    const out = result.output;
    expect(result.code, out).not.toBe(0);
    expect(out).toContain(`${expected.file}:${expected.line}`);
    expect(out).toMatch(new RegExp(expected.message));
    expect(out).toMatch(new RegExp(expected.fix));
    expect(out).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
    expect(out).not.toMatch(/Stack trace:/);
  }, 120_000);
});
