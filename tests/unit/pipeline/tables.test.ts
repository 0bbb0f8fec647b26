// rehype-tables: every table scrolls in a wrapper that takes keyboard focus and is named, in the page's language.
import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { VFile } from 'vfile';
import { describe, expect, it } from 'vitest';
import rehypeTables from '../../../src/pipeline/rehype-tables.ts';

const table = (...rows: string[]) => h('table', [h('tbody', rows.map((r) => h('tr', [h('td', r)])))]);

function run(tree: Root, lang: 'en' | 'zh' = 'en'): Root {
  rehypeTables()(tree, new VFile({ path: `content/chapters/${lang}/test.md` }));
  return tree;
}

/** The wrappers, as [aria-label, tabindex, role] in document order. */
function wrappers(tree: Root): string[][] {
  const html = toHtml(tree);
  return [...html.matchAll(/<div class="table-wrap" tabindex="([^"]*)" role="([^"]*)" aria-label="([^"]*)">/g)].map((m) => [m[3], m[1], m[2]]);
}

describe('rehype-tables', () => {
  it('wraps a table in a focusable region named after the heading it sits under, keeping the table', () => {
    const tree = run(h(null, [h('h2', { id: 'policies' }, 'Restart policies'), h('p', 'text'), table('a')]));
    expect(wrappers(tree)).toEqual([['Table: Restart policies', '0', 'region']]);
    expect(toHtml(tree)).toContain('<div class="table-wrap" tabindex="0" role="region" aria-label="Table: Restart policies"><table><tbody><tr><td>a</td></tr></tbody></table></div>');
  });

  it('names in the page language', () => {
    const tree = run(h(null, [h('h2', '重启策略'), table('a')]), 'zh');
    expect(wrappers(tree)).toEqual([['表格：重启策略', '0', 'region']]);
  });

  it('prefers the table caption to the heading', () => {
    const tree = run(h(null, [h('h2', 'Timings'), h('table', [h('caption', 'Back-off  delays'), h('tbody', [h('tr', [h('td', '10s')])])])]));
    expect(wrappers(tree).map((w) => w[0])).toEqual(['Table: Back-off delays']);
  });

  it('falls back to a generic name when no heading comes before the table', () => {
    expect(wrappers(run(h(null, [table('a'), h('h2', 'Later')])))[0][0]).toBe('Table');
    expect(wrappers(run(h(null, [table('a')]), 'zh'))[0][0]).toBe('表格');
  });

  it('takes the nearest heading in document order, its text flattened, and numbers repeats so landmarks differ', () => {
    const tree = run(
      h(null, [
        h('h2', ['Reading ', h('code', 'RESTARTS'), '\n  counts']),
        table('a'),
        h('blockquote', [table('b')]), // nested: still wrapped
        h('h3', 'Timings'),
        table('c'),
      ]),
    );
    expect(wrappers(tree).map((w) => w[0])).toEqual(['Table: Reading RESTARTS counts', 'Table: Reading RESTARTS counts (2)', 'Table: Timings']);
    const zh = run(h(null, [h('h2', '策略'), table('a'), table('b')]), 'zh');
    expect(wrappers(zh).map((w) => w[0])).toEqual(['表格：策略', '表格：策略（2）']);
  });

  it('wraps each table once', () => {
    const tree = run(run(h(null, [h('h2', 'x'), table('a')])));
    expect(toHtml(tree).match(/table-wrap/g)).toHaveLength(1);
  });
});
