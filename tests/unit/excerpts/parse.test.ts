// The excerpt parser on the real Go grammar: references in both forms, the quoted declaration, steps in
// both styles, elisions, calls, and the errors contributors get for bad input.
import { describe, expect, it } from 'vitest';
import { ExcerptError } from '../../../src/excerpts/errors.ts';
import { isExcerptBlock, parseExcerpt } from '../../../src/excerpts/parse.ts';

const SYNC = `// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1450
func (m *kubeGenericRuntimeManager) SyncPod(ctx context.Context, pod *v1.Pod) (result kubecontainer.PodSyncResult) {
	// Step 1: Compute sandbox and container changes.
	podContainerChanges := m.computePodActions(ctx, pod, podStatus)
	// ...

	// Step 2: Kill the pod if the sandbox has changed.
	if podContainerChanges.KillPod {
		killResult := m.killPodWithSyncResult(ctx, pod, ...)
		// ...
	} else {
		// Step 3: kill any running containers in this pod which are not to keep.
		for containerID, containerInfo := range podContainerChanges.ContainersToKill {
			m.killContainer(ctx, pod, containerID, containerInfo.name, ...)
		}
	}

	// Step 4: Create a sandbox for the pod if necessary.
	podSandboxID, msg, err = m.createPodSandbox(ctx, pod, podContainerChanges.Attempt)
}`;

async function parse(code: string, meta?: string) {
  const excerpt = await parseExcerpt(code, { meta });
  if (!excerpt) throw new Error('not an excerpt');
  return excerpt;
}

async function parseError(code: string, meta?: string): Promise<ExcerptError> {
  try {
    await parseExcerpt(code, { meta });
  } catch (err) {
    if (err instanceof ExcerptError) return err;
    throw err;
  }
  throw new Error('expected an ExcerptError');
}

