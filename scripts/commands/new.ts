// `podlife new chapter <slug>` and `podlife new scenario <name>`: skeletons that build as they are and
// show the syntax a contributor needs (excerpt step links, simulated console blocks, diagrams).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.ts';

export const summary = 'create a chapter (zh + en) or a scenario from a skeleton that builds';

const USAGE = `Usage:
  podlife new chapter <slug> [--title "<English title>"] [--order <n>]
      creates content/chapters/zh/<slug>.md and content/chapters/en/<slug>.md
  podlife new scenario <name> [--title "<title>"]
      creates content/scenarios/<name>.yaml`;

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value\n\n${USAGE}`);
  return value;
}

function nextOrder(dir: string): number {
  if (!existsSync(dir)) return 1;
  let max = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    const m = /^order:\s*(\d+)\s*$/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max + 1;
}

function chapter(lang: 'zh' | 'en', slug: string, title: string, order: number): string {
  const zh = lang === 'zh';
  return `---
title: ${JSON.stringify(zh ? `${title}（待翻译）` : title)}
description: ${JSON.stringify(zh ? '用一句话说明本章讲什么。' : 'One sentence on what this chapter explains.')}
order: ${order}
---

${zh ? '在这里写正文。引用上游 Go 代码时，用带 `// Source:` 首行的 go 代码块；链接到某个步骤：' : 'Write the chapter here. Quote upstream Go in a go block whose first line is `// Source: <path> L<line>`; link prose to a step:'}
[SyncPod ${zh ? '第 4 步' : 'step 4'}](step:SyncPod#4).

## ${zh ? '模拟的输出' : 'A simulated output'}

${zh ? '输出由模拟在构建时生成，只写命令：' : 'Outputs come from the simulation at build time; write only the commands:'}

\`\`\`console scenario="nginx" at="2s"
$ kubectl get pod nginx
\`\`\`

## ${zh ? '图' : 'A diagram'}

\`\`\`mermaid
stateDiagram-v2
  [*] --> Pending
  Pending --> Running
\`\`\`

## ${zh ? '动手试试' : 'Try it'}

\`\`\`console
$ npx podlife simulate nginx
\`\`\`
`;
}

function scenario(name: string, title: string): string {
  return `# ${title}
#
# A scenario: a cluster, then a timeline of commands at virtual times (Go durations: 500ms, 2s, 1m30s).
# Each \`run:\` is a command line as typed on the node; \`npx podlife simulate ${name}\` prints each one with
# exactly what the real tool shows at that moment. \`apply:\` takes a full manifest instead.
title: ${JSON.stringify(title)}
# titles: {zh: "…"}                  # the title on the Chinese pages (else they show title)
seed: 1
cluster:
  nodes:
    - name: worker01
      ip: 192.168.114.148
      podCIDR: 10.244.5.0/24
      capacity: {cpu: "4", memory: 8Gi, pods: 110}
      images: [nginx:alpine]          # already on the node before t=0
  images:
    busybox: {pull: 2.5s, size: 2.2MB}  # pulled when first needed
timeline:
  - at: 0s
    run: kubectl run ${name}-pod --image=nginx:alpine --restart=Never
  - at: 5s
    run: kubectl get pod ${name}-pod -o wide
  - at: 10s
    run: kubectl describe pod ${name}-pod | grep -A10 Events
`;
}

export async function run(args: string[]): Promise<number> {
  const [kind, name] = args;
  if (!kind || args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return kind ? 0 : 2;
  }
  if (kind !== 'chapter' && kind !== 'scenario') throw new UsageError(`new: unknown kind "${kind}"\n\n${USAGE}`);
  if (!name || !NAME.test(name)) {
    throw new UsageError(`new ${kind}: give a name in lowercase letters, digits and dashes (e.g. "image-pulls"), not ${name ? `"${name}"` : 'nothing'}\n\n${USAGE}`);
  }
  const title = option(args, '--title') ?? name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');

  if (kind === 'scenario') {
    const file = join('content/scenarios', `${name}.yaml`);
    if (existsSync(file)) throw new UsageError(`new scenario: ${file} already exists; choose another name or edit it.`);
    mkdirSync('content/scenarios', { recursive: true });
    writeFileSync(file, scenario(name, title));
    console.log(`created ${file}\nrun it: npx podlife simulate ${name}`);
    return 0;
  }

  const files = (['zh', 'en'] as const).map((lang) => join('content/chapters', lang, `${name}.md`));
  const taken = files.filter((f) => existsSync(f));
  if (taken.length) throw new UsageError(`new chapter: ${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}; choose another slug.`);
  const orderText = option(args, '--order');
  if (orderText !== undefined && !/^[1-9]\d*$/.test(orderText)) throw new UsageError(`new chapter: --order must be a positive integer, not "${orderText}"`);
  for (const lang of ['zh', 'en'] as const) {
    const dir = join('content/chapters', lang);
    const order = orderText ? Number(orderText) : nextOrder(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.md`), chapter(lang, name, title, order));
  }
  console.log(`created ${files.join(' and ')}\npreview: npm run dev, then open /en/${name}/`);
  return 0;
}
