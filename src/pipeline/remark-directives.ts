// The directives chapters use (remark-directive syntax):
//
//   :::simulation{scenario="crash-loop"}     the simulation player (an island), over static outputs
//   :::                                       that readers without JavaScript see
//
//   ::sequence{scenario="nginx-test" until="30s"}   a sequence diagram generated from the scenario's trace
//                                             (from=, until= bound the time; pod= picks the pod)
//
//   :::compare                                 a real cluster's output and the simulation's, together
//   :::
//
// An unknown block directive fails the build with the file and line; text that merely looks like a
// directive (`image:tag`, `sha256:abc`) is put back as the text it was.
import type { Code, Paragraph, Parent, PhrasingContent, Root, RootContent } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { getSourceIndex } from '../excerpts/source-index.ts';
import { parseDuration } from '../sim/index.ts';
import { formatTranscript } from '../sim/run.ts';
import { scenarioTitle } from '../sim/scenario.ts';
import { site } from '../site.ts';
import { failAt } from './fail.ts';
import { pageLang, wordsFor } from './labels.ts';
import { outputFigure, scenarioOrFail } from './remark-console-outputs.ts';
import { unknownAttributes } from './meta.ts';
import { noteReplay, scenarioRun } from './scenarios.ts';
import { sequenceFromTrace } from './trace-diagram.ts';

export interface DirectiveOptions {
  root?: string;
}

const KNOWN = ['simulation', 'sequence', 'compare'];
/** The attributes each directive takes. */
const ATTRIBUTES: Record<string, string[]> = { simulation: ['scenario', 'seed'], sequence: ['scenario', 'seed', 'pod', 'from', 'until'], compare: [] };

/** The phase state diagram the player highlights (states named as the phases are). */
export const PHASE_DIAGRAM = [
  'stateDiagram-v2',
  '  direction LR',
  '  [*] --> Pending',
  '  Pending --> Running',
  '  Pending --> Failed',
  '  Running --> Succeeded',
  '  Running --> Failed',
  '  Succeeded --> [*]',
  '  Failed --> [*]',
].join('\n');

function el(hName: string, hProperties: Record<string, unknown>, children: unknown[]): RootContent {
  return { type: 'podlifeElement', data: { hName, hProperties }, children } as unknown as RootContent;
}

function mermaid(value: string): Code {
  return { type: 'code', lang: 'mermaid', meta: null, value };
}

function text(value: string): PhrasingContent {
  return { type: 'text', value };
}

function attr(node: ContainerDirective | LeafDirective, name: string): string | undefined {
  const v = node.attributes?.[name];
  return v === null || v === undefined ? undefined : String(v);
}

/** Whether the source line `line` (1-based) is a closing fence of colons, as a closed container directive ends. */
function closedAt(file: VFile, line: number | undefined): boolean {
  if (line === undefined) return true;
  const source = String(file.value ?? '');
  if (!source) return true;
  return /^\s*:{3,}\s*$/.test(source.split('\n')[line - 1] ?? '');
}

/** The literal text a text directive was written as (when it was not meant as one). */
function literal(node: TextDirective): string {
  const label = node.children.map((c) => ('value' in c ? c.value : '')).join('');
  const attrs = Object.entries(node.attributes ?? {}).map(([k, v]) => (v ? `${k}="${v}"` : k));
  return `:${node.name}${label ? `[${label}]` : ''}${attrs.length ? `{${attrs.join(' ')}}` : ''}`;
}

/** Where each step key is quoted in this language: `#anchor` on this page, else the chapter's URL and anchor. */
async function stepLinks(keys: string[], lang: string, file: VFile, root?: string): Promise<Record<string, string>> {
  const index = await getSourceIndex({ root });
  const here = file.path ? `/${lang}/${file.path.replace(/\\/g, '/').split('/').pop()!.replace(/\.md$/, '')}/` : '';
  const out: Record<string, string> = {};
  for (const key of keys) {
    const step = index.step(key, lang);
    if (step) out[key] = step.href.startsWith(here) ? `#${step.anchor}` : step.href;
  }
  return out;
}

