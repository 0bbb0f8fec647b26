// FailedScheduling messages: pkg/scheduler/framework/types_test.go TestFitError_Error (the FitError format), and the
// scheduler in the engine: NodeResourcesFit, TaintToleration, NodeAffinity, preemption's message, retries.
import { describe, expect, it } from 'vitest';
import { fitErrorMessage, intolerablePreferNoSchedule, normalizeReverse } from '../../../src/sim/scheduler/framework.ts';
import type { Node, Pod } from '../../../src/sim/types.ts';
import { create, engineWith, pod, podManifest } from './helpers.ts';

describe('TestFitError_Error', () => {
  it('counts per reason, sorted, joined with ", "', () => {
    expect(fitErrorMessage(3, [['Node(s) failed Filter plugin FalseFilter-1'], ['Node(s) failed Filter plugin FalseFilter-1'], ['Node(s) failed Filter plugin FalseFilter-1']])).toBe(
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.',
    );
    expect(fitErrorMessage(3, [['Node(s) failed Filter plugin FalseFilter-1'], ['Node(s) failed Filter plugin FalseFilter-2'], ['Node(s) failed Filter plugin FalseFilter-1']])).toBe(
      '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.',
    );
  });
  it('appends the PostFilter message after the full stop', () => {
    expect(fitErrorMessage(3, [['Node(s) failed Filter plugin FalseFilter-1'], ['Node(s) failed Filter plugin FalseFilter-1'], ['Node(s) failed Filter plugin FalseFilter-1']], 'Error running PostFilter plugin FailedPostFilter')).toBe(
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter',
    );
  });
});

const node = (name: string, extra: Record<string, unknown> = {}) => ({ name, ip: `192.168.1.${name.length + 10}`, podCIDR: `10.244.${name.length}.0/24`, capacity: { cpu: '2', memory: '4Gi', pods: 110 }, ...extra });

