// The verifier against the fixture upstream tree: one excerpt per status, what each reports, how
// `--update` rewrites the lock, and `--fetch` through a real (local) git remote.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../scripts/commands/sources.ts';
import { type ChapterExcerpt, collectBook } from '../../../src/excerpts/collect.ts';
import { readLock } from '../../../src/excerpts/lock.ts';
import { type VerifyResult, verifyExcerpt } from '../../../src/excerpts/verify.ts';
import { FIXTURE_BOOK, FIXTURE_UPSTREAM, capture, copyBook, edit } from './helpers.ts';

let excerpts: ChapterExcerpt[];
const results = new Map<string, VerifyResult>();

beforeAll(async () => {
  ({ excerpts } = await collectBook({ root: FIXTURE_BOOK }));
  for (const e of excerpts) results.set(e.id, await verifyExcerpt(e, FIXTURE_UPSTREAM));
});

function pins(id: string): string[] {
  return results.get(id)!.entry!.lines.map((l) => (l.kind === 'upstream' ? String(l.line) : l.kind));
}

describe('statuses against the fixture upstream', () => {
  it('exact: every line upstream, consecutively, at the referenced line (doc comment included)', () => {
    const r = results.get('en/exact#computePodActions')!;
    expect(r).toMatchObject({ status: 'exact', found: 21, span: { first: 20, last: 31 }, details: [] });
    expect(pins('en/exact#computePodActions')).toEqual(['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31']);
    expect(r.entry).toMatchObject({ verified: true, ref: 21, hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  });

  it('exact with annotations: the author\'s numbered notes are found nowhere upstream and take no number', () => {
    expect(results.get('en/numbered#backOffFor')!.status).toBe('exact');
    expect(pins('en/numbered#backOffFor')).toEqual(['58', '59', 'note', '60', '61', '62', 'note', '63', '64', '65']);
  });

  it('elided: `// ...` skips lines, `...` stands for arguments, a blank after a gap finds its place', () => {
    const r = results.get('en/elided#SyncPod')!;
    expect(r).toMatchObject({ status: 'elided', found: 34, span: { first: 34, last: 55 } });
    expect(pins('en/elided#SyncPod')).toEqual([
      '34', '35', '36', '37', 'gap', '39', '40', '41', 'note', '42', 'gap', '48', '49', '50', '51', '52', '53', '54', '55',
    ]);
    // zh quotes the same upstream lines with a Chinese note: same upstream hash.
    expect(results.get('zh/elided#SyncPod')!.entry!.hash).toBe(r.entry!.hash);
  });

  it('moved: same text at another line, and the new line is reported', () => {
    const r = results.get('en/moved#createPodSandbox')!;
    expect(r).toMatchObject({ status: 'moved', ref: 10, found: 12 });
    expect(r.details).toEqual(['createPodSandbox is now at L12 (the reference says L10)']);
    expect(r.entry!.ref).toBe(12);
  });

  it('changed: a short diff of the quoted line against upstream', () => {
    const r = results.get('en/changed#killContainer')!;
    expect(r.status).toBe('changed');
    expect(r.entry).toBeUndefined();
    expect(r.details).toEqual(['L14  - if grace < 2 {', '     + if grace < minimumGracePeriodInSeconds {']);
  });

  it('gone: the file, or the function in it, no longer exists', () => {
    expect(results.get('en/gone#evictContainers')).toMatchObject({ status: 'gone', details: ['pkg/kubelet/kuberuntime/kuberuntime_gc.go does not exist upstream'] });
    expect(results.get('en/gone#removeContainer')).toMatchObject({
      status: 'gone',
      details: ['pkg/kubelet/kuberuntime/kuberuntime_container.go has no method (*kubeGenericRuntimeManager).removeContainer'],
    });
  });

  it('changed: upstream lines left out without `// ...` are a change, not an elision', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/exact.md', '\tfor idx := range pod.Spec.Containers {\n\t\tchanges.ContainersToStart = append(changes.ContainersToStart, idx)\n\t}\n', '');
    const { excerpts: edited } = await collectBook({ root });
    const r = await verifyExcerpt(edited.find((e) => e.id === 'en/exact#computePodActions')!, FIXTURE_UPSTREAM);
    expect(r.status).toBe('changed');
    expect(r.details[0]).toBe('L27  upstream has 3 line(s) here that the excerpt leaves out without `// ...`:');
  });

  it('elided: `...` may stand for composite-literal fields spanning several upstream lines', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/exact.md', '\tchanges := podActions{\n\t\tKillPod:       gone,\n\t\tCreateSandbox: gone,\n\t}\n', '\tchanges := podActions{...}\n');
    const { excerpts: edited } = await collectBook({ root });
    const r = await verifyExcerpt(edited.find((e) => e.id === 'en/exact#computePodActions')!, FIXTURE_UPSTREAM);
    expect(r.status).toBe('elided');
    expect(r.entry!.lines.map((l) => (l.kind === 'upstream' ? l.line : l.kind)).slice(2, 5)).toEqual([22, 23, 27]);
  });
});

