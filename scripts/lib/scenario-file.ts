// A scenario named on the command line: a file path, or a name in content/scenarios/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.ts';

export const SCENARIO_DIR = 'content/scenarios';

/** The file a scenario argument names; a UsageError listing the known names when there is none. */
export function resolveScenario(arg: string): string {
  const hint = knownHint();
  if (existsSync(arg)) {
    if (statSync(arg).isDirectory()) throw Object.assign(new UsageError(`${arg} is a directory: give a scenario file (.yaml) or a scenario name`), { hint });
    return arg;
  }
  // a path (it has a directory or an extension) is a file that is missing; a bare word is a name
  if (arg.includes('/') || arg.includes(path.sep) || /\.ya?ml$/.test(arg)) {
    throw Object.assign(new UsageError(`no such file: ${arg}`), { hint });
  }
  const named = path.join(SCENARIO_DIR, `${arg}.yaml`);
  if (existsSync(named)) return named;
  throw Object.assign(new UsageError(`no scenario ${JSON.stringify(arg)}: no ${named}`), { hint });
}

/** "known scenarios: a, b, c", or undefined outside a project. */
export function knownHint(): string | undefined {
  const known = existsSync(SCENARIO_DIR)
    ? readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort()
    : [];
  return known.length > 0 ? `known scenarios: ${known.join(', ')}` : undefined;
}
