// Words the pipeline writes into pages, per language (the chapter's language comes from its path).
import type { VFile } from 'vfile';

export type PageLang = 'zh' | 'en';

export function pageLang(file: VFile): PageLang {
  return /(^|[\\/])chapters[\\/]zh[\\/]/.test(file.path ?? '') ? 'zh' : 'en';
}

const words = {
  en: {
    real: 'real cluster',
    simulated: (version: string) => `simulated · Kubernetes ${version} model`,
    scenarioAt: (name: string, at: string) => `scenario ${name} at ${at}`,
    simulation: 'Simulation',
    loading: 'Loading the simulation…',
    transcript: 'Transcript at build time (what podlife simulate prints)',
    tryIt: 'Run it in a terminal:',
    phases: 'Pod phases',
    sequence: (name: string) => `Sequence of the ${name} scenario, generated from its trace`,
    compare: 'A real cluster and the simulation, side by side',
    table: (context: string) => (context ? `Table: ${context}` : 'Table'),
    nth: (label: string, n: number) => `${label} (${n})`,
  },
  zh: {
    real: '真实集群',
    simulated: (version: string) => `模拟 · Kubernetes ${version} 模型`,
    scenarioAt: (name: string, at: string) => `场景 ${name}，时刻 ${at}`,
    simulation: '模拟',
    loading: '正在加载模拟…',
    transcript: '构建时的输出（即 podlife simulate 的输出）',
    tryIt: '在终端里运行：',
    phases: 'Pod 的 phase',
    sequence: (name: string) => `${name} 场景的时序图，由模拟的 trace 生成`,
    compare: '真实集群与模拟的对照',
    table: (context: string) => (context ? `表格：${context}` : '表格'),
    nth: (label: string, n: number) => `${label}（${n}）`,
  },
} as const;

export function wordsFor(lang: PageLang) {
  return words[lang];
}
