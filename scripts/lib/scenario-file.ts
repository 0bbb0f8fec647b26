// A scenario named on the command line: a file path, or a name in content/scenarios/.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.ts';

export const SCENARIO_DIR = 'content/scenarios';

/** The file a scenario argument names; a UsageError listing the known names when there is none. */
export function resolveScenario(arg: string): string {
  if (existsSync(arg)) return arg;
  const named = path.join(SCENARIO_DIR, `${arg}.yaml`);
  if (existsSync(named)) return named;
  const known = existsSync(SCENARIO_DIR)
    ? readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort()
    : [];
  throw Object.assign(new UsageError(`no scenario ${JSON.stringify(arg)}: no such file, and no ${named}`), {
    hint: known.length > 0 ? `known scenarios: ${known.join(', ')}` : undefined,
  });
}
