// The built site as a whole: links, anchors (step links included), permalinks, titles, languages.
import { expect, test } from '@playwright/test';
import { checkDist } from '../../src/pipeline/check-dist.ts';

test('every internal link and #anchor of dist/ resolves; permalinks are pinned; pages have a title and a language', () => {
  const problems = checkDist('dist').map((p) => `${p.page}: ${p.message}`);
  expect(problems).toEqual([]);
});

// The page-weight budgets of issues 4 and 6, on the build the other tests open (kB = 1,000 bytes, as the
// benchmark counts): reading needs no script beyond the page's small one, and the player's first load, the engine
// included, stays within its budget. A module the console alone needs, imported by the first load, fails here.
test('the JavaScript before interaction and the simulation island stay within their budgets', async () => {
  const { pageWeights } = await import('../../scripts/bench/page.ts');
  const { pages, islandGz, islandFiles } = pageWeights('dist');
  expect(pages.filter((p) => p.hasPlayer).length).toBeGreaterThan(0);
  expect(islandFiles.length).toBeGreaterThan(0);
  expect(Math.max(...pages.map((p) => p.jsGz))).toBeLessThanOrEqual(10_000);
  expect(islandGz, `the island (${islandFiles.join(', ')})`).toBeLessThanOrEqual(60_000);
});