describe('FailedScheduling in the engine', () => {
  it('a request above every node\'s allocatable is UnschedulableAndUnresolvable: preemption is not helpful (noderesources/fit.go)', () => {
    const e = engineWith({ nodes: [node('node-a'), node('node-bb'), node('node-ccc')] });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '8' } } }));
    e.advanceTo(2000);
    const p = pod(e, 'big')!;
    const msg = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
    expect(p.status.conditions).toEqual([{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: '2026-08-04T03:00:00Z', reason: 'Unschedulable', message: msg }]);
    const ev = e.state().events.find((x) => x.reason === 'FailedScheduling')!;
    expect(ev).toMatchObject({ type: 'Warning', message: msg, source: {}, reportingComponent: 'default-scheduler', action: 'Scheduling' });
  });
  it('a request that fits the node but not what is left: no preemption victims found (same priority)', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'] })] });
    create(e, podManifest('first', { image: 'nginx:1.29', resources: { requests: { cpu: '1500m', memory: '1Gi' } } }));
    e.advanceTo(3000);
    create(e, podManifest('second', { image: 'nginx:1.29', resources: { requests: { cpu: '1', memory: '4Gi' } } }));
    e.advanceTo(5000);
    // 1 CPU fits the node's 2 (resolvable); 4Gi exceeds its allocatable memory (4Gi - 100Mi reserved): unresolvable
    expect(pod(e, 'second')!.status.conditions![0].message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    create(e, podManifest('third', { image: 'nginx:1.29', resources: { requests: { cpu: '1' } } }));
    e.advanceTo(7000);
    expect(pod(e, 'third')!.status.conditions![0].message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });
  it('lower-priority pods whose removal is not enough: the filters\' reasons (SelectVictimsOnNode)', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'] })] });
    create(e, podManifest('critical', { image: 'nginx:1.29', resources: { requests: { cpu: '1500m' } } }, { priorityClassName: 'system-node-critical' }));
    create(e, podManifest('small', { image: 'nginx:1.29', resources: { requests: { cpu: '250m' } } }));
    e.advanceTo(3000);
    create(e, podManifest('wants', { image: 'nginx:1.29', resources: { requests: { cpu: '1' } } }, { priorityClassName: 'system-cluster-critical' }));
    e.advanceTo(5000);
    // small (priority 0) could go, but 1500m + 1 CPU still exceeds 2: nothing is preempted
    expect(pod(e, 'wants')!.status.conditions![0].message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.',
    );
    expect(pod(e, 'small')).toBeDefined();
    expect(e.state().events.some((x) => x.reason === 'Preempted')).toBe(false);
  });
  it('untolerated taints and node selectors are unresolvable by preemption', () => {
    const e = engineWith({
      nodes: [
        node('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
        node('w1', { capacity: { cpu: '1' } }),
        node('w22', { capacity: { cpu: '1' } }),
      ],
    });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '1500m' } } }));
    create(e, podManifest('picky', { image: 'nginx' }, { nodeSelector: { disk: 'ssd' } }));
    e.advanceTo(2000);
    expect(pod(e, 'big')!.status.conditions![0].message).toBe(
      // 1500m is more than the workers' whole 1 CPU: UnschedulableAndUnresolvable on them too
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect(pod(e, 'picky')!.status.conditions![0].message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });
  it('preemptionPolicy Never is not eligible for preemption', () => {
    const e = engineWith({ nodes: [node('w1')] });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '8' } } }, { preemptionPolicy: 'Never' }));
    e.advanceTo(1000);
    expect(pod(e, 'big')!.status.conditions![0].message).toBe('0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.');
  });
  it('an unschedulable pod is retried when an assigned pod is deleted, and is then bound', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'] })] });
    create(e, podManifest('first', { image: 'nginx:1.29', resources: { requests: { cpu: '1500m' } } }));
    e.advanceTo(3000);
    create(e, podManifest('second', { image: 'nginx:1.29', resources: { requests: { cpu: '1' } } }));
    e.advanceTo(10_000);
    expect(pod(e, 'second')!.spec.nodeName).toBeUndefined();
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'first' });
    e.advanceTo(20_000);
    const second = pod(e, 'second')!;
    expect(second.spec.nodeName).toBe('w1');
    expect(second.status.phase).toBe('Running');
    expect(e.state().events.filter((x) => x.reason === 'Scheduled').map((x) => x.message)).toEqual([
      'Successfully assigned default/first to w1',
      'Successfully assigned default/second to w1',
    ]);
  });
  it('a pod that stays unschedulable is retried after podMaxInUnschedulablePodsDuration (5 min): a new event, then a series', () => {
    const e = engineWith({ nodes: [node('w1')] });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '8' } } }));
    const failures = () => e.state().events.filter((x) => x.reason === 'FailedScheduling');
    e.advanceTo(299_000);
    expect(failures().length).toBe(1);
    // the first failure wrote PodScheduled=False: the retry refers to a newer resourceVersion, so it is not
    // isomorphic to the first event
    e.advanceTo(331_000);
    expect(failures().map((x) => x.series?.count)).toEqual([undefined, undefined]);
    const [a, b] = failures();
    expect(b.involvedObject.resourceVersion).not.toBe(a.involvedObject.resourceVersion);
    // the condition does not change again (updatePod writes nothing), so the next retry joins the second event
    e.advanceTo(661_000);
    expect(failures().map((x) => x.series?.count)).toEqual([undefined, 2]);
    expect(e.state().pods[0].status.conditions!.find((c) => c.type === 'PodScheduled')!.lastTransitionTime).toBe(e.state().pods[0].metadata.creationTimestamp);
  });
  it('a lower-priority pod is preempted for a higher-priority one', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'] })] });
    create(e, podManifest('low', { image: 'nginx:1.29', resources: { requests: { cpu: '1500m' } } }));
    e.advanceTo(3000);
    create(e, podManifest('high', { image: 'nginx:1.29', resources: { requests: { cpu: '1' } } }, { priorityClassName: 'system-cluster-critical' }));
    e.advanceTo(4000);
    expect(pod(e, 'high')!.status.nominatedNodeName).toBe('w1');
    expect(e.state().events.find((x) => x.reason === 'Preempted')?.involvedObject.name).toBe('low');
    e.advanceTo(60_000);
    expect(pod(e, 'low')).toBeUndefined();
    expect(pod(e, 'high')!.spec.nodeName).toBe('w1');
  });
});

