// Interface strings in each language. Chapter text lives in content/chapters/<lang>/.
import type { Lang } from './site.ts';

const strings = {
  zh: {
    langName: '中文',
    bookTitle: 'Pod 的一生',
    bookSubtitle: '从 Pending 到 Running 再到删除：沿着 kubelet 源码看 Pod 生命周期',
    chapters: '章节',
    onThisPage: '本页目录',
    previous: '上一章',
    next: '下一章',
    editPage: '在 GitHub 上编辑本页',
    toggleTheme: '切换深色/浅色主题',
    search: '搜索',
    searchPlaceholder: '搜索本书…',
    searchNoResults: '没有找到结果',
    switchLanguage: 'English',
    menu: '目录',
    skipToContent: '跳到正文',
    start: '开始阅读',
    notFound: '页面不存在',
  },
  en: {
    langName: 'English',
    bookTitle: 'The Life of a Pod',
    bookSubtitle: 'From Pending to Running and back down: the Kubernetes pod lifecycle, read in the kubelet’s source',
    chapters: 'Chapters',
    onThisPage: 'On this page',
    previous: 'Previous',
    next: 'Next',
    editPage: 'Edit this page on GitHub',
    toggleTheme: 'Toggle dark/light theme',
    search: 'Search',
    searchPlaceholder: 'Search the book…',
    searchNoResults: 'No results',
    switchLanguage: '中文',
    menu: 'Contents',
    skipToContent: 'Skip to content',
    start: 'Start reading',
    notFound: 'Page not found',
  },
} as const satisfies Record<Lang, Record<string, string>>;

export type UiKey = keyof (typeof strings)['en'];

export function t(lang: Lang, key: UiKey): string {
  return strings[lang][key];
}
