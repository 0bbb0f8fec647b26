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
      // Astro's wrapper line goes too: the message that follows names the file and line
      expect(kept).toEqual([report[1], 'after the dump']);
    });
  }
  it('drops the bundler\'s boxed warning about Astro\'s own head-inject directive, and keeps other warnings', () => {
    const box = [
      '13:24:45 [WARN] [vite] \x1b[33m[MODULE_LEVEL_DIRECTIVE] \x1b[0mThe semantics of the module level directive "use astro:head-inject" in "content/chapters/en/overview.md?astroPropagatedAssets" may not be preserved when bundling.',
      '   ╭─[ content/chapters/en/overview.md?astroPropagatedAssets:2:6 ]',
      '   │',
      ' 2 │               "use astro:head-inject";',
      '   │                           ╰───────────── module level directive may not be preserved',
      '   │ Help: For more information, see https://rolldown.rs/in-depth/directives#other-directives',
      '\x1b[38;5;246m───╯\x1b[0m',
      '',
      '13:24:46 [WARN] [vite] something a contributor should see',
    ];
    const keep = readableOutput();
    expect(box.filter((l) => keep(l))).toEqual(['', '13:24:46 [WARN] [vite] something a contributor should see']);
  });
});
