// Console blocks filled from the simulation, directives, trace diagrams — through a real unified pipeline.
import rehypeStringify from 'rehype-stringify';
import remarkDirective from 'remark-directive';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { describe, expect, it } from 'vitest';
import { parseMeta } from '../../../src/pipeline/meta.ts';
import remarkConsoleOutputs from '../../../src/pipeline/remark-console-outputs.ts';
import remarkDirectives from '../../../src/pipeline/remark-directives.ts';
import rehypeTraceLinks from '../../../src/pipeline/rehype-trace-links.ts';
import { loadScenario, scenarioRun } from '../../../src/pipeline/scenarios.ts';
import { sequenceFromTrace } from '../../../src/pipeline/trace-diagram.ts';
import { parseDuration } from '../../../src/sim/index.ts';
import { runCommandAt } from '../../../src/sim/run.ts';

async function render(markdown: string, path = 'content/chapters/en/test.md'): Promise<string> {
  const processor = unified()
    .use(remarkParse)
    .use(remarkDirective)
    .use(remarkConsoleOutputs)
    .use(remarkDirectives)
    .use(remarkRehype)
    .use(rehypeTraceLinks)
    .use(rehypeStringify);
  return String(await processor.process(new VFile({ path, value: markdown })));
}

async function failure(markdown: string): Promise<Error & { line?: number }> {
  return render(markdown).then(
    () => {
      throw new Error('expected the build to fail');
    },
    (e: Error & { line?: number }) => e,
  );
}

const decode = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x3C;/g, '<').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#x22;/g, '"').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&');

describe('parseMeta', () => {
  it('reads quoted, bare and flag values', () => {
    expect(parseMeta('scenario="crash-loop" at=8m23s real seed=\'2\'')).toEqual({ scenario: 'crash-loop', at: '8m23s', real: true, seed: '2' });
    expect(parseMeta(null)).toEqual({});
  });
});

