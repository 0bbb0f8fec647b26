// The source lock: its format, what a reference alone proves, when an entry no longer describes its
// excerpt, and how unverified entries are seeded offline.
import { describe, expect, it } from 'vitest';
import { SourceProblem } from '../../../src/excerpts/errors.ts';
import { type LockEntry, entryMismatch, formatLock, lineHash, parseLock, provenNumbers } from '../../../src/excerpts/lock.ts';
import type { Excerpt } from '../../../src/excerpts/model.ts';
import { parseExcerpt } from '../../../src/excerpts/parse.ts';
import { seedEntry } from '../../../src/excerpts/seed.ts';

async function parse(code: string): Promise<Excerpt> {
  const e = await parseExcerpt(code);
  if (!e) throw new Error('not an excerpt');
  return e;
}

const SANDBOX_ZH = `// Source: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go L38
func (m *kubeGenericRuntimeManager) createPodSandbox(ctx context.Context, pod *v1.Pod, attempt uint32) (string, string, error) {
	logger := klog.FromContext(ctx)
	// 1. 生成 Sandbox 配置
	podSandboxConfig, err := m.generatePodSandboxConfig(ctx, pod, attempt)
	if err != nil {
		// ...
		return "", message, err
	}

	// 2. 创建 Pod 日志目录
	// Create pod logs directory
	err = m.osInterface.MkdirAll(podSandboxConfig.LogDirectory, 0755)
}`;
const SANDBOX_EN = SANDBOX_ZH.replace('// 1. 生成 Sandbox 配置', '// 1. Generate the sandbox config').replace('// 2. 创建 Pod 日志目录', '// 2. Create the pod log directory');

function show(entry: LockEntry): string[] {
  return entry.lines.map((l) => (l.kind === 'upstream' ? String(l.line ?? '?') : l.kind));
}

describe('seeding an unverified entry', () => {
  it('numbers only what the reference proves: from the func line to the first elision; CJK comments are notes', async () => {
    const entry = seedEntry({ excerpt: await parse(SANDBOX_ZH), siblings: [] });
    expect(entry).toMatchObject({ verified: false, hash: null, ref: 38, function: 'createPodSandbox' });
    expect(show(entry)).toEqual(['38', '39', 'note', '40', '41', 'gap', '?', '?', '?', 'note', '?', '?', '?']);
  });

  it('without a sibling, an English numbered comment is the author\'s; another comment is upstream', async () => {
    expect(show(seedEntry({ excerpt: await parse(SANDBOX_EN), siblings: [] })).slice(9, 11)).toEqual(['note', '?']);
  });

  it('with the other language\'s excerpt as sibling, comments found in both are upstream, the rest notes', async () => {
    const en = seedEntry({ excerpt: await parse(SANDBOX_EN), siblings: [await parse(SANDBOX_ZH)] });
    expect(show(en)).toEqual(['38', '39', 'note', '40', '41', 'gap', '?', '?', '?', 'note', '?', '?', '?']);
    const unnumbered = await parse(SANDBOX_EN.replace('// Create pod logs directory', '// the kubelet makes the directory itself'));
    expect(show(seedEntry({ excerpt: unnumbered, siblings: [await parse(SANDBOX_ZH)] }))[10]).toBe('note');
  });

  it('keeps the classification a previous entry made for lines whose text did not change', async () => {
    const excerpt = await parse(SANDBOX_EN);
    const previous = seedEntry({ excerpt, siblings: [] });
    previous.lines[10] = { kind: 'note', hash: lineHash(excerpt.lines[10].text) }; // a maintainer's correction
    const edited = await parse(SANDBOX_EN.replace('\tlogger := klog.FromContext(ctx)\n', '\tlogger := klog.FromContext(ctx)\n\t// an added note\n'));
    const reseeded = seedEntry({ excerpt: edited, previous, siblings: [] });
    expect(reseeded.lines[11]).toEqual({ kind: 'note', hash: lineHash(edited.lines[11].text) });
  });

  it('numbers nothing when the reference gives no line, and counts doc comments backwards from the func line', async () => {
    expect(show(seedEntry({ excerpt: await parse(SANDBOX_ZH.replace(' L38', '')), siblings: [] })).filter((n) => /\d/.test(n))).toEqual([]);
    const doc = await parse('// Source: pkg/a.go L199\n// startContainer starts a container.\n// * pull the image\nfunc (m *M) startContainer() {\n\tx()\n}');
    expect(show(seedEntry({ excerpt: doc, siblings: [] }))).toEqual(['197', '198', '199', '200', '201']);
  });

  it('stops numbering after a line with `...` inside it (the elided arguments may span lines)', async () => {
    const e = await parse('// Source: pkg/a.go L10\nfunc (m *M) f() {\n\tk := m.kill(ctx, ...)\n\tnext()\n}');
    expect(provenNumbers(e, ['upstream', 'upstream', 'upstream', 'upstream'], 10)).toEqual([10, 11, null, null]);
  });
});