describe('schedulePod: one feasible node is used without scoring (schedule_one.go)', () => {
  const selected = (e: ReturnType<typeof engineWith>) => e.trace.find((x) => x.key === 'scheduleOnePod#1')!.detail;
  it('a single feasible node: no score in the trace', () => {
    const e = engineWith({ nodes: [node('w1'), node('w22', { unschedulable: true })] });
    create(e, podManifest('web', { image: 'nginx' }));
    e.advanceTo(100);
    expect(selected(e)).toBe('1/2 nodes feasible; the only one, w1, is used without scoring');
    expect(selected(e)).not.toMatch(/score \d/);
  });
  it('several feasible nodes are scored (LeastAllocated) and the best is selected', () => {
    const e = engineWith({ nodes: [node('w1'), node('w22', { capacity: { cpu: '8', memory: '16Gi' } })] });
    create(e, podManifest('web', { image: 'nginx' }));
    e.advanceTo(100);
    expect(selected(e)).toMatch(/^2\/2 nodes feasible; scored, selected w22 \(score \d+\)$/);
  });
});

// TaintToleration's Score and NormalizeScore (taint_toleration.go; the cases of taint_toleration_test.go
// TestTaintTolerationScore, by what they check): the node's intolerable PreferNoSchedule taints, reversed to 0–100
describe('TaintToleration score (PreferNoSchedule)', () => {
  type T = { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' };
  const nodeWith = (taints: T[]) => ({ spec: { taints } }) as unknown as Node;
  const podWith = (tolerations: (T & { operator?: string })[]) => ({ spec: { containers: [], tolerations } }) as unknown as Pod;
  const scores = (p: Pod, nodes: Node[]) => {
    const counts = nodes.map((n) => intolerablePreferNoSchedule(p, n));
    return counts.map((c) => normalizeReverse(c, Math.max(...counts)));
  };
  it.each([
    ['no taints and no tolerations: every node scores the most', [], [[], []], [100, 100]],
    ['a tolerated taint costs nothing; the more intolerable taints, the lower', [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule', operator: 'Equal' }],
      [[], [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }], [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }, { key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }]], [100, 100, 0]],
    ['only PreferNoSchedule taints count, and only tolerations with that effect or none tolerate them', [{ key: 'foo', value: 'bar', effect: 'NoSchedule', operator: 'Equal' }],
      [[], [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }], [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }, { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]], [100, 100, 0]],
    ['scaled to the node with the most, rounding down before the reversal', [],
      [[], [{ key: 'a', effect: 'PreferNoSchedule' }], [{ key: 'a', effect: 'PreferNoSchedule' }, { key: 'b', effect: 'PreferNoSchedule' }], [{ key: 'a', effect: 'PreferNoSchedule' }, { key: 'b', effect: 'PreferNoSchedule' }, { key: 'c', effect: 'PreferNoSchedule' }]], [100, 67, 34, 0]],
  ] as [string, (T & { operator?: string })[], T[][], number[]][])('%s', (_, tolerations, taints, expected) => {
    expect(scores(podWith(tolerations), taints.map(nodeWith))).toEqual(expected);
  });

  it('in the engine: a pod that does not tolerate the taint goes elsewhere even when the tainted node is emptier; one that does is placed by LeastAllocated', () => {
    const e = engineWith({ nodes: [node('w1', { taints: [{ key: 'dedicated', value: 'batch', effect: 'PreferNoSchedule' }] }), node('w22')] });
    create(e, podManifest('a', { image: 'nginx' }));
    e.advanceTo(100);
    create(e, podManifest('b', { image: 'nginx' }));
    e.advanceTo(200);
    const tolerant = podManifest('tolerant', { image: 'nginx' }) as { spec: Record<string, unknown> };
    tolerant.spec.tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'PreferNoSchedule' }];
    create(e, tolerant);
    e.advanceTo(300);
    expect(['a', 'b', 'tolerant'].map((n) => pod(e, n)!.spec.nodeName)).toEqual(['w22', 'w22', 'w1']);
    const details = e.trace.filter((x) => x.key === 'scheduleOnePod#1').map((x) => x.detail);
    expect(details[1]).toBe('2/2 nodes feasible; scored, selected w22 (score 389: NodeResourcesFit 89, TaintToleration 300)');
    // (w22 holds a: 200m of 2 cpu is 90, 400Mi of 3,996Mi allocatable is 89; their mean rounded down, 89)
  });
});