describe('console blocks', () => {
  it('writes under each command exactly what the simulation prints at that time', async () => {
    const html = await render('```console scenario="crash-loop" at="8m23s"\n$ kubectl get pod crash-test\n$ crictl ps -a\n```\n');
    const crash = loadScenario('crash-loop');
    const t = parseDuration('8m23s');
    const first = runCommandAt(crash.runnable, t, 'kubectl get pod crash-test');
    const second = runCommandAt(crash.runnable, t, 'crictl ps -a');
    expect(first.exitCode).toBe(0);
    expect(decode(html)).toContain(`$ kubectl get pod crash-test\n${first.stdout}$ crictl ps -a\n${second.stdout}`.trimEnd());
    expect(html).toContain('<figure class="output output-sim" data-scenario="crash-loop">');
    expect(html).toContain('simulated · Kubernetes v1.36.2 model · scenario crash-loop at 8m23s');
  });

  it('without at, takes the time the timeline runs the same command', async () => {
    const crash = loadScenario('crash-loop');
    const step = scenarioRun(crash).steps[0];
    const html = await render(`\`\`\`console scenario="crash-loop"\n$ ${step.command}\n\`\`\`\n`);
    expect(decode(html)).toContain(`${step.stdout}`.trimEnd());
  });

  it('shows both streams in the order a terminal shows them: the server\'s warning before kubectl\'s result', async () => {
    const patch = `kubectl patch pod guarded -p '{"metadata":{"finalizer":[]}}' --type=merge`;
    const html = await render(`\`\`\`console scenario="stuck-finalizer" at="5m"\n$ ${patch}\n\`\`\`\n`);
    const r = runCommandAt(loadScenario('stuck-finalizer').runnable, parseDuration('5m'), patch);
    expect(r.writes?.map((w) => w[0])).toEqual([2, 1]);
    expect(decode(html)).toContain(`$ ${patch}\n${r.stderr}${r.stdout}`.trimEnd());
  });

  it('labels real-cluster output and leaves it as written', async () => {
    const html = await render('```console real\n$ kubectl get pod nginx\nNAME    READY   STATUS\n```\n', 'content/chapters/zh/x.md');
    expect(html).toContain('<figure class="output output-real"><figcaption class="output-label">真实集群</figcaption>');
    expect(html).toContain('NAME    READY   STATUS');
  });

  it('leaves plain console blocks alone', async () => {
    const html = await render('```console\n$ npx podlife simulate crash-loop\n```\n');
    expect(html).not.toContain('figure');
  });

  it.each([
    ['an unknown scenario', '```console scenario="nope" at="1s"\n$ kubectl get pods\n```\n', /unknown scenario "nope".*Use one of: .*crash-loop/s, 1],
    ['a bad at', '```console scenario="crash-loop" at="8 minutes"\n$ kubectl get pods\n```\n', /bad at="8 minutes".*such as at="89s"/s, 1],
    ['typed output in a simulated block', '```console scenario="crash-loop" at="1m"\n$ kubectl get pods\nNAME READY\n```\n', /holds only commands.*line 2 of the block/s, 3],
    ['a command the simulation cannot run', '```console scenario="crash-loop" at="1m"\n$ kubectl get pods\n$ docker ps\n```\n', /cannot run "docker ps"/, 3],
    ['an unknown kubectl flag', '```console scenario="crash-loop" at="1m"\n$ kubectl get pods --colour\n```\n', /unknown flag: --colour/, 2],
    ['a command that is not in the timeline (no at)', '```console scenario="crash-loop"\n$ kubectl get nodes\n```\n', /not a command of scenario crash-loop's timeline.*Add at=/s, 2],
    // a typo must not leave a block with no output
    ['a misspelt attribute', 'Text.\n\n```console scenaro="crash-loop" at="10s"\n$ kubectl get pods\n```\n', /unknown attribute "scenaro" \(did you mean scenario\?\) on a console block; known: scenario, at, seed, real/, 3],
    ['at without a scenario', '```console at="10s"\n$ kubectl logs once\n```\n', /at="…" on a console block needs scenario="<name>"/, 1],
    ['both real and a scenario', '```console real scenario="crash-loop"\n$ kubectl get pods\n```\n', /either real .* or scenario/, 1],
    ['a scenario with no name', '```console scenario\n$ kubectl get pods\n```\n', /needs a name: scenario="<name>"/, 1],
  ])('fails on %s with the line', async (_name, markdown, message, line) => {
    const err = await failure(markdown);
    expect(err.message).toMatch(message);
    expect(err.line).toBe(line);
  });
});

describe('directives', () => {
  it(':::simulation renders the player section over static outputs', async () => {
    const html = await render(':::simulation{scenario="nginx-test"}\n:::\n');
    expect(html).toMatch(/<section class="sim-player" data-sim-player="" data-scenario="nginx-test" data-scenario-src="\/_podlife\/scenarios\/nginx-test.yaml" data-scenario-replay="\/_podlife\/scenarios\/nginx-test.seed-\d+.replay.json" data-seed="\d+" data-lang="en"/);
    expect(html).toMatch(/data-step-hrefs="\{[^"]*SyncPod#4[^"]*\}"/);
    expect(html).toContain('data-sim-static');
    expect(html).toContain('language-mermaid'); // the phase diagram, rendered to SVG later by rehype-diagrams
    expect(html).toContain('npx podlife simulate nginx-test');
    expect(html).toContain('$ kubectl run nginx-test');
  });

  it(':::simulation names the scenario in the page\'s language: titles.zh on a Chinese page, title on an English one', async () => {
    const { scenario } = loadScenario('nginx-test');
    const zhTitle = scenario.titles?.zh;
    expect(zhTitle, 'content/scenarios/nginx-test.yaml has a Chinese title').toBeTruthy();
    expect(zhTitle).not.toBe(scenario.title);
    const title = (html: string) => ({
      intro: decode(/<p class="sim-title">(.*?)<\/p>/.exec(html)?.[1] ?? ''),
      data: decode(/data-title="([^"]*)"/.exec(html)?.[1] ?? ''),
      label: decode(/<section [^>]*aria-label="([^"]*)"/.exec(html)?.[1] ?? ''),
    });
    const zh = title(await render(':::simulation{scenario="nginx-test"}\n:::\n', 'content/chapters/zh/test.md'));
    const en = title(await render(':::simulation{scenario="nginx-test"}\n:::\n', 'content/chapters/en/test.md'));
    expect(zh.data).toBe(zhTitle);
    expect(zh.intro.endsWith(` · ${zhTitle}`)).toBe(true);
    expect(zh.label.endsWith(`: ${zhTitle}`)).toBe(true);
    expect(en.data).toBe(scenario.title);
    expect(en.intro.endsWith(` · ${scenario.title}`)).toBe(true);
    expect(en.label.endsWith(`: ${scenario.title}`)).toBe(true);
  });

  it('::sequence draws the trace as a sequence diagram with the step keys of its messages', async () => {
    const html = await render('::sequence{scenario="nginx-test" until="30s"}\n');
    expect(html).toContain('class="trace-diagram"');
    expect(html).toContain('sequenceDiagram');
    expect(html).toContain('SyncPod#35;4'); // '#' is written as a mermaid entity
  });

  it('text that looks like a directive stays text', async () => {
    const html = await render('Pull nginx:alpine, digest sha256:abc.\n');
    expect(html).toContain('nginx:alpine');
    expect(html).toContain('sha256:abc');
  });

  it.each([
    ['an unknown directive', ':::player{scenario="x"}\n:::\n', /unknown directive ":::player"/],
    ['a simulation without a scenario', ':::simulation\n:::\n', /needs a scenario/],
    ['a sequence with a bad until', '::sequence{scenario="nginx-test" until="soon"}\n', /bad until="soon"/],
    ['a misspelt attribute', '::sequence{scenario="nginx-test" untill="10s"}\n', /unknown attribute "untill" \(did you mean until\?\) on ::sequence; known: scenario, seed, pod, from, until/],
    ['an attribute compare does not take', ':::compare{scenario="nginx-test"}\n:::\n', /unknown attribute "scenario" on :::compare; it takes none/],
    ['a pod the scenario does not have', '::sequence{scenario="nginx-test" pod="nosuch"}\n', /scenario nginx-test has no pod "nosuch" \(its pods: nginx-test\)/],
  ])('fails on %s', async (_name, markdown, message) => {
    expect((await failure(markdown)).message).toMatch(message);
  });

  it('fails on a container directive that is never closed, at its opening line, instead of swallowing the page', async () => {
    const err = await failure('# Title\n\n:::simulation{scenario="nginx-test"}\nText.\n\n::sequence{scenario="nginx-test"}\n\n## Try it\n');
    expect(err.message).toMatch(/:::simulation opened here is never closed: add a line ::: after its content/);
    expect(err.line).toBe(3);
    // closed, nested in a compare, at the end of the page: fine
    await render(':::compare\n```console real\n$ x\n```\n:::\n\n:::simulation{scenario="nginx-test"}\nText.\n:::');
  });
});

