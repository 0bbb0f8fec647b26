// The taint-eviction controller (NoExecute taints), cases after pkg/controller/tainteviction/taint_eviction_test.go
// (TestCreatePod, TestUpdateNode: which pods go, when, and when a pending eviction is cancelled), run through the
// engine: the node is patched as `kubectl taint` patches it, and the pods are watched as the kubelet runs them.
import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../../src/sim/types.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { shown } from '../../../src/sim/commands/shell.ts';
import { create, engineWith, pod, podManifest } from './helpers.ts';

const IMAGE = 'nginx:1.29';
const node = { name: 'w1', ip: '192.168.1.12', podCIDR: '10.244.1.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 }, images: [IMAGE] };

function cluster(tolerations: Toleration[] = []) {
  const e = engineWith({ nodes: [node] });
  create(e, podManifest('p', { image: IMAGE }, tolerations.length ? { tolerations } : {}));
  e.advanceTo(10_000);
  expect(pod(e, 'p')!.status.phase).toBe('Running');
  const taint = (taints: Taint[] | null) => {
    const r = e.apply({ type: 'patch', kind: 'Node', name: 'w1', patchType: 'strategic', patch: { spec: { taints } } });
    expect(r.ok).toBe(true);
  };
  const evictions = () => e.state().events.filter((x) => x.reason === 'TaintManagerEviction').map((x) => x.message);
  return { e, taint, evictions };
}

const noExecute = (key: string, value = ''): Taint => ({ key, ...(value ? { value } : {}), effect: 'NoExecute' });
const tolerate = (key: string, seconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}) });

describe('TestUpdateNode: a NoExecute taint added to the node of a running pod', () => {
  it.each([
    // name, the pod's tolerations, the taints, when the eviction fires (ms after the controller sees the update; -1 never)
    ['Added taint: the pod is deleted at once', [], [noExecute('taint1')], 0],
    ['Added tolerated taint: the pod stays', [tolerate('taint1')], [noExecute('taint1')], -1],
    ['Only one added taint tolerated: the pod goes', [tolerate('taint1')], [noExecute('taint1'), noExecute('taint2')], 0],
    ['A finite toleration: the pod goes when it runs out', [tolerate('taint1', 20)], [noExecute('taint1')], 20_000],
    ['Several tolerations used: the first to run out decides', [tolerate('taint1', 30), tolerate('taint2', 5)], [noExecute('taint1'), noExecute('taint2')], 5_000],
    ['A toleration of zero seconds: at once', [tolerate('taint1', 0)], [noExecute('taint1')], 0],
  ] as [string, Toleration[], Taint[], number][])('%s', (_name, tolerations, taints, after) => {
    const { e, taint, evictions } = cluster(tolerations);
    taint(taints);
    const seen = 10_005; // the watch latency after the patch
    e.advanceTo(seen - 1);
    expect(evictions()).toEqual([]);
    if (after < 0) {
      e.advanceTo(seen + 600_000);
      expect(evictions()).toEqual([]);
      expect(pod(e, 'p')!.metadata.deletionTimestamp).toBeUndefined();
      return;
    }
    if (after > 0) {
      e.advanceTo(seen + after - 1);
      expect(evictions()).toEqual([]);
    }
    e.advanceTo(seen + after);
    expect(evictions()).toEqual(['Marking for deletion Pod default/p']);
    const p = pod(e, 'p')!;
    expect(p.metadata.deletionTimestamp).toBeDefined();
    expect(p.status.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint',
    });
    // an ordinary graceful deletion: the kubelet stops the container, then the pod is gone
    e.advanceTo(seen + after + 40_000);
    expect(pod(e, 'p')).toBeUndefined();
  });
});

describe('a pending eviction', () => {
  it('is cancelled, with an event, when the taint goes before the toleration runs out', () => {
    const { e, taint, evictions } = cluster([tolerate('taint1', 60)]);
    taint([noExecute('taint1')]);
    e.advanceTo(30_000);
    taint(null);
    e.advanceTo(200_000);
    expect(evictions()).toEqual(['Cancelling deletion of Pod default/p']);
    expect(pod(e, 'p')!.status.phase).toBe('Running');
  });
  it('keeps its start when the taints change but the toleration time does not shrink', () => {
    const { e, taint, evictions } = cluster([tolerate('taint1', 30), tolerate('taint2', 60)]);
    taint([noExecute('taint1')]);
    e.advanceTo(20_000);
    // another tolerated taint with a longer toleration: the earlier eviction (at 40.005 s) stands
    taint([noExecute('taint1'), noExecute('taint2')]);
    e.advanceTo(40_004);
    expect(evictions()).toEqual([]);
    e.advanceTo(40_005);
    expect(evictions()).toEqual(['Marking for deletion Pod default/p']);
  });
});

