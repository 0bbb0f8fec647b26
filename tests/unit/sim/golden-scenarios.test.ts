// Golden transcripts: every shipped scenario's `podlife simulate` output, byte for byte, in
// tests/golden/<scenario>.txt. Each golden was reviewed against the article and the reference facts
// (see golden-article.test.ts for the lines that must read exactly as on the article's cluster).
//
//   npx vitest run tests/unit/sim/golden              compare
//   UPDATE_GOLDEN=1 npx vitest run tests/unit/sim/golden    regenerate (or: npx vitest run tests/unit/sim/golden --update)
//
// Review the diff of a regenerated golden before committing it: it is what readers will see.

import { existsSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioNames, transcriptOf } from './scenarios.ts';

const names = scenarioNames();

describe('golden transcripts', () => {
  it('covers every scenario the issue asks for', () => {
    expect(names).toEqual(expect.arrayContaining([
      'crash-loop', 'delete', 'image-pull-error', 'init-containers', 'nginx', 'nginx-test', 'poststart-failure',
      'prestop-grace', 'restart-policies', 'scheduled-pending', 'stuck-finalizer', 'unschedulable',
    ]));
  });
  it.each(names)('%s', async (name) => {
    const transcript = transcriptOf(name);
    const golden = `../../golden/${name}.txt`;
    if (process.env.UPDATE_GOLDEN) writeFileSync(`tests/golden/${name}.txt`, transcript);
    // a new scenario's golden is written on purpose, and reviewed: never as a side effect of a test run
    else if (!existsSync(`tests/golden/${name}.txt`)) expect.fail(`no golden for scenario ${name}: write it with UPDATE_GOLDEN=1 npx vitest run tests/unit/sim/golden, then review tests/golden/${name}.txt`);
    else await expect(transcript).toMatchFileSnapshot(golden);
  });
  it('same scenario and seed give the same bytes; another seed gives other IDs', () => {
    expect(transcriptOf('nginx-test')).toBe(transcriptOf('nginx-test'));
    expect(transcriptOf('nginx-test', 2)).not.toBe(transcriptOf('nginx-test'));
  });
});
