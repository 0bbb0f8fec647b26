// Build-time checks of the join between simulation and code: every step key a shipped scenario's trace
// carries must be quoted as an excerpt step in every language of the book; and which quoted steps no
// scenario exercises (coverage).
import { getSourceIndex, type SourceIndex } from '../excerpts/source-index.ts';
import { loadScenario, scenarioNames, scenarioRun } from './scenarios.ts';

export interface StepUse {
  key: string;
  scenarios: string[];
}

/** For each step key any scenario's trace carries: the scenarios that exercise it. */
export function stepsExercised(root = process.cwd()): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  for (const name of scenarioNames(root)) {
    for (const event of scenarioRun(loadScenario(name, root)).trace) {
      if (!event.key) continue;
      if (!used.has(event.key)) used.set(event.key, new Set());
      used.get(event.key)!.add(name);
    }
  }
  return used;
}

export class StepKeyError extends Error {}

/** Fail when a trace carries a key that no excerpt quotes (naming the scenario, the event and the key). */
export async function checkTraceKeys(root = process.cwd(), index?: SourceIndex): Promise<void> {
  const idx = index ?? (await getSourceIndex({ root }));
  const problems: string[] = [];
  for (const name of scenarioNames(root)) {
    const loaded = loadScenario(name, root);
    const seen = new Set<string>();
    for (const event of scenarioRun(loaded).trace) {
      if (!event.key || seen.has(event.key)) continue;
      seen.add(event.key);
      const missing = idx.languages.filter((lang) => !idx.step(event.key!, lang));
      if (missing.length > 0) {
        problems.push(
          `${loaded.file}: trace event #${event.seq} (${event.actor} ${event.kind} at ${event.t} ms, ${event.object}) carries step key "${event.key}", ` +
            `which no excerpt in the ${missing.join(' and ')} chapters quotes.`,
        );
      }
    }
  }
  if (problems.length > 0) {
    throw new StepKeyError(
      `${problems.join('\n')}\nFix: quote that step in a chapter's Go excerpt (a "// Step N:" or "// N." comment inside the function), ` +
        'or correct the key the simulation emits (src/sim/steps.ts lists them).',
    );
  }
}
