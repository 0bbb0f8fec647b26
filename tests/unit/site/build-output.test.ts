import { describe, expect, it } from 'vitest';
import { readableOutput } from '../../../scripts/commands/build';

// Astro's error report as it prints it, plain (no terminal) and coloured (a terminal or FORCE_COLOR,
// as on CI machines).
const report = [
  '20:02:11 [ERROR] [podlife] An unhandled error occurred while running the "astro:config:setup" hook',
  'content/chapters/en/bad.md:5: unknown frontmatter field "autor". A chapter has only title, description and order — remove it or fix its spelling.',
  '  Location:',
  '    /tmp/project/src/pipeline/frontmatter-check.ts:48:30',
  '  Stack trace:',
  '    at checkChapters (file:///tmp/project/src/pipeline/frontmatter-check.ts:48:30)',
  '[content/chapters/en/bad.md:5:1: unknown frontmatter field] {',
  "  code: 'X'",
  '}',
  'after the dump',
];
const coloured = [
  '\x1b[31m\x1b[1m20:02:11\x1b[22m [ERROR] [podlife]\x1b[39m An unhandled error occurred while running the \x1b[1m"astro:config:setup"\x1b[22m hook',
  report[1],
  '  \x1b[1mLocation:\x1b[22m',
  '    \x1b[4m/tmp/project/src/pipeline/frontmatter-check.ts:48:30\x1b[24m',
  '  \x1b[1mStack trace:\x1b[22m',
  '\x1b[2m    at checkChapters (file:///tmp/project/src/pipeline/frontmatter-check.ts:48:30)',
  ...report.slice(6),
];

describe('podlife build keeps the message and drops the stack', () => {
  for (const [name, lines] of [['plain', report], ['coloured', coloured]] as const) {
    it(`${name} output`, () => {
      const keep = readableOutput();
      const kept = lines.filter((l) => keep(l)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
      expect(kept).toEqual([
        '20:02:11 [ERROR] [podlife] An unhandled error occurred while running the "astro:config:setup" hook',
        report[1],
        'after the dump',
      ]);
    });
  }
});
