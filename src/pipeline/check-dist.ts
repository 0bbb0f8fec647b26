// The built site, checked as a reader's browser would meet it: every internal link and #anchor resolves
// (step links and trace-diagram links included), every asset a page loads exists, every excerpt
// permalink has the pinned form, and every page has a title, a language and content.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toText } from 'hast-util-to-text';
import { visit } from 'unist-util-visit';

export interface SiteProblem {
  page: string;
  message: string;
}

export interface CheckOptions {
  /** The pinned upstream tag every kubernetes/kubernetes permalink must use. */
  tag?: string;
}

interface Page {
  file: string;
  url: string;
  ids: Set<string>;
  tree: Root;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'pagefind' ? [] : htmlFiles(path);
    return e.name.endsWith('.html') ? [path] : [];
  });
}

function urlOf(root: string, file: string): string {
  const rel = relative(root, file).split('\\').join('/');
  return `/${rel.replace(/(^|\/)index\.html$/, '$1')}`;
}

/** The file a site path is served from, or undefined. */
function fileFor(root: string, path: string): string | undefined {
  const target = resolve(root, `.${decodeURIComponent(path)}`);
  if (!target.startsWith(resolve(root))) return undefined;
  if (existsSync(target) && statSync(target).isFile()) return target;
  if (existsSync(join(target, 'index.html'))) return join(target, 'index.html');
  return undefined;
}

const PERMALINK = /^https:\/\/github\.com\/kubernetes\/kubernetes\/blob\/([^/]+)\/([\w./-]+\.go)(#L\d+(-L\d+)?)?$/;

export function checkDist(root: string, options: CheckOptions = {}): SiteProblem[] {
  const tag = options.tag ?? 'v1.36.2';
  const problems: SiteProblem[] = [];
  const pages = new Map<string, Page>();
  for (const file of htmlFiles(root)) {
    const tree = fromHtml(readFileSync(file, 'utf8')) as Root;
    const ids = new Set<string>();
    visit(tree, 'element', (node) => {
      if (typeof node.properties.id === 'string') ids.add(node.properties.id);
    });
    // keyed by absolute path, as fileFor answers (htmlFiles lists them under root as given, maybe relative)
    pages.set(resolve(file), { file, url: urlOf(root, file), ids, tree });
  }

  for (const page of pages.values()) {
    const where = relative(process.cwd(), page.file) || page.file;
    const report = (message: string) => problems.push({ page: where, message });
    let title = '';
    let lang: unknown;
    let body: Element | undefined;
    visit(page.tree, 'element', (node) => {
      if (node.tagName === 'title') title = toText(node).trim();
      if (node.tagName === 'html') lang = node.properties.lang;
      if (node.tagName === 'body') body = node;
    });
    if (!title) report('the page has no <title>');
    if (typeof lang !== 'string' || !lang) report('the page has no <html lang>');
    if (!body || toText(body).trim().length < 40) report('the page is empty');

    visit(page.tree, 'element', (node) => {
      const ref =
        node.tagName === 'a' || node.tagName === 'link'
          ? node.properties.href
          : node.tagName === 'script' || node.tagName === 'img' || node.tagName === 'source'
            ? node.properties.src
            : node.properties.dataScenarioSrc;
      if (typeof ref !== 'string' || ref === '') return;
      if (/^https?:\/\//.test(ref)) {
        if (ref.startsWith('https://github.com/kubernetes/kubernetes/blob/')) {
          const m = PERMALINK.exec(ref);
          if (!m) report(`excerpt permalink ${ref} is not of the form https://github.com/kubernetes/kubernetes/blob/${tag}/<path>#L<first>-L<last>`);
          else if (m[1] !== tag) report(`excerpt permalink ${ref} points at ${m[1]}, not the pinned ${tag}`);
        }
        return;
      }
      if (/^(mailto|data|javascript):/.test(ref)) {
        if (ref.startsWith('javascript:')) report(`javascript: link ${ref}`);
        return;
      }
      const url = new URL(ref, `http://site${page.url}`);
      let target: Page | undefined = page;
      if (url.pathname !== page.url) {
        const file = fileFor(root, url.pathname);
        if (!file) {
          report(`link to ${ref}: no such page or file in the built site`);
          return;
        }
        target = pages.get(file);
      }
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (fragment && target && !target.ids.has(fragment)) {
        report(`link to ${ref}: no element with id "${fragment}" on ${target.url}`);
      }
    });
  }
  return problems;
}