describe('sequenceFromTrace', () => {
  const trace = scenarioRun(loadScenario('nginx-test')).trace;
  it('routes events between the components and keeps each message\'s step key', () => {
    const seq = sequenceFromTrace(trace, { until: parseDuration('30s') });
    const messages = seq.source.split('\n').filter((l) => /->>|-->>/.test(l));
    expect(messages).toHaveLength(seq.keys.length);
    expect(messages[0]).toMatch(/^ {2}U->>A: 0s pod #34;nginx-test#34; created/);
    const bind = seq.keys.indexOf('scheduleOnePod#2');
    expect(messages[bind]).toMatch(/S->>A: .*scheduleOnePod#35;2/);
    const sandbox = seq.keys.indexOf('createPodSandbox#4');
    expect(messages[sandbox]).toMatch(/K->>R: /);
    expect(seq.source).toContain('participant R as containerd (CRI)');
  });
  it('shows only the chosen window of time', () => {
    const from = parseDuration('1s');
    const seq = sequenceFromTrace(trace, { from, until: parseDuration('5s') });
    const times = trace.filter((e) => e.t >= from && e.t <= parseDuration('5s'));
    expect(seq.keys).toHaveLength(Math.min(48, times.length));
    expect(seq.source).not.toContain(': 0s pod');
  });
  it('draws the controller manager when one acts: the taint-eviction controller evicting a pod', () => {
    const evicted = scenarioRun(loadScenario('taint-eviction')).trace;
    const seq = sequenceFromTrace(evicted, { object: 'pod/default/web', from: parseDuration('30s'), until: parseDuration('31s') });
    expect(seq.source).toContain('participant C as kube-controller-manager');
    expect(seq.source).toMatch(/ {2}U->>A: 30s node #34;worker01#34; patched \(strategic\)/);
    expect(seq.source).toMatch(/ {2}C->>A: 30\.005s taint-eviction-controller: /);
  });
  it('bounds the number of messages', () => {
    const seq = sequenceFromTrace(trace, { max: 5 });
    expect(seq.keys).toHaveLength(5);
    expect(seq.truncated).toBe(true);
  });
});

describe('rehypeTraceLinks', () => {
  it('wraps the n-th message text in a link to the n-th step', () => {
    const tree = {
      type: 'root',
      children: [
        {
          type: 'element',
          tagName: 'div',
          properties: { className: ['trace-diagram'], dataStepLinks: JSON.stringify(['#a', null, '/en/x/#c']) },
          children: ['one', 'two', 'three'].map((t) => ({ type: 'element', tagName: 'text', properties: { className: ['messageText'] }, children: [{ type: 'text', value: t }] })),
        },
      ],
    };
    (rehypeTraceLinks() as (t: unknown) => void)(tree);
    const html = unified().use(rehypeStringify).stringify(tree as never);
    expect(html).toBe('<div class="trace-diagram"><a href="#a" class="trace-step-link"><text class="messageText">one</text></a><text class="messageText">two</text><a href="/en/x/#c" class="trace-step-link"><text class="messageText">three</text></a></div>');
  });
});
