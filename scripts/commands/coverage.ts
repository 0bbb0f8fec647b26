// `podlife coverage`: which quoted steps of the book the shipped scenarios exercise.
import { getSourceIndex } from '../../src/excerpts/source-index.ts';
import { stepsExercised } from '../../src/pipeline/checks.ts';
import { UsageError } from '../errors.ts';

export const summary = 'table of the quoted code steps and the scenarios that exercise them';

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log('Usage: podlife coverage [--lang zh|en]\n\nPrints every step quoted in the book and the scenarios whose trace reaches it; lists uncovered steps.');
    return 0;
  }
  const lang = args.includes('--lang') ? args[args.indexOf('--lang') + 1] : 'en';
  if (lang !== 'en' && lang !== 'zh') throw new UsageError(`coverage: --lang must be en or zh, not ${lang === undefined ? 'nothing' : JSON.stringify(lang)}`);
  const index = await getSourceIndex();
  const used = stepsExercised();
  const steps = index.steps(lang);
  const rows = steps.map((s) => ({ key: s.key, where: `${s.chapter.url}#${s.anchor}`, scenarios: [...(used.get(s.key) ?? [])].sort() }));
  const w1 = Math.max(4, ...rows.map((r) => r.key.length));
  const w2 = Math.max(6, ...rows.map((r) => r.where.length));
  const line = (a: string, b: string, c: string) => `${a.padEnd(w1)}  ${b.padEnd(w2)}  ${c}`;
  console.log(line('STEP', 'QUOTED', 'SCENARIOS'));
  for (const r of rows) console.log(line(r.key, r.where, r.scenarios.length ? r.scenarios.join(', ') : '(uncovered)'));
  const uncovered = rows.filter((r) => r.scenarios.length === 0);
  const unquoted = [...used.keys()].filter((k) => !steps.some((s) => s.key === k)).sort();
  console.log(`\n${rows.length - uncovered.length}/${rows.length} quoted steps exercised by at least one scenario.`);
  if (uncovered.length) console.log(`Uncovered: ${uncovered.map((r) => r.key).join(', ')}`);
  if (unquoted.length) console.log(`Emitted by the simulation but not quoted (${lang}): ${unquoted.join(', ')}`);
  return 0;
}
