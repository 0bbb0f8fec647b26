// Render an excerpt to HTML (hast): a header (path, function, version, verification, permalink, copy),
// then the code with the real upstream line numbers in the gutter, a gap marker at each elision, author
// annotations set apart and unnumbered, each step's lines grouped (so CSS alone highlights a step on
// hover, focus or when its anchor is the URL's target), and calls linked to the excerpts that quote them.
import type { Element, ElementContent, Properties } from 'hast';
import { highlightGo } from './highlight.ts';
import type { LockEntry, PinnedLine, Upstream } from './lock.ts';
import { numberedSpan } from './lock.ts';
import { type Excerpt, type Step, declLabel } from './model.ts';

export interface RenderOptions {
  /** Page language, for the labels. */
  lang: string;
  upstream: Pick<Upstream, 'repo' | 'tag'>;
  /** Id of the excerpt's element (call links from other excerpts point here). */
  anchor: string;
  /** Where a call to the named function links, if that function is quoted in the book. */
  callHref?: (name: string) => string | undefined;
}

interface Labels {
  verified: string;
  unverified: string;
  unverifiedTitle: (proven: string) => string;
  permalink: string;
  copy: string;
  copied: string;
  stepLink: (step: Step) => string;
  gap: string;
  ellipsis: string;
  note: string;
  call: (name: string) => string;
}

function labels(lang: string, tag: string): Labels {
  if (lang === 'zh') {
    return {
      verified: `已与 ${tag} 核对`,
      unverified: `尚未与 ${tag} 核对`,
      unverifiedTitle: (proven) =>
        `这段摘录还没有逐行对照 ${tag} 标签的源码核对过；行号只标出引用本身能证明的部分（${proven}）。GitHub 链接打开的是 ${tag} 的文件。`,
      permalink: `在 GitHub 上查看（${tag}）`,
      copy: '复制代码',
      copied: '已复制',
      stepLink: (s) => `步骤 ${s.n} 的链接：${s.text}`,
      gap: '此处省略了上游代码',
      ellipsis: '省略的参数或字段',
      note: '作者注',
      call: (name) => `跳到 ${name} 的摘录`,
    };
  }
  return {
    verified: `verified against ${tag}`,
    unverified: `not yet verified against ${tag}`,
    unverifiedTitle: (proven) =>
      `This excerpt has not yet been compared line by line with the ${tag} tag's source; line numbers are shown only where the reference itself proves them (${proven}). The GitHub link opens the ${tag} file.`,
    permalink: `view on GitHub (${tag})`,
    copy: 'Copy code',
    copied: 'Copied',
    stepLink: (s) => `Link to step ${s.n}: ${s.text}`,
    gap: 'upstream lines elided here',
    ellipsis: 'elided arguments or fields',
    note: "author's note",
    call: (name) => `Go to the excerpt of ${name}`,
  };
}