describe('source references', () => {
  it('reads the article form and takes the // Source: line out of the code', async () => {
    const e = await parse(SYNC);
    expect(e.ref).toEqual({ path: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go', line: 1450, form: 'comment' });
    expect(e.offset).toBe(1);
    expect(e.lines[0].text).toMatch(/^func \(m \*kubeGenericRuntimeManager\) SyncPod/);
  });

  it('reads fence meta, quoted or not, and a reference without a line', async () => {
    const body = 'func f() {\n}';
    expect((await parse(body, 'source="pkg/a/b.go#L12"')).ref).toEqual({ path: 'pkg/a/b.go', line: 12, form: 'meta' });
    expect((await parse(body, "title=x source='pkg/a/b.go#L3'")).ref.line).toBe(3);
    expect((await parse(body, 'source=pkg/a/b.go')).ref).toEqual({ path: 'pkg/a/b.go', line: null, form: 'meta' });
    expect((await parse(`// Source: pkg/a/b.go\n${body}`)).ref).toEqual({ path: 'pkg/a/b.go', line: null, form: 'comment' });
    expect((await parse(body, 'source="pkg/a/b.go#L12"')).offset).toBe(0);
  });

  it('accepts both forms when they agree and refuses them when they do not', async () => {
    const code = `// Source: pkg/a/b.go L7\nfunc f() {\n}`;
    expect((await parse(code, 'source="pkg/a/b.go#L7"')).ref.line).toBe(7);
    const err = await parseError(code, 'source="pkg/a/b.go#L8"');
    expect(err.message).toContain('the fence meta says source="pkg/a/b.go#L8"');
    expect(err.hint).toMatch(/give the reference once/);
  });

  it.each([
    ['// Source: kuberuntime_manager.go:1450', /not a relative path to a \.go file/],
    ['// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go line 1450', /expected a path and an optional L<line>/],
    ['// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L14x0', /"L14x0" is not L followed by a line number/],
    ['// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L0', /line 0 is not a line number/],
    ['// Source:', /expected a path/],
    ['// Source: /etc/passwd.go L1', /not a relative path/],
    ['// Source: ../k8s/pkg/a.go L1', /not a relative path/],
  ])('refuses the malformed first line %s with a fix', async (first, message) => {
    const err = await parseError(`${first}\nfunc f() {\n}`);
    expect(err.message).toMatch(message);
    expect(err.message).toContain('malformed source reference');
    expect(err.at.line).toBe(0);
    expect(err.hint).toContain('// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L1450');
  });

  it('refuses malformed fence meta, placed on the fence line', async () => {
    const err = await parseError('func f() {\n}', 'source="pkg/a/b.go#Lten"');
    expect(err.message).toMatch(/"#Lten" is not #L followed by a line number/);
    expect(err.at.line).toBe(-1);
    expect(err.hint).toContain('source="pkg/kubelet/kuberuntime/kuberuntime_manager.go#L1450"');
  });

  it('only Go blocks with a reference are excerpts', () => {
    expect(isExcerptBlock('go', SYNC, null)).toBe(true);
    expect(isExcerptBlock('go', 'func f() {}', 'source="pkg/a.go#L1"')).toBe(true);
    expect(isExcerptBlock('go', 'func f() {}', null)).toBe(false);
    expect(isExcerptBlock('yaml', SYNC, null)).toBe(false);
  });
});

describe('the quoted declaration', () => {
  it('finds a method, its receiver and its extent', async () => {
    const e = await parse(SYNC);
    expect(e.decl).toMatchObject({ kind: 'method', name: 'SyncPod', receiverName: 'm', receiverType: '*kubeGenericRuntimeManager', line: 0 });
    expect(e.decl.endLine).toBe(e.lines.length - 1);
  });

  it('finds a plain function, a type, and a method after its doc comment', async () => {
    expect((await parse('// Source: pkg/a.go L3\nfunc newCrashLoopBackOff(cfg *Config) (time.Duration, time.Duration) {\n\treturn 0, 0\n}')).decl).toMatchObject({ kind: 'func', name: 'newCrashLoopBackOff' });
    expect((await parse('// Source: pkg/a.go L9\ntype podActions struct {\n\tKillPod bool\n}')).decl).toMatchObject({ kind: 'type', name: 'podActions' });
    const doc = await parse('// Source: pkg/a.go L5\n// startContainer starts a container.\n// * pull the image\nfunc (m *kubeGenericRuntimeManager) startContainer(ctx context.Context) (string, error) {\n}');
    expect(doc.decl).toMatchObject({ name: 'startContainer', line: 2 });
  });

  it('refuses an excerpt that quotes no declaration', async () => {
    const err = await parseError('// Source: pkg/a.go L5\nx := 1\ny := 2');
    expect(err.message).toMatch(/no Go declaration in this excerpt/);
  });
});

describe('elisions and the tolerance of elided, invalid Go', () => {
  it('marks `// ...` lines and `...` standing for arguments or composite-literal fields, not real variadics', async () => {
    const e = await parse(`// Source: pkg/a.go L1
func (m *M) f(xs ...string) {
	g(xs...)
	k := m.kill(ctx, pod, ...)
	// ...
	c[id] = info{...}
	...
	arr := [...]int{1, 2}
}`);
    const kinds = e.lines.map((l) => l.kind);
    expect(kinds).toEqual(['code', 'code', 'code', 'elision', 'code', 'elision', 'code', 'code']);
    expect(e.lines[0].elisions).toEqual([]); // variadic parameter
    expect(e.lines[1].elisions).toEqual([]); // variadic argument
    expect(e.lines[2].elisions).toEqual([e.lines[2].text.indexOf('...')]);
    expect(e.lines[4].elisions).toEqual([e.lines[4].text.indexOf('...')]);
    expect(e.lines[6].elisions).toEqual([]); // [...]T
  });

  it('still finds the function, its steps and its calls when elisions break the syntax', async () => {
    const e = await parse(SYNC);
    expect(e.steps.map((s) => s.key)).toEqual(['SyncPod#1', 'SyncPod#2', 'SyncPod#3', 'SyncPod#4']);
    expect(e.calls.map((c) => c.name)).toEqual(['computePodActions', 'killPodWithSyncResult', 'killContainer', 'createPodSandbox']);
  });
});

describe('steps', () => {
  it("reads upstream's `// Step N:` style with key, anchor and the step's own words", async () => {
    const e = await parse(SYNC);
    expect(e.steps[3]).toMatchObject({ key: 'SyncPod#4', anchor: 'syncpod-4', n: 4, text: 'Create a sandbox for the pod if necessary.', style: 'step' });
  });

  it("reads the article's `// N.` style, in Chinese too", async () => {
    const e = await parse(`// Source: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go L38
func (m *kubeGenericRuntimeManager) createPodSandbox(ctx context.Context, pod *v1.Pod, attempt uint32) (string, string, error) {
	// 1. 生成 Sandbox 配置
	podSandboxConfig, err := m.generatePodSandboxConfig(ctx, pod, attempt)
	// 4. 调用 CRI RunPodSandbox
	podSandBoxID, err := m.runtimeService.RunPodSandbox(ctx, podSandboxConfig, runtimeHandler)
	return podSandBoxID, "", nil
}`);
    expect(e.steps.map((s) => [s.key, s.text, s.style])).toEqual([
      ['createPodSandbox#1', '生成 Sandbox 配置', 'numbered'],
      ['createPodSandbox#4', '调用 CRI RunPodSandbox', 'numbered'],
    ]);
  });

  it('ignores numbered comments outside the function (doc comments)', async () => {
    const e = await parse('// Source: pkg/a.go L10\n// SyncPod syncs by executing following steps:\n//  1. Compute sandbox and container changes.\nfunc (m *M) SyncPod() {\n\t// Step 1: Compute.\n\tx()\n}');
    expect(e.steps.map((s) => s.key)).toEqual(['SyncPod#1']);
  });

  it("groups a step's lines until the next step or the end of the block holding it", async () => {
    const e = await parse(SYNC);
    const byKey = Object.fromEntries(e.steps.map((s) => [s.key, e.lines.slice(s.line, s.end).map((l) => l.text.trim())]));
    expect(byKey['SyncPod#1']).toEqual(['// Step 1: Compute sandbox and container changes.', 'podContainerChanges := m.computePodActions(ctx, pod, podStatus)', '// ...', '']);
    // Step 3 sits in the else block: its lines stop at that block's closing brace.
    expect(byKey['SyncPod#3'].at(-1)).toBe('}');
    expect(byKey['SyncPod#3']).toHaveLength(4);
    expect(byKey['SyncPod#4']).toEqual(['// Step 4: Create a sandbox for the pod if necessary.', 'podSandboxID, msg, err = m.createPodSandbox(ctx, pod, podContainerChanges.Attempt)']);
  });

  it('refuses two steps with the same number in one function, naming both lines', async () => {
    const err = await parseError(`// Source: pkg/a.go L1
func (m *M) killContainer() error {
	// 1. choose the grace period
	a()
	// 1. run the PreStop hook
	b()
}`);
    expect(err.message).toBe('step 1 of killContainer appears twice in this excerpt (code lines 3 and 5)');
    expect(err.at).toEqual({ line: 4, column: 2 });
    expect(err.hint).toMatch(/number each step of killContainer once/);
  });
});

describe('calls', () => {
  it("locates each callee's name on its line, in UTF-16 columns after CJK text", async () => {
    const e = await parse(`// Source: pkg/a.go L1
func (m *M) f() {
	x := "沙箱"; m.createPodSandbox(ctx, pod, 0)
	setTerminationGracePeriod(ctx, pod)
}`);
    const sandbox = e.calls.find((c) => c.name === 'createPodSandbox')!;
    expect(e.lines[sandbox.line].text.slice(sandbox.column, sandbox.column + sandbox.length)).toBe('createPodSandbox');
    expect(e.calls.map((c) => c.name)).toEqual(['createPodSandbox', 'setTerminationGracePeriod']);
  });
});