describe('what kubectl shows', () => {
  it('get events lists the eviction; describe pod does not (its reference has no UID)', () => {
    const { e, taint } = cluster();
    taint([noExecute('maintenance', 'true')]);
    e.advanceTo(10_010);
    const ctx = { state: e.state() };
    expect(execute('kubectl get events --field-selector reason=TaintManagerEviction', ctx).stdout).toBe(
      'LAST SEEN   TYPE     REASON                 OBJECT   MESSAGE\n0s          Normal   TaintManagerEviction   pod/p    Marking for deletion Pod default/p\n',
    );
    expect(execute('kubectl get pod p', ctx).stdout).toMatch(/\np +1\/1 +Terminating /);
    expect(execute('kubectl describe pod p', ctx).stdout).not.toContain('TaintManagerEviction');
  });
  it('a new pod is not scheduled onto the tainted node (TaintToleration filters NoExecute too)', () => {
    const { e, taint } = cluster();
    taint([noExecute('maintenance', 'true')]);
    create(e, podManifest('late', { image: IMAGE }));
    e.advanceTo(20_000);
    expect(pod(e, 'late')!.status.conditions![0].message).toContain('1 node(s) had untolerated taint {maintenance: true}');
  });
});

describe('the Eviction API (POST pods/{name}/eviction) and kubectl drain', () => {
  it('an eviction marks the pod DisruptionTarget (EvictionByEvictionAPI) and deletes it with its grace period or the one asked for', () => {
    const { e } = cluster();
    const r = e.apply({ type: 'evict', namespace: 'default', name: 'p', gracePeriodSeconds: 5 });
    expect(r.ok).toBe(true);
    const p = pod(e, 'p')!;
    expect(p.metadata.deletionGracePeriodSeconds).toBe(5);
    expect(p.status.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
    expect(e.apply({ type: 'evict', namespace: 'default', name: 'nope' })).toMatchObject({ ok: false, status: { reason: 'NotFound', code: 404 } });
  });
  it('drain: cordon, then evict what the filters allow; --disable-eviction deletes; emptyDir needs --delete-emptydir-data', () => {
    const e = engineWith({ nodes: [node] });
    create(e, podManifest('scratch', { image: IMAGE, volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] }, { volumes: [{ name: 'tmp', emptyDir: {} }] }));
    create(e, podManifest('done', { image: IMAGE, command: ['sh', '-c', 'exit 0'] }, { restartPolicy: 'Never' }));
    e.advanceTo(10_000);
    expect(pod(e, 'done')!.status.phase).toBe('Succeeded');
    const ctx = { get state() { return e.state(); }, apply: (a: Parameters<typeof e.apply>[0]) => e.apply(a) };
    const refused = execute('kubectl drain w1 --force', ctx);
    expect(refused.stdout).toBe('node/w1 cordoned\n');
    expect(refused.stderr).toBe(
      'error: unable to drain node "w1" due to error: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch, continuing command...\n' +
        'There are pending nodes to be drained:\n w1\ncannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch\n',
    );
    // a finished pod needs neither --force nor a warning; the emptyDir pod is deleted with a warning
    const drained = execute('kubectl drain w1 --force --delete-emptydir-data --disable-eviction', ctx);
    expect(drained).toMatchObject({
      stdout: 'node/w1 already cordoned\npod/done deleted\npod/scratch deleted\nnode/w1 drained\n',
      stderr: 'Warning: deleting Pods that declare no controller: default/scratch\n',
      exitCode: 0,
    });
    // as a terminal shows it: the warning before the deletions (deleteOrEvictPodsSimple prints it first)
    expect(shown(drained)).toBe('node/w1 already cordoned\nWarning: deleting Pods that declare no controller: default/scratch\npod/done deleted\npod/scratch deleted\nnode/w1 drained\n');
    expect(pod(e, 'scratch')!.metadata.deletionTimestamp).toBeDefined();
    expect(pod(e, 'scratch')!.status.conditions!.some((c) => c.type === 'DisruptionTarget')).toBe(false);
  });
});
