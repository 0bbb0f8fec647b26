// The built site as a whole: links, anchors (step links included), permalinks, titles, languages.
import { expect, test } from '@playwright/test';
import { checkDist } from '../../src/pipeline/check-dist.ts';

test('every internal link and #anchor of dist/ resolves; permalinks are pinned; pages have a title and a language', () => {
  const problems = checkDist('dist').map((p) => `${p.page}: ${p.message}`);
  expect(problems).toEqual([]);
});
