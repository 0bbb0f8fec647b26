// Build-time benchmarks: the book built cold (no diagram cache, no content cache) and warm; how the cost
// grows with 1, 10 and 50 generated chapters; and a warm podlife build against a plain Astro build of the
// same Markdown.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { makeProject, ROOT, type Project } from '../lib/project.ts';

export interface Timed {
  seconds: number;
  ok: boolean;
  output: string;
}

function timed(project: Project, args: string[], env: Record<string, string>): Timed {
  const start = performance.now();
  const r = project.podlife(args, env);
  return { seconds: (performance.now() - start) / 1000, ok: r.code === 0, output: r.output };
}

/** A generated chapter: prose, a diagram of its own and an output simulated at build time. */
function generated(lang: 'zh' | 'en', i: number): string {
  const para = lang === 'zh'
    ? 'kubelet 的 SyncPod 先计算 podActions，再按步骤执行：必要时重建沙箱，然后启动 init 容器和普通容器。'
    : 'The kubelet’s SyncPod computes podActions first, then carries them out: it recreates the sandbox if needed, then starts the init containers and the regular ones.';
  return `---
title: "Generated ${i}"
description: "A generated chapter for the build benchmark."
order: ${100 + i}
---

## Section ${i}

${para}

${para}

\`\`\`mermaid
flowchart LR
  A${i}[kubectl run] --> B${i}[scheduler] --> C${i}[kubelet ${i}]
\`\`\`

\`\`\`console scenario="nginx" at="${10 + (i % 20)}s"
$ kubectl get pods -o wide
\`\`\`
`;
}

export function bookProject(extraChapters = 0): Project {
  const chapters: Record<string, string> = {};
  for (let i = 1; i <= extraChapters; i++) {
    chapters[`en/generated-${i}.md`] = generated('en', i);
    chapters[`zh/generated-${i}.md`] = generated('zh', i);
  }
  return makeProject(chapters, { book: true, scenarios: 'all' });
}

function caches(project: Project): Record<string, string> {
  return { PODLIFE_DIAGRAM_CACHE: join(project.dir, '.diagram-cache'), PODLIFE_ASTRO_CACHE: join(project.dir, '.astro-cache') };
}

/** The book: cold (empty caches, --force), then warm (the diagram cache kept). */
export function coldWarm(): { cold: Timed; warm: Timed } {
  const project = bookProject();
  const env = caches(project);
  const cold = timed(project, ['build', '--force'], env);
  const warm = timed(project, ['build'], env);
  return { cold, warm };
}

/** Warm builds (diagrams cached) of the book plus n generated chapters per language. */
export function growth(counts = [1, 10, 50]): { chapters: number; seconds: number; ok: boolean }[] {
  return counts.map((n) => {
    const project = bookProject(n);
    const env = caches(project);
    timed(project, ['build'], env); // fill the diagram cache
    const warm = timed(project, ['build'], env);
    return { chapters: n, seconds: warm.seconds, ok: warm.ok };
  });
}

/** The same Markdown through a plain Astro site: default Markdown processing, no podlife pipeline. */
export function plainAstro(): Timed {
  const dir = mkdtempSync(join(tmpdir(), 'podlife-plain-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  cpSync(join(ROOT, 'content/chapters'), join(dir, 'content/chapters'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"name":"plain","type":"module","private":true}\n');
  writeFileSync(join(dir, 'astro.config.mjs'), "import { defineConfig } from 'astro/config';\nexport default defineConfig({ cacheDir: './.astro-cache' });\n");
  mkdirSync(join(dir, 'src/pages'), { recursive: true });
  writeFileSync(
    join(dir, 'src/content.config.ts'),
    "import { defineCollection } from 'astro:content';\nimport { glob } from 'astro/loaders';\nexport const collections = { chapters: defineCollection({ loader: glob({ pattern: '**/*.md', base: './content/chapters' }) }) };\n",
  );
  writeFileSync(
    join(dir, 'src/pages/[...id].astro'),
    "---\nimport { getCollection, render } from 'astro:content';\nexport async function getStaticPaths() { return (await getCollection('chapters')).map((entry) => ({ params: { id: entry.id }, props: { entry } })); }\nconst { Content } = await render(Astro.props.entry);\n---\n<html lang=\"en\"><head><title>{Astro.props.entry.data.title}</title></head><body><Content /></body></html>\n",
  );
  const run = () => {
    const start = performance.now();
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: dir, encoding: 'utf8' });
    return { seconds: (performance.now() - start) / 1000, ok: r.status === 0, output: r.stdout + r.stderr };
  };
  run(); // warm Astro's own caches, as the podlife figure is warm
  const result = run();
  rmSync(dir, { recursive: true, force: true });
  return result;
}