function el(tagName: string, properties: Properties, children: ElementContent[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

function textLength(node: ElementContent): number {
  if (node.type === 'text') return node.value.length;
  if (node.type === 'element') return node.children.reduce((n, c) => n + textLength(c), 0);
  return 0;
}

/** Split a token (text, or an element around text) at `cut` characters. */
function splitNode(node: ElementContent, cut: number): [ElementContent, ElementContent] {
  if (node.type === 'text') return [{ type: 'text', value: node.value.slice(0, cut) }, { type: 'text', value: node.value.slice(cut) }];
  if (node.type !== 'element') return [node, { type: 'text', value: '' }];
  const left: ElementContent[] = [];
  const right: ElementContent[] = [];
  let pos = 0;
  for (const child of node.children) {
    const len = textLength(child);
    if (pos + len <= cut) left.push(child);
    else if (pos >= cut) right.push(child);
    else {
      const [a, b] = splitNode(child, cut - pos);
      left.push(a);
      right.push(b);
    }
    pos += len;
  }
  return [
    { ...node, properties: { ...node.properties }, children: left },
    { ...node, properties: { ...node.properties }, children: right },
  ];
}

function boundaryAt(line: Element, offset: number): number | undefined {
  let pos = 0;
  for (let k = 0; k <= line.children.length; k++) {
    if (pos === offset) return k;
    const child = line.children[k];
    if (!child) return undefined;
    const len = textLength(child);
    if (offset > pos && offset < pos + len) {
      line.children.splice(k, 1, ...splitNode(child, offset - pos));
      return k + 1;
    }
    pos += len;
  }
  return undefined;
}

/** Wrap characters [start, end) of a highlighted line in `wrapper`, splitting tokens where needed. */
function wrapRange(line: Element, start: number, end: number, wrapper: Element): void {
  const from = boundaryAt(line, start);
  const to = boundaryAt(line, end);
  if (from === undefined || to === undefined || to <= from) return;
  wrapper.children = line.children.splice(from, to - from, wrapper) as ElementContent[];
}

function lineClass(pin: PinnedLine): string[] {
  switch (pin.kind) {
    case 'note':
      return ['line', 'excerpt-note'];
    case 'gap':
      return ['line', 'excerpt-gap'];
    case 'blank':
      return ['line', 'excerpt-extra'];
    default:
      return pin.line === null ? ['line', 'excerpt-unnumbered'] : ['line'];
  }
}

/** The text the copy button copies: upstream code and elision marks, without the author's annotations. */
export function copyText(excerpt: Excerpt, pin: LockEntry): string {
  return excerpt.lines
    .filter((_, i) => pin.lines[i].kind !== 'note' && pin.lines[i].kind !== 'blank')
    .map((l) => l.text)
    .join('\n');
}

export async function renderExcerpt(excerpt: Excerpt, pin: LockEntry, options: RenderOptions): Promise<Element> {
  const { tag, repo } = options.upstream;
  const text = labels(options.lang, tag);
  const pre = await highlightGo(excerpt.lines.map((l) => l.text).join('\n'));
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const shikiLines = (code?.children ?? []).filter(
    (c): c is Element => c.type === 'element' && String(c.properties.className ?? '').includes('line'),
  );
  if (!code || shikiLines.length !== excerpt.lines.length) {
    throw new Error(`podlife: shiki returned ${shikiLines.length} lines for a ${excerpt.lines.length}-line excerpt`);
  }
  const stepAt = new Map(excerpt.steps.map((s) => [s.line, s]));

  const rendered = excerpt.lines.map((line, i): Element => {
    const pinned = pin.lines[i];
    const out = shikiLines[i];
    out.properties = { className: lineClass(pinned) };
    if (pinned.kind === 'upstream' && pinned.line !== null) out.properties.dataLine = String(pinned.line);
    if (pinned.kind === 'note') {
      out.properties.title = text.note;
      out.children = [el('span', { className: ['excerpt-note-text'] }, [{ type: 'text', value: line.text }])];
    } else if (pinned.kind === 'gap') {
      out.properties.title = text.gap;
    } else {
      for (const column of [...line.elisions].sort((a, b) => b - a)) {
        wrapRange(out, column, column + 3, el('span', { className: ['excerpt-ellipsis'], title: text.ellipsis }));
      }
      if (line.elisions.length) (out.properties.className as string[]).push('excerpt-elided');
      const calls = excerpt.calls.filter((c) => c.line === i).sort((a, b) => b.column - a.column);
      for (const call of calls) {
        const href = call.name === excerpt.decl.name ? undefined : options.callHref?.(call.name);
        if (!href) continue;
        wrapRange(out, call.column, call.column + call.length, el('a', { className: ['excerpt-call'], href, title: text.call(call.name) }));
      }
    }
    const step = stepAt.get(i);
    if (step) {
      out.children.push(
        el('a', { className: ['excerpt-step-link'], href: `#${step.anchor}`, ariaLabel: text.stepLink(step), title: text.stepLink(step) }),
      );
    }
    out.children.push({ type: 'text', value: '\n' });
    return out;
  });

  const body: ElementContent[] = [];
  for (let i = 0; i < rendered.length; ) {
    const step = stepAt.get(i);
    if (!step) {
      body.push(rendered[i++]);
      continue;
    }
    body.push(
      el(
        'span',
        { className: ['excerpt-step'], id: step.anchor, dataStepKey: step.key, dataStep: String(step.n) },
        rendered.slice(i, step.end),
      ),
    );
    i = step.end;
  }
  code.children = body;
  pre.properties = {
    ...pre.properties,
    className: [...((pre.properties.className as string[]) ?? []), 'excerpt-code'],
    tabIndex: 0,
  };

  const span = numberedSpan(pin);
  const fragment = span ? `#L${span.first}${span.last > span.first ? `-L${span.last}` : ''}` : '';
  const permalink = `https://github.com/${repo}/blob/${tag}/${pin.path}${fragment}`;
  const proven = span ? `L${span.first}${span.last > span.first ? `–L${span.last}` : ''}` : '—';
  const status = pin.verified
    ? el('span', { className: ['excerpt-status', 'excerpt-verified'] }, [{ type: 'text', value: text.verified }])
    : el('span', { className: ['excerpt-status', 'excerpt-unverified'], title: text.unverifiedTitle(proven) }, [
        { type: 'text', value: text.unverified },
      ]);

  const header = el('figcaption', { className: ['excerpt-head'] }, [
    el('code', { className: ['excerpt-path'] }, [{ type: 'text', value: pin.path }]),
    el('code', { className: ['excerpt-decl'] }, [{ type: 'text', value: declLabel(excerpt.decl) }]),
    el('span', { className: ['excerpt-version'] }, [{ type: 'text', value: `Kubernetes ${tag}` }]),
    status,
    el('a', { className: ['excerpt-permalink'], href: permalink, rel: ['noopener'] }, [{ type: 'text', value: text.permalink }]),
    el('button', { type: 'button', className: ['excerpt-copy'], dataExcerptCopy: '', dataCopiedLabel: text.copied, hidden: true }, [
      { type: 'text', value: text.copy },
    ]),
  ]);

  return el(
    'figure',
    {
      className: ['excerpt'],
      id: options.anchor,
      dataExcerpt: excerpt.decl.name,
      dataVerified: String(pin.verified),
    },
    [header, pre],
  );
}