describe('podlife sources verify', () => {
  it('prints one line per excerpt with its status and exits 1 when something moved, changed or is gone', async () => {
    const { result, out } = await capture(() => run(['verify', '--root', FIXTURE_BOOK, '--upstream', FIXTURE_UPSTREAM]));
    expect(result).toBe(1);
    const statuses = out.split('\n').filter((l) => /^\w+\s+\w\w\//.test(l)).map((l) => l.split(/\s+/).slice(0, 2).join(' '));
    expect(statuses).toEqual([
      'exact en/exact#computePodActions',
      'elided en/elided#SyncPod',
      'exact en/numbered#backOffFor',
      'moved en/moved#createPodSandbox',
      'changed en/changed#killContainer',
      'gone en/gone#evictContainers',
      'gone en/gone#removeContainer',
      'elided zh/elided#SyncPod',
    ]);
    expect(out).toContain('L10 → L12  (change the reference at content/chapters/en/moved.md:8 to L12)');
    expect(out).toContain('- if grace < 2 {');
    expect(out).toContain('4 excerpt(s) need attention');
  });

  it('tells where to add the line when a reference has none', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', 'kuberuntime_manager.go L58', 'kuberuntime_manager.go');
    const { out } = await capture(() => run(['verify', '--root', root, '--upstream', FIXTURE_UPSTREAM]));
    expect(out).toMatch(/^exact\s+en\/numbered#backOffFor .* L58-L65  \(the reference at content\/chapters\/en\/numbered\.md:8 gives no line: add L58\)$/m);
  });

  it('exits 0 when every excerpt matches', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/moved.md', 'L10', 'L12');
    edit(root, 'content/chapters/en/changed.md', 'if grace < 2 {', 'if grace < minimumGracePeriodInSeconds {');
    execFileSync('rm', [path.join(root, 'content/chapters/en/gone.md')]);
    const { result, out } = await capture(() => run(['verify', '--root', root, '--upstream', FIXTURE_UPSTREAM]));
    expect(out).not.toMatch(/^(moved|changed|gone)/m);
    expect(result).toBe(0);
  });

  it('--update records verified entries and pins the rest as not yet verified', async () => {
    const root = copyBook();
    const { out } = await capture(() => run(['verify', '--root', root, '--upstream', FIXTURE_UPSTREAM, '--update']));
    expect(out).toMatch(/updated content\/sources\.lock\.json: 5 verified/);
    const lock = readLock(path.join(root, 'content/sources.lock.json'));
    expect(lock.excerpts['en/exact#computePodActions']).toMatchObject({ verified: true, ref: 21 });
    expect(lock.excerpts['en/changed#killContainer']).toMatchObject({ verified: false, hash: null });
    expect(lock.excerpts['en/moved#createPodSandbox']).toMatchObject({ verified: true, ref: 12 });
    expect(lock.upstream.commit).toBeNull(); // the fixture tree is not a git checkout of the tag
  });

  it('offline: says what the lock pins, and --update pins a new excerpt unverified', async () => {
    const root = copyBook();
    edit(root, 'content/chapters/en/numbered.md', '```go\n', '```go\n// Source: pkg/kubelet/kuberuntime/kuberuntime_manager.go L21\nfunc (m *kubeGenericRuntimeManager) computePodActions(ctx context.Context, pod *v1.Pod) podActions {\n\t// ...\n}\n```\n\n```go\n');
    const before = await capture(() => run(['verify', '--root', root]));
    expect(before.result).toBe(1);
    expect(before.out).toMatch(/^unpinned en\/numbered#computePodActions/m);
    expect(before.out).toMatch(/is not in content\/sources\.lock\.json/);
    expect(before.out).toMatch(/^pinned\s+en\/exact#computePodActions .* verified L20-L31/m);

    const update = await capture(() => run(['verify', '--root', root, '--update']));
    expect(update.out).toMatch(/1 added/);
    const after = await capture(() => run(['verify', '--root', root]));
    expect(after.result).toBe(0);
    expect(after.out).toMatch(/^pinned\s+en\/numbered#computePodActions .* unverified L21$/m);
  });

  it('refuses bad usage and reports a missing lock with what to run', async () => {
    await expect(run(['verify', '--upstream'])).rejects.toThrow(/--upstream needs a value/);
    await expect(run(['verify', '--fetch', '--upstream', 'x'])).rejects.toThrow(/either --upstream <dir> or --fetch/);
    await expect(run(['check'])).rejects.toThrow(/unknown subcommand "sources check"/);
    const root = copyBook();
    execFileSync('rm', [path.join(root, 'content/sources.lock.json')]);
    const { result, err } = await capture(() => run(['verify', '--root', root]));
    expect(result).toBe(1);
    expect(err).toContain('content/sources.lock.json: the source lock is missing');
    expect(err).toContain('npm run sources:verify -- --update');
  });

  it('--fetch makes a shallow sparse clone of the pinned tag and verifies against it', async () => {
    const remote = mkdtempSync(path.join(tmpdir(), 'podlife-remote-'));
    cpSync(FIXTURE_UPSTREAM, remote, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: remote, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'fixture');
    git('tag', 'v1.36.2');
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: remote, encoding: 'utf8' }).trim();

    const root = copyBook();
    const { result, out } = await capture(() =>
      run(['verify', '--root', root, '--fetch', '--remote', `file://${remote}`, '--cache', '.cache/up', '--update']),
    );
    expect(result).toBe(1); // the fixture book holds moved, changed and gone excerpts on purpose
    expect(out).toMatch(/^exact\s+en\/exact#computePodActions/m);
    const clone = path.join(root, '.cache/up', `${path.basename(remote)}-v1.36.2`);
    expect(existsSync(path.join(clone, 'pkg/kubelet/kuberuntime/kuberuntime_manager.go'))).toBe(true);
    expect(existsSync(path.join(clone, 'README.md'))).toBe(false); // sparse: only the quoted paths are checked out
    expect(readLock(path.join(root, 'content/sources.lock.json')).upstream.commit).toBe(commit);
    expect(readFileSync(path.join(clone, '.git/shallow'), 'utf8').trim()).toBe(commit);
  });

  it('--fetch says what to do when the tag cannot be cloned', async () => {
    const root = copyBook();
    const { result, err } = await capture(() => run(['verify', '--root', root, '--fetch', '--remote', `file://${path.join(root, 'no-such-repo')}`]));
    expect(result).toBe(1);
    expect(err).toMatch(/could not clone .* at v1\.36\.2/);
    expect(err).toMatch(/verify against a local checkout with --upstream <dir>/);
  });
});
