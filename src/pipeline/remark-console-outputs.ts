// ```console blocks whose outputs come from the simulation, never typed:
//
//   ```console scenario="crash-loop" at="8m23s"
//   $ kubectl get pod crash-test
//   ```
//
// The block holds only commands; the build runs the scenario and writes under each command exactly
// what `podlife simulate` prints for it at that virtual time (without `at`, the time the scenario's
// timeline runs that same command). `real` marks output quoted from a real cluster instead. Each block
// is labelled "real cluster" or "simulated · Kubernetes v1.36.2 model" so readers can compare them.
import type { Code, Parent, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { checkCommandLine } from '../sim/commands/check.ts';
import { shown } from '../sim/commands/shell.ts';
import { DurationError, parseDuration } from '../sim/index.ts';
import { commandAt, formatAt } from '../sim/run.ts';
import { site } from '../site.ts';
import { failAt } from './fail.ts';
import { pageLang, wordsFor } from './labels.ts';
import { parseMeta, unknownAttributes } from './meta.ts';
import { loadScenario, scenarioRun, UnknownScenarioError, type LoadedScenario } from './scenarios.ts';

/** What a console block's meta may hold. */
const CONSOLE_ATTRIBUTES = ['scenario', 'at', 'seed', 'real'];

export interface ConsoleOutputOptions {
  /** Project root (scenarios are read from <root>/content/scenarios). */
  root?: string;
}

/** An mdast node rendered as an element (remark-rehype honours data.hName). */
function element(hName: string, hProperties: Record<string, unknown>, children: unknown[]): Parent {
  return { type: 'podlifeElement', data: { hName, hProperties }, children } as unknown as Parent;
}

export function outputFigure(kind: 'real' | 'sim', caption: string, code: Code, extra: Record<string, unknown> = {}): Parent {
  return element('figure', { className: ['output', `output-${kind}`], ...extra }, [
    element('figcaption', { className: ['output-label'] }, [{ type: 'text', value: caption }]),
    code,
  ]);
}

export function scenarioOrFail(name: string, file: VFile, place: Code['position'], root?: string): LoadedScenario {
  try {
    return loadScenario(name, root);
  } catch (e) {
    if (e instanceof UnknownScenarioError) {
      failAt(file, `${e.message}. Use one of: ${e.available.join(', ')} — or add content/scenarios/${name}.yaml.`, place, 'console-scenario');
    }
    if (e instanceof Error && 'file' in e) {
      const where = e as Error & { file?: string; line?: number; hint?: string };
      failAt(file, `scenario "${name}" does not load: ${where.file}${where.line ? `:${where.line}` : ''}: ${e.message}${where.hint ? ` (${where.hint})` : ''}`, place, 'console-scenario');
    }
    throw e;
  }
}

export default function remarkConsoleOutputs(options: ConsoleOutputOptions = {}) {
  return (tree: Root, file: VFile) => {
    const words = wordsFor(pageLang(file));
    visit(tree, 'code', (node, index, parent) => {
      if (node.lang !== 'console' || !parent || index === undefined) return;
      const meta = parseMeta(node.meta);
      const unknown = unknownAttributes(Object.keys(meta), CONSOLE_ATTRIBUTES, 'a console block');
      if (unknown) failAt(file, `${unknown}. A simulated block is \`\`\`console scenario="<name>" [at="<duration>"] [seed="<n>"]; a quoted one is \`\`\`console real.`, node.position, 'console-meta');
      if (meta.scenario === true || (meta.real !== undefined && meta.real !== true)) {
        failAt(file, meta.scenario === true ? 'scenario on a console block needs a name: scenario="<name>".' : '`real` on a console block takes no value: ```console real.', node.position, 'console-meta');
      }
      if (meta.real === true && meta.scenario !== undefined) failAt(file, 'a console block is either real (quoted from a cluster) or scenario="…" (simulated), not both.', node.position, 'console-meta');
      if (meta.scenario === undefined && (meta.at !== undefined || meta.seed !== undefined)) {
        failAt(file, `${meta.at !== undefined ? 'at' : 'seed'}="…" on a console block needs scenario="<name>": without it the block is plain text and nothing runs.`, node.position, 'console-meta');
      }
      if (meta.real === true) {
        parent.children[index] = outputFigure('real', words.real, node) as never;
        return;
      }
      if (typeof meta.scenario !== 'string') return;
      const fenceLine = node.position?.start.line ?? 0;
      const lineAt = (i: number) => ({ line: fenceLine + 1 + i, column: 1 });
      const loaded = scenarioOrFail(meta.scenario, file, node.position, options.root);
      const seed = typeof meta.seed === 'string' ? Number(meta.seed) : undefined;

      let at: number | undefined;
      if (meta.at !== undefined) {
        try {
          if (meta.at === true) throw new DurationError('at needs a value');
          at = parseDuration(meta.at);
        } catch (e) {
          failAt(file, `bad at="${meta.at === true ? '' : meta.at}" in the console block: ${e instanceof Error ? e.message : e}. Write a duration since the scenario started, such as at="89s" or at="8m23s".`, node.position, 'console-at');
        }
      }

      const lines = node.value.split('\n');
      const run = scenarioRun(loaded, seed);
      const used = new Set<number>();
      const times: string[] = [];
      let out = '';
      lines.forEach((line, i) => {
        if (line.trim() === '') return;
        if (!line.startsWith('$ ')) {
          failAt(file, `a console block with scenario="${meta.scenario}" holds only commands, each on a line starting with "$ "; line ${i + 1} of the block is "${line}". Remove the output: the build writes it from the simulation.`, lineAt(i), 'console-command');
        }
        const command = line.slice(2).trim();
        const problem = checkCommandLine(command);
        if (problem) {
          failAt(file, `the simulation cannot run "${command}": ${problem}. Use a command podlife simulate supports (kubectl, crictl, journalctl, with grep/head/tail/jq pipes).`, lineAt(i), 'console-command');
        }
        let text: string;
        if (at !== undefined) {
          const result = commandAt(loaded.runnable, run, at, command);
          text = shown(result);
          times.push(formatAt(at));
        } else {
          const k = run.steps.findIndex((s, j) => s.command === command && !used.has(j));
          if (k < 0) {
            failAt(file, `"${command}" is not a command of scenario ${meta.scenario}'s timeline (${loaded.file}), so the block has no time to run it at. Add at="<duration>" to the block, or add the command to the timeline.`, lineAt(i), 'console-at');
          }
          used.add(k);
          const step = run.steps[k];
          text = shown(step);
          times.push(formatAt(step.at));
        }
        out += `$ ${command}\n${text}${text === '' || text.endsWith('\n') ? '' : '\n'}`;
      });
      node.value = out.replace(/\n$/, '');
      const uniqueTimes = [...new Set(times)];
      const caption = `${words.simulated(site.kubernetesVersion)} · ${words.scenarioAt(meta.scenario, uniqueTimes.join(', '))}`;
      parent.children[index] = outputFigure('sim', caption, node, { dataScenario: meta.scenario }) as never;
    });
  };
}