describe('an entry that no longer describes its excerpt', () => {
  it('reports an edited line at that line, a changed path, a changed reference and a longer excerpt', async () => {
    const excerpt = await parse(SANDBOX_EN);
    const entry = seedEntry({ excerpt, siblings: [] });
    expect(entryMismatch(excerpt, entry)).toBeUndefined();

    const edited = await parse(SANDBOX_EN.replace('0755)', '0700)'));
    expect(entryMismatch(edited, entry)).toEqual({ line: 11, message: 'this line is not the one the lock recorded here (the excerpt was edited)' });
    expect(entryMismatch(await parse(SANDBOX_EN.replace('kuberuntime_sandbox.go', 'kuberuntime_pod.go')), entry)?.message).toMatch(/the lock pins pkg\/kubelet\/kuberuntime\/kuberuntime_sandbox.go/);
    expect(entryMismatch(await parse(SANDBOX_EN.replace('L38', 'L41')), entry)?.message).toBe('the lock records L38 but the reference says L41');
    expect(entryMismatch(await parse(`${SANDBOX_EN}\n// after the function`), entry)?.message).toMatch(/the lock records 13 lines but the excerpt has 14/);
  });

  it('says "verification found" when a verified entry sits at another line than the reference', async () => {
    const excerpt = await parse(SANDBOX_EN);
    const entry = { ...seedEntry({ excerpt, siblings: [] }), verified: true, ref: 41 };
    expect(entryMismatch(excerpt, entry)?.message).toBe('verification found createPodSandbox at L41 of pkg/kubelet/kuberuntime/kuberuntime_sandbox.go, but the reference says L38');
  });

  it('refuses an unverified entry that claims line numbers its reference does not prove', async () => {
    const excerpt = await parse(SANDBOX_EN);
    const entry = seedEntry({ excerpt, siblings: [] });
    entry.lines[7] = { kind: 'upstream', line: 45, hash: lineHash(excerpt.lines[7].text) };
    expect(entryMismatch(excerpt, entry)).toEqual({ line: 7, message: expect.stringMatching(/not verified and its reference does not prove that number/) });
  });
});

describe('the lock file', () => {
  it('round-trips through its text form, sorted by excerpt id', async () => {
    const entry = seedEntry({ excerpt: await parse(SANDBOX_EN), siblings: [], evidence: 'L38: secondary sources' });
    const lock = { upstream: { repo: 'kubernetes/kubernetes', tag: 'v1.36.2', commit: null }, excerpts: { 'zh/b#f': entry, 'en/a#g': entry } };
    const text = formatLock(lock);
    expect(text.indexOf('"en/a#g"')).toBeLessThan(text.indexOf('"zh/b#f"'));
    expect(text).toContain('"38 ');
    expect(text).toContain('"gap"');
    expect(parseLock(text, 'lock.json')).toEqual(lock);
  });

  it.each([
    ['{', /not valid JSON/],
    ['{"excerpts": {}}', /"upstream" must name the repo and tag/],
    ['{"upstream": {"repo": "k", "tag": "v1"}, "excerpts": {"a#f": {"path": "p.go", "function": "f", "ref": 1, "verified": false, "hash": null, "lines": ["12 xyz"]}}}', /lines\[0\] is "12 xyz"/],
    ['{"upstream": {"repo": "k", "tag": "v1"}, "excerpts": {"a#f": {"path": "p.go", "function": "f", "ref": -4, "verified": false, "hash": null, "lines": []}}}', /"ref" must be a line number or null/],
  ])('names the problem in %s', (text, message) => {
    let err: unknown;
    try {
      parseLock(text, 'content/sources.lock.json');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SourceProblem);
    expect((err as SourceProblem).message).toMatch(message);
    expect((err as SourceProblem).file).toBe('content/sources.lock.json');
  });
});