describe('NodeResourcesFit scores a node by its pods\' non-zero requests (NodeInfo.NonZeroRequested)', () => {
  it('pods without requests count 100m and 200Mi each, so pods created one after another spread over equal nodes', () => {
    const e = engineWith({ nodes: [node('w1'), node('w22')] });
    const placed: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      create(e, podManifest(name, { image: 'nginx' }));
      e.advanceTo(e.now + 100);
      placed.push(pod(e, name)!.spec.nodeName!);
    }
    expect(new Set([placed[0], placed[1]]).size).toBe(2);
    expect(new Set([placed[2], placed[3]]).size).toBe(2);
  });
});

// A node that changes (kubectl label, taint, cordon, uncordon) is an event for the scheduling queue: the Filter
// plugins that rejected a waiting pod say, through their queueing hints, whether the change may help it.
describe('node updates and the scheduling queue (QueueingHints)', () => {
  const attempts = (e: ReturnType<typeof engineWith>, name: string) => e.trace.filter((x) => x.kind === 'PodPopped' && x.object === `pod/default/${name}`).length;
  const patchNode = (e: ReturnType<typeof engineWith>, patch: unknown, name = 'w1') =>
    e.apply({ type: 'patch', kind: 'Node', name, patchType: 'strategic', patch });

  it('NodeAffinity: a label that makes the node match retries the pod at once; an unrelated one does not', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'] })] });
    create(e, podManifest('ssd', { image: 'nginx:1.29' }, { nodeSelector: { disktype: 'ssd' } }));
    e.advanceTo(20_000);
    expect(attempts(e, 'ssd')).toBe(1);
    expect(patchNode(e, { metadata: { labels: { zone: 'a' } } }).ok).toBe(true);
    e.advanceTo(25_000);
    expect(attempts(e, 'ssd')).toBe(1);
    expect(patchNode(e, { metadata: { labels: { disktype: 'ssd' } } }).ok).toBe(true);
    // the scheduler sees the update after the watch latency (5 ms) and runs the cycle (3 ms), then binds
    e.advanceTo(25_004);
    expect(pod(e, 'ssd')!.spec.nodeName).toBeUndefined();
    e.advanceTo(25_100);
    expect(attempts(e, 'ssd')).toBe(2);
    expect(pod(e, 'ssd')!.spec.nodeName).toBe('w1');
  });

  it('NodeResourcesFit is not helped by a label: the pod waits for the 5-minute flush', () => {
    const e = engineWith({ nodes: [node('w1')] });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '8' } } }));
    e.advanceTo(10_000);
    patchNode(e, { metadata: { labels: { disktype: 'ssd' } } });
    e.advanceTo(60_000);
    expect(attempts(e, 'big')).toBe(1);
  });

  it('TaintToleration: removing the untolerated taint retries the pod; a tolerating pod was never held', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'], taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] })] });
    create(e, podManifest('plain', { image: 'nginx:1.29' }));
    create(e, podManifest('gpu', { image: 'nginx:1.29' }, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }));
    e.advanceTo(10_000);
    expect(pod(e, 'gpu')!.spec.nodeName).toBe('w1');
    expect(pod(e, 'plain')!.status.conditions![0].message).toContain("1 node(s) had untolerated taint {dedicated: gpu}");
    patchNode(e, { spec: { taints: null } });
    e.advanceTo(10_100);
    expect(pod(e, 'plain')!.spec.nodeName).toBe('w1');
  });

  it('cordon: the node lifecycle controller taints the node, new pods wait, running ones stay; uncordon lets them in', () => {
    const e = engineWith({ nodes: [node('w1', { images: ['nginx:1.29'] })] });
    create(e, podManifest('running', { image: 'nginx:1.29' }));
    e.advanceTo(12_000);
    expect(patchNode(e, { spec: { unschedulable: true } }).ok).toBe(true);
    const taints = () => e.state().nodes[0].spec.taints;
    expect(taints()).toBeUndefined();
    // the controller patches the node as soon as it sees the update
    e.advanceTo(12_005);
    // stamped with the time the controller added it (SwapNodeControllerTaint)
    expect(taints()).toEqual([{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-08-04T03:00:12Z' }]);
    expect(e.trace.filter((x) => x.kind === 'NodePatched').map((x) => x.actor)).toEqual(['apiserver', 'controller-manager']);
    create(e, podManifest('waiting', { image: 'nginx:1.29' }));
    e.advanceTo(19_999);
    expect(pod(e, 'waiting')!.status.conditions![0].message).toContain('1 node(s) were unschedulable');
    expect(pod(e, 'running')!.status.phase).toBe('Running');
    // the kubelet's node status loop (every 10 s) reports it
    expect(e.state().events.filter((x) => x.involvedObject.kind === 'Node')).toEqual([]);
    e.advanceTo(20_000);
    const nodeEvents = () => e.state().events.filter((x) => x.involvedObject.kind === 'Node').map((x) => [x.reason, x.message, x.source.component, x.metadata.namespace]);
    expect(nodeEvents()).toEqual([['NodeNotSchedulable', 'Node w1 status is now: NodeNotSchedulable', 'kubelet', 'default']]);
    patchNode(e, { spec: { unschedulable: null } });
    e.advanceTo(20_100);
    expect(taints()).toBeUndefined();
    expect(pod(e, 'waiting')!.spec.nodeName).toBe('w1');
    e.advanceTo(30_000);
    expect(nodeEvents()[1]).toEqual(['NodeSchedulable', 'Node w1 status is now: NodeSchedulable', 'kubelet', 'default']);
  });

  it('a node registered cordoned carries the controller\'s taint from the start', () => {
    const e = engineWith({ nodes: [node('w1', { unschedulable: true })] });
    expect(e.state().nodes[0].spec).toMatchObject({ unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: e.state().nodes[0].metadata.creationTimestamp }] });
  });
});

