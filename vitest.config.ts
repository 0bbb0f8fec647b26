import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (they build the site, run the real kubectl hundreds of times, or fuzz 10,000
 * scenarios), longest first, as a CI run on a fresh clone measured them at stop 28 (191, 126, 105, 88, 79, 67, 52,
 * 47 and 46 s). Without a results cache, as in CI, vitest orders files by size, and these small files started last:
 * the suite ended with one worker still building broken sites while the other had nothing left to run.
 */
const LONGEST_FIRST = [
  'hardening/bad-input', 'server/timelines', 'server/get-forms', 'site/build-failures', 'hardening/reproducible',
  'server/mutations', 'hardening/fuzz-a', 'hardening/fuzz-b', 'site/new',
].map((name) => `/tests/unit/${name}.test.ts`);

/** vitest's order (its cached durations where it has them, else file sizes), with the longest files first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((suffix) => f.moduleId.endsWith(suffix));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    // every object the engine records is deep-frozen, so a write into the past throws where it happens
    setupFiles: ['tests/unit/setup/frozen-history.ts'],
    testTimeout: 60_000,
    // vitest's default is one worker per core but one: on the 2-core machines this project runs on, one worker,
    // and the files ran one after the other while most of them wait on a child process (a real build, kubectl,
    // Chromium). Two workers took the suite from 606 s to 446 s there, with every test's time well inside its limit.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
  },
});
