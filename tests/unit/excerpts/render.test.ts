// The rendered excerpt: header, gutter numbers from the lock, gap markers, unnumbered annotations, step
// groups with anchors and links, call links, and the copy text without annotations.
import type { Element, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { beforeAll, describe, expect, it } from 'vitest';
import { contrast } from '../../../src/excerpts/contrast.ts';
import { CODE_BACKGROUNDS } from '../../../src/excerpts/highlight.ts';
import { type LockEntry, readLock } from '../../../src/excerpts/lock.ts';
import type { Excerpt } from '../../../src/excerpts/model.ts';
import { parseExcerpt } from '../../../src/excerpts/parse.ts';
import { copyText, renderExcerpt } from '../../../src/excerpts/render.ts';
import { seedEntry } from '../../../src/excerpts/seed.ts';
import { collectBook } from '../../../src/excerpts/collect.ts';
import { FIXTURE_BOOK } from './helpers.ts';

const UPSTREAM = { repo: 'kubernetes/kubernetes', tag: 'v1.36.2' };

function all(node: Element | ElementContent, test: (e: Element) => boolean, out: Element[] = []): Element[] {
  if (node.type !== 'element') return out;
  if (test(node)) out.push(node);
  for (const child of node.children) all(child, test, out);
  return out;
}
const hasClass = (name: string) => (e: Element) => Array.isArray(e.properties.className) && e.properties.className.includes(name);
function text(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return node.type === 'element' ? node.children.map(text).join('') : '';
}

let verified: { excerpt: Excerpt; pin: LockEntry };
let zhUnverified: { excerpt: Excerpt; pin: LockEntry };

beforeAll(async () => {
  const { excerpts } = await collectBook({ root: FIXTURE_BOOK });
  const lock = readLock(`${FIXTURE_BOOK}/content/sources.lock.json`);
  const en = excerpts.find((e) => e.id === 'en/elided#SyncPod')!;
  verified = { excerpt: en.excerpt, pin: lock.excerpts[en.id] };
  const zh = excerpts.find((e) => e.id === 'zh/elided#SyncPod')!;
  zhUnverified = { excerpt: zh.excerpt, pin: seedEntry({ excerpt: zh.excerpt, siblings: [en.excerpt] }) };
});

async function render(which: { excerpt: Excerpt; pin: LockEntry }, lang = 'en', calls: Record<string, string> = {}) {
  return renderExcerpt(which.excerpt, which.pin, { lang, upstream: UPSTREAM, anchor: 'excerpt-syncpod', callHref: (n) => calls[n] });
}

describe('a verified excerpt', () => {
  it('has a header with path, function, version, verification and a permalink over the quoted lines', async () => {
    const figure = await render(verified);
    expect(figure.properties).toMatchObject({ id: 'excerpt-syncpod', dataExcerpt: 'SyncPod', dataVerified: 'true' });
    const head = all(figure, (e) => e.tagName === 'figcaption')[0];
    expect(all(head, hasClass('excerpt-path')).map(text)).toEqual(['pkg/kubelet/kuberuntime/kuberuntime_manager.go']);
    expect(all(head, hasClass('excerpt-decl')).map(text)).toEqual(['(*kubeGenericRuntimeManager).SyncPod']);
    expect(all(head, hasClass('excerpt-version')).map(text)).toEqual(['Kubernetes v1.36.2']);
    expect(all(head, hasClass('excerpt-status')).map(text)).toEqual(['verified against v1.36.2']);
    expect(all(head, hasClass('excerpt-permalink'))[0].properties.href).toBe(
      'https://github.com/kubernetes/kubernetes/blob/v1.36.2/pkg/kubelet/kuberuntime/kuberuntime_manager.go#L34-L55',
    );
    const button = all(head, (e) => e.tagName === 'button')[0];
    expect(button.properties).toMatchObject({ type: 'button', dataExcerptCopy: '', hidden: true });
  });

  it('numbers every upstream line with its real line, marks gaps, and leaves the note unnumbered', async () => {
    const figure = await render(verified);
    const lines = all(figure, hasClass('line'));
    expect(lines).toHaveLength(verified.excerpt.lines.length);
    const gutter = lines.map((l) => (hasClass('excerpt-gap')(l) ? 'gap' : hasClass('excerpt-note')(l) ? 'note' : String(l.properties.dataLine)));
    expect(gutter).toEqual(['34', '35', '36', '37', 'gap', '39', '40', '41', 'note', '42', 'gap', '48', '49', '50', '51', '52', '53', '54', '55']);
    const note = lines[8];
    expect(note.properties.dataLine).toBeUndefined();
    expect(all(note, hasClass('excerpt-note-text')).map(text)).toEqual(['\t\t// Every container starts again in the new sandbox.']);
    // `...` standing for arguments is marked, and the line flagged.
    expect(hasClass('excerpt-elided')(lines[9])).toBe(true);
    expect(all(lines[9], hasClass('excerpt-ellipsis')).map(text)).toEqual(['...']);
  });

  it('groups each step\'s lines under its anchor, with a link on the step line', async () => {
    const figure = await render(verified);
    const steps = all(figure, hasClass('excerpt-step'));
    expect(steps.map((s) => [s.properties.id, s.properties.dataStepKey])).toEqual([
      ['syncpod-1', 'SyncPod#1'],
      ['syncpod-2', 'SyncPod#2'],
      ['syncpod-3', 'SyncPod#3'],
    ]);
    const stepLines = (s: Element) => s.children.filter((c): c is Element => c.type === 'element' && hasClass('line')(c)).map((l) => text(l).trim());
    expect(stepLines(steps[2])).toEqual([
      '// Step 3: Start the containers.',
      'for _, idx := range changes.ContainersToStart {',
      'm.startOne(ctx, pod, &pod.Spec.Containers[idx])',
      '}',
      'return',
    ]);
    const link = all(steps[1], hasClass('excerpt-step-link'))[0];
    expect(link.properties).toMatchObject({ href: '#syncpod-2', ariaLabel: 'Link to step 2: Replace the sandbox when it is gone.' });
  });

  it('links calls to functions quoted in the book, and only those', async () => {
    const figure = await render(verified, 'en', { createPodSandbox: '/en/moved/#excerpt-createpodsandbox', computePodActions: '#excerpt-computepodactions' });
    const calls = all(figure, hasClass('excerpt-call'));
    expect(calls.map((c) => [text(c), c.properties.href])).toEqual([
      ['computePodActions', '#excerpt-computepodactions'],
      ['createPodSandbox', '/en/moved/#excerpt-createpodsandbox'],
    ]);
  });

  it('keeps every line of the code intact while weaving links and marks in', async () => {
    const figure = await render(verified, 'en', { createPodSandbox: '/x', computePodActions: '/y' });
    const lines = all(figure, hasClass('line')).map((l) => text(l).replace(/\n$/, ''));
    expect(lines).toEqual(verified.excerpt.lines.map((l) => l.text));
  });
});

describe('an unverified excerpt', () => {
  it('says so honestly and numbers only what its reference proves', async () => {
    const figure = await render(zhUnverified, 'zh');
    expect(figure.properties.dataVerified).toBe('false');
    const status = all(figure, hasClass('excerpt-status'))[0];
    expect(text(status)).toBe('尚未与 v1.36.2 核对');
    expect(String(status.properties.title)).toContain('L34–L37');
    const numbered = all(figure, (e) => hasClass('line')(e) && e.properties.dataLine !== undefined).map((l) => l.properties.dataLine);
    expect(numbered).toEqual(['34', '35', '36', '37']);
    expect(all(figure, hasClass('excerpt-unnumbered')).length).toBeGreaterThan(10);
    expect(all(figure, hasClass('excerpt-permalink'))[0].properties.href).toMatch(/#L34-L37$/);
  });
});

describe('copying', () => {
  it('copies upstream code and elision marks, without the annotations', async () => {
    const copied = copyText(zhUnverified.excerpt, zhUnverified.pin);
    expect(copied).not.toMatch(/[\u4e00-\u9fff]/);
    expect(copied).toContain('\t// ...');
    expect(copied.split('\n')).toHaveLength(zhUnverified.excerpt.lines.length - 1);
  });

  it('matches what the page marks as upstream lines (what the copy button reads)', async () => {
    const figure = await render(zhUnverified, 'zh');
    const upstream = all(figure, (e) => hasClass('line')(e) && !hasClass('excerpt-note')(e) && !hasClass('excerpt-extra')(e));
    expect(upstream.map((l) => text(l).replace(/\n$/, '')).join('\n')).toBe(copyText(zhUnverified.excerpt, zhUnverified.pin));
  });
});

describe('highlighting', () => {
  it('uses the github themes as CSS variables, at AA contrast on the code backgrounds', async () => {
    const html = toHtml(await render(verified));
    const light = [...html.matchAll(/--shiki-light:(#[0-9A-Fa-f]{6})/g)].map((m) => m[1]);
    const dark = [...html.matchAll(/--shiki-dark:(#[0-9A-Fa-f]{6})/g)].map((m) => m[1]);
    expect(light.length).toBeGreaterThan(20);
    for (const c of light) for (const bg of CODE_BACKGROUNDS.light) expect(contrast(c, bg), `${c} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    for (const c of dark) for (const bg of CODE_BACKGROUNDS.dark) expect(contrast(c, bg), `${c} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    expect(html).toContain('--shiki-light:#24292E'); // colours that already read are GitHub's own
  });
});

it('renders a quoted type declaration too (no steps), numbered from its reference', async () => {
  // A type declaration (no steps) renders too: the model is not only for functions.
  const e = (await parseExcerpt('// Source: pkg/a.go L3\ntype podActions struct {\n\tKillPod bool\n}'))!;
  const figure = await renderExcerpt(e, seedEntry({ excerpt: e, siblings: [] }), { lang: 'en', upstream: UPSTREAM, anchor: 'excerpt-podactions' });
  expect(all(figure, hasClass('excerpt-step'))).toEqual([]);
  expect(all(figure, hasClass('line')).map((l) => l.properties.dataLine)).toEqual(['3', '4', '5']);
});