describe('PATCH nodes/{name}: what a node patch may change (ValidateNodeUpdate)', () => {
  const e = engineWith({ nodes: [node('w1')] });
  const patch = (p: unknown, patchType: 'merge' | 'strategic' | 'json' = 'merge') => e.apply({ type: 'patch', kind: 'Node', name: 'w1', patchType, patch: p });
  const message = (r: ReturnType<typeof patch>) => (r.ok ? '' : r.status.message);

  it('labels, annotations, taints and unschedulable change; the status stays the kubelet\'s', () => {
    const before = e.state().nodes[0];
    const r = patch({ metadata: { labels: { a: 'b' }, annotations: { note: 'x' } }, status: { capacity: { cpu: '99' } } });
    expect(r.ok && r.object.metadata.labels!.a).toBe('b');
    expect(e.state().nodes[0].status).toEqual(before.status);
    expect(Number(e.state().nodes[0].metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    expect(patch([{ op: 'add', path: '/metadata/labels/c', value: 'd' }], 'json').ok).toBe(true);
    const same = patch({ metadata: { labels: { a: 'b' } } });
    expect(same.ok && same.unchanged).toBe(true);
  });
  it('refuses what the API server refuses, with its words', () => {
    expect(message(patch({ spec: { taints: [{ key: 'a b', effect: 'Foo' }, { key: 'x', effect: 'NoSchedule' }, { key: 'x', effect: 'NoSchedule' }] } }))).toBe(
      'Node "w1" is invalid: [spec.taints[0].key: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), spec.taints[0].effect: Unsupported value: "Foo": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute", spec.taints[2]: Duplicate value: core.Taint{Key:"x", Value:"", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair]',
    );
    expect(message(patch({ spec: { podCIDR: '10.0.0.0/24' } }))).toBe('Node "w1" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid');
    expect(message(patch({ metadata: { labels: { a: 1 } } }))).toBe('Node in version "v1" cannot be handled as a Node: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    expect(message(patch({ metadata: { resourceVersion: '1' } }))).toMatch(/^Operation cannot be fulfilled on nodes "w1": the object has been modified/);
    expect(e.apply({ type: 'patch', kind: 'Node', name: 'nope', patchType: 'merge', patch: {} })).toMatchObject({ ok: false, status: { reason: 'NotFound', message: 'nodes "nope" not found' } });
  });
  it('says plainly what the model does not keep: node fields beyond labels, annotations, taints and unschedulable', () => {
    expect(message(patch({ spec: { providerID: 'x' } }))).toBe('podlife: a node patch here may change metadata.labels, metadata.annotations, spec.unschedulable and spec.taints; spec.providerID is not modelled');
  });
  it('an engine made without the patch module says so', async () => {
    const { createEngineCore } = await import('../../../src/sim/engine-core.ts');
    const core = createEngineCore({ nodes: [node('w1')] }, { seed: 1 });
    expect(core.apply({ type: 'patch', kind: 'Node', name: 'w1', patchType: 'merge', patch: {} })).toMatchObject({ ok: false, status: { reason: 'InternalError' } });
  });
});
