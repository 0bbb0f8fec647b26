// `podlife check [dir]`: check the built site's links, anchors, permalinks, titles and languages.
import { existsSync } from 'node:fs';
import { checkDist } from '../../src/pipeline/check-dist.ts';

export const summary = 'check the built site (dist/): links, #anchors, permalinks, titles, languages';

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('Usage: podlife check [dir]\n\nChecks every page of a built site (default dist/): internal links and #anchors resolve, assets exist,\nexcerpt permalinks have the pinned form, and every page has a title, a language and content.');
    return 0;
  }
  const dir = args.find((a) => !a.startsWith('-')) ?? 'dist';
  if (!existsSync(dir)) {
    console.error(`podlife check: ${dir}/ does not exist. Build the site first: npm run build`);
    return 2;
  }
  const problems = checkDist(dir);
  for (const p of problems) console.error(`${p.page}: ${p.message}`);
  if (problems.length > 0) {
    console.error(`\npodlife check: ${problems.length} problem(s) in ${dir}/.`);
    return 1;
  }
  console.log(`podlife check: ${dir}/ is consistent (links, anchors, permalinks, titles, languages).`);
  return 0;
}
