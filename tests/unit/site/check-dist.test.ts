import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDist } from '../../../src/pipeline/check-dist.ts';

function site(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'podlife-dist-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const page = (body: string, { title = 'A page', lang = 'en' } = {}) =>
  `<!doctype html><html${lang ? ` lang="${lang}"` : ''}><head><title>${title}</title></head><body><main>${body}<p>Enough text to count as a page with content.</p></main></body></html>`;

describe('checkDist', () => {
  it('accepts a consistent site', () => {
    const root = site({
      'en/a/index.html': page('<h2 id="x">X</h2><a href="/en/b/#y">b</a><a href="#x">x</a><a href="../b/">rel</a><script src="/_astro/s.js"></script>'),
      'en/b/index.html': page('<h2 id="y">Y</h2><a href="https://github.com/kubernetes/kubernetes/blob/v1.36.2/pkg/kubelet/kuberuntime/kuberuntime_manager.go#L1450-L1796">src</a>'),
      '_astro/s.js': '',
    });
    expect(checkDist(root)).toEqual([]);
  });

  it('checks anchors on other pages with the root given relative to the working directory (`podlife check` does)', () => {
    const root = site({ 'en/a/index.html': page('<a href="/en/b/#nope">anchor</a><a href="/en/b/#y">fine</a>'), 'en/b/index.html': page('<h2 id="y">Y</h2>') });
    const messages = checkDist(relative(process.cwd(), root)).map((p) => p.message);
    expect(messages).toEqual(['link to /en/b/#nope: no element with id "nope" on /en/b/']);
  });

  it('reports each kind of problem with the page', () => {
    const root = site({
      'en/a/index.html': page(
        '<a href="/en/missing/">gone</a><a href="/en/b/#nope">anchor</a><a href="#here">self</a>' +
          '<a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kubelet.go#L1">master</a>' +
          '<a href="https://github.com/kubernetes/kubernetes/blob/v1.36.2/pkg/kubelet/kubelet.go?plain=1">odd</a>' +
          '<script src="/_astro/missing.js"></script><section data-scenario-src="/_podlife/scenarios/x.yaml"></section>',
      ),
      'en/b/index.html': page('<h2 id="y">Y</h2>', { title: '', lang: '' }),
      'en/c/index.html': '<!doctype html><html lang="en"><head><title>t</title></head><body></body></html>',
    });
    const messages = checkDist(root).map((p) => `${p.page.split('/').slice(-3).join('/')}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'en/a/index.html: link to /en/missing/: no such page or file in the built site',
        'en/a/index.html: link to /en/b/#nope: no element with id "nope" on /en/b/',
        'en/a/index.html: link to #here: no element with id "here" on /en/a/',
        expect.stringMatching(/en\/a\/index.html: excerpt permalink .*blob\/master.* points at master, not the pinned v1.36.2/),
        expect.stringMatching(/en\/a\/index.html: excerpt permalink .*\?plain=1 is not of the form/),
        'en/a/index.html: link to /_astro/missing.js: no such page or file in the built site',
        'en/a/index.html: link to /_podlife/scenarios/x.yaml: no such page or file in the built site',
        'en/b/index.html: the page has no <title>',
        'en/b/index.html: the page has no <html lang>',
        'en/c/index.html: the page is empty',
      ]),
    );
  });
});
