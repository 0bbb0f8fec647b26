// The book's own excerpts: every one parses and is pinned, the references are the article's (v1.36.2),
// the lock is honest about what nothing has verified, and every step the simulation emits is quoted in
// both languages.
import { describe, expect, it } from 'vitest';
import { readLock } from '../../../src/excerpts/lock.ts';
import { buildSourceIndex } from '../../../src/excerpts/source-index.ts';
import { STEPS } from '../../../src/sim/steps.ts';

describe('the book', async () => {
  const index = await buildSourceIndex();

  it('has no excerpt problems and pins every excerpt', () => {
    expect(index.problems.map((p) => p.describe())).toEqual([]);
    expect(index.excerpts.length).toBe(18);
    expect(index.excerpts.every((e) => e.pin)).toBe(true);
  });

  it("quotes the article's six functions at their v1.36.2 references, plus doBackOff and the scheduler", () => {
    const refs = Object.fromEntries(index.excerpts.filter((e) => e.lang === 'en').map((e) => [e.name, `${e.path} ${e.source.excerpt.ref.line ?? '?'}`]));
    expect(refs).toEqual({
      SyncPod: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go 1450',
      computePodActions: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go 1175',
      createPodSandbox: 'pkg/kubelet/kuberuntime/kuberuntime_sandbox.go 38',
      startContainer: 'pkg/kubelet/kuberuntime/kuberuntime_container.go 199',
      killContainer: 'pkg/kubelet/kuberuntime/kuberuntime_container.go 860',
      killPodWithSyncResult: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go 1953',
      doBackOff: 'pkg/kubelet/kuberuntime/kuberuntime_manager.go ?',
      ScheduleOne: 'pkg/scheduler/schedule_one.go 67',
      scheduleOnePod: 'pkg/scheduler/schedule_one.go 98',
    });
    const chapters = Object.fromEntries(index.excerpts.filter((e) => e.lang === 'zh').map((e) => [e.name, e.chapter.slug]));
    expect(chapters).toMatchObject({
      SyncPod: 'kubelet-sync',
      computePodActions: 'kubelet-sync',
      createPodSandbox: 'sandbox',
      startContainer: 'containers',
      killContainer: 'deletion',
      killPodWithSyncResult: 'deletion',
      doBackOff: 'restarts',
      ScheduleOne: 'scheduling',
    });
  });

  it('zh and en quote the same upstream lines, and differ only in the annotations', () => {
    for (const zh of index.excerpts.filter((e) => e.lang === 'zh')) {
      const en = index.excerpts.find((e) => e.id === zh.id.replace(/^zh\//, 'en/'))!;
      const upstream = (x: typeof zh) => x.source.excerpt.lines.filter((_, i) => x.pin!.lines[i].kind !== 'note').map((l) => l.text);
      expect(upstream(en), zh.id).toEqual(upstream(zh));
      const notes = (x: typeof zh) => x.pin!.lines.filter((l) => l.kind === 'note').length;
      expect(notes(en), zh.id).toBe(notes(zh));
    }
  });

  it('is pinned to kubernetes/kubernetes v1.36.2, and nothing claims a verification that never happened', () => {
    const lock = readLock('content/sources.lock.json');
    expect(lock.upstream).toEqual({ repo: 'kubernetes/kubernetes', tag: 'v1.36.2', commit: null });
    for (const [id, entry] of Object.entries(lock.excerpts)) {
      expect(entry.verified, id).toBe(false);
      expect(entry.hash, id).toBeNull();
      expect(entry.evidence, id).toBeTruthy();
    }
    // SyncPod's gutter starts at 1450 and stops at the first elision.
    const sync = index.excerpts.find((e) => e.id === 'en/kubelet-sync#SyncPod')!;
    expect(sync.pin!.lines.slice(0, 5).map((l) => (l.kind === 'upstream' ? l.line : l.kind))).toEqual([1450, 1451, 1452, 1453, 'gap']);
  });

  it("quotes SyncPod's real v1.36.2 step comments (5: sandbox ready callback … 9: start containers)", () => {
    expect(index.steps('en').filter((s) => s.key.startsWith('SyncPod#')).map((s) => s.text)).toEqual([
      'Compute sandbox and container changes.',
      'Kill the pod if the sandbox has changed.',
      'kill any running containers in this pod which are not to keep.',
      'Create a sandbox for the pod if necessary.',
      'invoke the sandbox ready callback before image pulling .',
      'start ephemeral containers',
      'start init containers.',
      'For containers in podContainerChanges.ContainersToUpdate[CPU,Memory] list, invoke UpdateContainerResources',
      'start containers in podContainerChanges.ContainersToStart.',
    ]);
  });

  it('quotes every step the simulation emits, in both languages', () => {
    expect(index.missing(Object.keys(STEPS))).toEqual([]);
  });
});
