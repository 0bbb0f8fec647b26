// FailedScheduling messages: pkg/scheduler/framework/types_test.go TestFitError_Error (the FitError format), and the
// scheduler in the engine: NodeResourcesFit, TaintToleration, NodeAffinity, preemption's message, retries.
import { describe, expect, it } from 'vitest';
import { fitErrorMessage } from '../../../src/sim/scheduler/framework.ts';
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
    expect(ev).toMatchObject({ type: 'Warning', message: msg, source: { component: 'default-scheduler' }, action: 'Scheduling' });
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
  it('a pod that stays unschedulable is retried after podMaxInUnschedulablePodsDuration (5 min): the event count grows', () => {
    const e = engineWith({ nodes: [node('w1')] });
    create(e, podManifest('big', { image: 'nginx', resources: { requests: { cpu: '8' } } }));
    e.advanceTo(299_000);
    expect(e.state().events.find((x) => x.reason === 'FailedScheduling')!.count).toBe(1);
    e.advanceTo(331_000);
    expect(e.state().events.find((x) => x.reason === 'FailedScheduling')!.count).toBe(2);
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
