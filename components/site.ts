// The only JavaScript every page loads (reading needs none of it): the theme toggle, the search box,
// excerpt copy buttons. Heavier pieces (Pagefind, the simulation player) are loaded on demand.
import { init as initExcerptCopy } from './excerpt-copy.ts';
import { bestSection, type PagefindResult } from './search-sections.ts';

const THEME_KEY = 'podlife-theme';

function currentTheme(): 'light' | 'dark' {
  const set = document.documentElement.dataset.theme;
  if (set === 'light' || set === 'dark') return set;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function initTheme(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]')) {
    button.hidden = false;
    const sync = () => button.setAttribute('aria-pressed', String(currentTheme() === 'dark'));
    sync();
    button.addEventListener('click', () => {
      const next = currentTheme() === 'dark' ? 'light' : 'dark';
      document.documentElement.dataset.theme = next;
      try {
        localStorage.setItem(THEME_KEY, next);
      } catch {
        /* private mode: the choice lasts for this page only */
      }
      sync();
    });
  }
}

interface Pagefind {
  search(query: string): Promise<{ results: { data(): Promise<PagefindResult> }[] }>;
}

let pagefind: Promise<Pagefind> | undefined;

function loadPagefind(): Promise<Pagefind> {
  const url = '/pagefind/pagefind.js';
  pagefind ??= import(/* @vite-ignore */ url) as Promise<Pagefind>;
  return pagefind;
}

/** Pagefind's excerpt marks hits with <mark>; rebuild it from text so nothing else can become markup. */
function excerptNodes(excerpt: string): Node[] {
  const parts = excerpt.split(/<\/?mark>/);
  return parts.map((part, i) => {
    const text = document.createTextNode(part.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
    if (i % 2 === 0) return text;
    const mark = document.createElement('mark');
    mark.append(text);
    return mark;
  });
}

/** A result: the best section's link and title under the page's title, and that section's excerpt. */
function resultItem(hit: PagefindResult): HTMLLIElement {
  const section = bestSection(hit);
  const pageTitle = hit.meta.title ?? hit.url;
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = section?.url ?? hit.url;
  if (section?.anchor && section.title !== pageTitle) {
    const page = Object.assign(document.createElement('span'), { className: 'search-page', textContent: pageTitle });
    const title = Object.assign(document.createElement('span'), { className: 'search-section', textContent: section.title });
    link.append(page, ' › ', title);
  } else {
    link.textContent = pageTitle;
  }
  const excerpt = document.createElement('p');
  excerpt.append(...excerptNodes(section?.excerpt ?? hit.excerpt));
  item.append(link, excerpt);
  return item;
}

function initSearch(): void {
  const box = document.querySelector<HTMLElement>('[data-search]');
  const input = box?.querySelector<HTMLInputElement>('[data-search-input]');
  const results = box?.querySelector<HTMLElement>('[data-search-results]');
  if (!box || !input || !results) return;
  box.hidden = false;
  let generation = 0;

  const show = async () => {
    const query = input.value.trim();
    const mine = ++generation;
    if (!query) {
      results.hidden = true;
      results.replaceChildren();
      return;
    }
    let found: PagefindResult[];
    try {
      const pf = await loadPagefind();
      const { results: hits } = await pf.search(query);
      found = await Promise.all(hits.slice(0, 8).map((h) => h.data()));
    } catch {
      if (mine !== generation) return;
      results.hidden = false;
      results.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Search works on the built site (npm start).' }));
      return;
    }
    if (mine !== generation) return;
    results.hidden = false;
    if (found.length === 0) {
      results.replaceChildren(Object.assign(document.createElement('p'), { textContent: results.dataset.noResults ?? '' }));
      return;
    }
    const list = document.createElement('ul');
    for (const hit of found) list.append(resultItem(hit));
    results.replaceChildren(list);
  };

  input.addEventListener('focus', () => void loadPagefind().catch(() => {}), { once: true });
  input.addEventListener('input', () => void show());
  // A section of the page being read is reached without a page load: get the panel out of the way of it.
  results.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a')) results.hidden = true;
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      input.value = '';
      void show();
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === '/' && document.activeElement === document.body) {
      e.preventDefault();
      input.focus();
    }
  });
}

/**
 * Diagrams left for the browser (the site was built without a Chromium): load mermaid, render them.
 * Only such builds ship mermaid; a normal build has inline SVGs and never gets here.
 */
function initClientDiagrams(): void {
  if (!document.querySelector('figure.diagram-client pre.mermaid')) return;
  const script = document.createElement('script');
  script.src = '/_podlife/mermaid.min.js';
  script.onload = () => {
    const mermaid = (window as unknown as { mermaid?: { initialize(c: object): void; run(o: object): Promise<void> } }).mermaid;
    mermaid?.initialize({ startOnLoad: false, securityLevel: 'strict' });
    void mermaid?.run({ querySelector: 'figure.diagram-client pre.mermaid' });
  };
  document.head.append(script);
}

/** Simulation players load (engine included) only when one comes near the viewport. */
function initPlayers(): void {
  const sections = document.querySelectorAll<HTMLElement>('[data-sim-player]');
  if (sections.length === 0) return;
  const load = (section: HTMLElement) => {
    if (section.dataset.simMounted !== undefined) return;
    section.dataset.simMounted = '';
    // Each language has its own small entry, so a reader downloads only the strings of the page's language.
    const lang = section.dataset.lang ?? document.documentElement.lang.slice(0, 2);
    void (lang === 'zh' ? import('./player/zh.ts') : import('./player/en.ts')).then((player) => player.mount(section));
  };
  // A shared moment in the URL (?scenario=…&t=…) mounts its player at once.
  const wanted = new URLSearchParams(location.search).get('scenario');
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        load(entry.target as HTMLElement);
      }
    },
    { rootMargin: '200px 0px' },
  );
  for (const section of sections) {
    if (wanted && section.dataset.scenario === wanted) load(section);
    else observer.observe(section);
  }
}

initTheme();
initSearch();
initExcerptCopy();
initClientDiagrams();
initPlayers();