export default function remarkDirectives(options: DirectiveOptions = {}) {
  return async (tree: Root, file: VFile) => {
    const lang = pageLang(file);
    const words = wordsFor(lang);
    const jobs: (() => Promise<void>)[] = [];

    visit(tree, (node, index, parent) => {
      if (!parent || index === undefined) return;
      if (node.type === 'textDirective') {
        (parent as Parent).children[index] = text(literal(node as TextDirective)) as never;
        return;
      }
      if (node.type !== 'containerDirective' && node.type !== 'leafDirective') return;
      const d = node as ContainerDirective | LeafDirective;
      if (!KNOWN.includes(d.name)) {
        failAt(file, `unknown directive "${d.type === 'containerDirective' ? ':::' : '::'}${d.name}". podlife knows ${KNOWN.map((k) => `"${k}"`).join(', ')} (e.g. :::simulation{scenario="crash-loop"}).`, d.position, 'directive');
      }
      const fence = d.type === 'containerDirective' ? ':::' : '::';
      const unknown = unknownAttributes(Object.keys(d.attributes ?? {}), ATTRIBUTES[d.name], `${fence}${d.name}`);
      if (unknown) failAt(file, `${unknown}.`, d.position, 'directive');
      // a container directive without its closing fence runs to the end of the page, swallowing what follows
      if (d.type === 'containerDirective' && !closedAt(file, d.position?.end.line)) {
        failAt(file, `${fence}${d.name} opened here is never closed: add a line ::: after its content.`, d.position, 'directive');
      }
      const scenarioName = attr(d, 'scenario');
      if (d.name !== 'compare' && !scenarioName) {
        failAt(file, `the ${d.name} directive needs a scenario: write ${d.type === 'containerDirective' ? ':::' : '::'}${d.name}{scenario="<name>"} with a file content/scenarios/<name>.yaml.`, d.position, 'directive');
      }

      if (d.name === 'compare') {
        (parent as Parent).children[index] = el('div', { className: ['output-compare'], role: 'group', ariaLabel: words.compare }, d.children) as never;
        return;
      }

      const loaded = scenarioOrFail(scenarioName!, file, d.position, options.root);
      const seedText = attr(d, 'seed');
      const seed = seedText === undefined ? undefined : Number(seedText);
      const run = scenarioRun(loaded, seed);

      if (d.name === 'simulation') {
        const keys = [...new Set(run.trace.flatMap((e) => (e.key ? [e.key] : [])))].sort();
        const transcript: Code = { type: 'code', lang: 'console', meta: null, value: formatTranscript(run).replace(/\n$/, '') };
        const title = scenarioTitle(loaded.scenario, lang);
        const intro: Paragraph = { type: 'paragraph', children: [text(`${words.simulation} · ${title}`)] };
        const tryIt: Paragraph = {
          type: 'paragraph',
          children: [text(`${words.tryIt} `), { type: 'inlineCode', value: `npx podlife simulate ${loaded.name}` }],
        };
        (parent as Parent).children[index] = el(
          'section',
          {
            className: ['sim-player'],
            dataSimPlayer: '',
            dataScenario: loaded.name,
            dataScenarioSrc: `/_podlife/scenarios/${loaded.name}.yaml`,
            dataScenarioReplay: noteReplay(loaded.name, run.seed),
            dataSeed: String(run.seed),
            dataLang: lang,
            dataTitle: title,
            ariaLabel: `${words.simulation}: ${title}`,
          },
          [
            // Where the player goes, as tall as it will be (site.css, shown only to browsers that run
            // scripts): mounting it does not move the page under the reader.
            el('div', { className: ['sim-slot'], dataSimSlot: '', dataPagefindIgnore: '' }, [el('p', { className: ['sim-loading'], role: 'status' }, [text(words.loading)])]),
            el('div', { className: ['sim-static'], dataSimStatic: '' }, [
              el('p', { className: ['sim-title'] }, intro.children),
              ...d.children,
              // open without the player; the player folds it (the live panels show the same outputs)
              el('details', { className: ['sim-transcript'], open: true }, [
                el('summary', {}, [text(words.transcript)]),
                outputFigure('sim', `${words.simulated(site.kubernetesVersion)} · ${loaded.name}`, transcript),
              ]),
              el('div', { className: ['sim-phases'], dataSimPhases: '', role: 'img', ariaLabel: words.phases }, [mermaid(PHASE_DIAGRAM)]),
              tryIt,
            ]),
          ],
        ) as never;
        const section = (parent as Parent).children[index] as unknown as { data: { hProperties: Record<string, unknown> } };
        jobs.push(async () => {
          section.data.hProperties.dataStepHrefs = JSON.stringify(await stepLinks(keys, lang, file, options.root));
        });
        return;
      }

      // ::sequence
      const time = (name: 'from' | 'until'): number | undefined => {
        const text = attr(d, name);
        if (text === undefined) return undefined;
        try {
          return parseDuration(text);
        } catch (e) {
          failAt(file, `bad ${name}="${text}" on ::sequence: ${e instanceof Error ? e.message : e}. Write a duration such as ${name}="30s".`, d.position, 'directive');
        }
      };
      const from = time('from');
      const until = time('until');
      const untilText = attr(d, 'until');
      const pod = attr(d, 'pod');
      if (pod !== undefined && !run.trace.some((e) => e.object === `pod/default/${pod}`)) {
        const pods = [...new Set(run.trace.flatMap((e) => (e.object.startsWith('pod/default/') ? [e.object.slice('pod/default/'.length)] : [])))];
        failAt(file, `::sequence{pod="${pod}"}: scenario ${loaded.name} has no pod "${pod}" (its pods: ${pods.join(', ') || 'none'}).`, d.position, 'directive');
      }
      const sequence = sequenceFromTrace(run.trace, { from, until, object: pod ? `pod/default/${pod}` : undefined });
      if (sequence.keys.length === 0) {
        failAt(file, `::sequence{scenario="${loaded.name}"} has no events to draw${pod ? ` for pod "${pod}"` : ''}${untilText ? ` before ${untilText}` : ''}. Check the pod name and the until time.`, d.position, 'directive');
      }
      const figure = el('div', { className: ['trace-diagram'], role: 'figure', dataScenario: loaded.name, dataStepKeys: JSON.stringify(sequence.keys) }, [mermaid(sequence.source)]);
      (parent as Parent).children[index] = figure as never;
      jobs.push(async () => {
        const hrefs = await stepLinks(sequence.keys.filter((k): k is string => k !== null), lang, file, options.root);
        const props = (figure as unknown as { data: { hProperties: Record<string, unknown> } }).data.hProperties;
        props.dataStepLinks = JSON.stringify(sequence.keys.map((key) => (key && hrefs[key]) || null));
        props.ariaLabel = words.sequence(loaded.name);
      });
    });
    for (const job of jobs) await job();
  };
}
