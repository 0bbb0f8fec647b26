// kubectl get pods rows: the upstream table tests of printPod, case by case.
// Ported from pkg/printers/internalversion/printers_test.go (TestPrintPod,
// TestPrintPodWithRestartableInitContainer, TestPrintPodwide, TestPrintPodConditions); in those tests
// AGE is <unknown> because the creation timestamp is unset.

import { describe, expect, it } from 'vitest';
import { podRowCondition, printPod } from '../../../src/sim/render/table.ts';
import { rfc3339 } from '../../../src/sim/render/clock.ts';
import type { Container, ContainerStatus, Pod, PodCondition } from '../../../src/sim/types.ts';

const NOW = Date.UTC(2026, 7, 4, 12, 0, 0);
const ago = (ms: number) => rfc3339(NOW - ms);
const S = 1000;
const DAY = 86_400_000;

type Status = Partial<Omit<ContainerStatus, 'state' | 'lastState'>> & { state?: ContainerStatus['state']; lastState?: ContainerStatus['lastState'] };

function containers(n: number, names: string[] = []): Container[] {
  return Array.from({ length: n }, (_, i) => ({ name: names[i] ?? '' }) as Container);
}
function st(s: Status): ContainerStatus {
  return { name: '', ready: false, restartCount: 0, image: '', imageID: '', state: {}, lastState: {}, ...s } as ContainerStatus;
}
function mk(o: {
  name: string;
  containers: Container[];
  init?: Container[];
  phase: string;
  reason?: string;
  statuses?: Status[];
  initStatuses?: Status[];
  conditions?: Partial<PodCondition>[];
  deleted?: boolean;
  nodeName?: string;
  nominated?: string;
  podIPs?: string[];
  gates?: string[];
}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: o.name, uid: '', resourceVersion: '', creationTimestamp: '', ...(o.deleted ? { deletionTimestamp: ago(10 * S) } : {}) },
    spec: {
      containers: o.containers,
      ...(o.init ? { initContainers: o.init } : {}),
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...(o.gates ? { readinessGates: o.gates.map((g) => ({ conditionType: g })) } : {}),
    } as Pod['spec'],
    status: {
      phase: o.phase as Pod['status']['phase'],
      ...(o.reason ? { reason: o.reason } : {}),
      ...(o.statuses ? { containerStatuses: o.statuses.map(st) } : {}),
      ...(o.initStatuses ? { initContainerStatuses: o.initStatuses.map(st) } : {}),
      ...(o.conditions ? { conditions: o.conditions as PodCondition[] } : {}),
      ...(o.nominated ? { nominatedNodeName: o.nominated } : {}),
      ...(o.podIPs ? { podIPs: o.podIPs.map((ip) => ({ ip })) } : {}),
    },
  };
}

const running = { running: { startedAt: '' } };
const lastTerm = (ms: number) => ({ terminated: { exitCode: 0, finishedAt: ago(ms) } });
const sidecar = (name: string) => ({ name, restartPolicy: 'Always' }) as Container;

const SUCCEEDED = { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' };
const FAILED = { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' };

describe('printPod — TestPrintPod', () => {
  const cases: [string, Pod, string[], object?][] = [
    ['#1 name, containers, restarts, ready', mk({ name: 'test1', containers: containers(2), phase: 'podPhase', statuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] }), ['test1', '1/2', 'podPhase', '6', '<unknown>']],
    ['#2 a waiting reason overrides the phase', mk({ name: 'test2', containers: containers(2), phase: 'podPhase', statuses: [{ ready: true, restartCount: 3, state: running }, { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }] }), ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>']],
    ['#3 the first container wins', mk({ name: 'test3', containers: containers(2), phase: 'podPhase', statuses: [{ state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }, { state: { terminated: { exitCode: 0, reason: 'ContainerTerminatedReason' } }, restartCount: 3 }] }), ['test3', '0/2', 'ContainerWaitingReason', '6', '<unknown>']],
    ['#4 ready without running is not counted', mk({ name: 'test4', containers: containers(2), phase: 'podPhase', statuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] }), ['test4', '1/2', 'podPhase', '6', '<unknown>']],
    ['#5 status.reason overrides the phase', mk({ name: 'test5', containers: containers(2), phase: 'podPhase', reason: 'podReason', statuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] }), ['test5', '1/2', 'podReason', '6', '<unknown>']],
    ['#6 Completed + running, no Ready condition', mk({ name: 'test6', containers: containers(2), phase: 'Running', statuses: [{ ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } }, { ready: true, restartCount: 3, state: running }] }), ['test6', '1/2', 'NotReady', '6', '<unknown>']],
    ['#7 Completed + running, Ready=True', mk({ name: 'test6', containers: containers(2), phase: 'Running', statuses: [{ ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } }, { ready: true, restartCount: 3, state: running }], conditions: [{ type: 'Ready', status: 'True' }] }), ['test6', '1/2', 'Running', '6', '<unknown>']],
    ['#8 init container restarting', mk({ name: 'test7', init: containers(1), containers: containers(1), phase: 'podPhase', initStatuses: [{ restartCount: 3, state: running, lastState: lastTerm(10 * S) }], statuses: [{ state: { waiting: {} } }] }), ['test7', '0/1', 'Init:0/1', '3 (10s ago)', '<unknown>']],
    ['#9 two init containers, the first restarting', mk({ name: 'test8', init: containers(2), containers: containers(1), phase: 'podPhase', initStatuses: [{ restartCount: 3, state: running, lastState: lastTerm(10 * S) }, { state: { waiting: {} } }], statuses: [{ state: { waiting: {} } }] }), ['test8', '0/1', 'Init:0/2', '3 (10s ago)', '<unknown>']],
    ['#10 first init done, second restarting', mk({ name: 'test9', init: containers(2), containers: containers(1), phase: 'podPhase', initStatuses: [{ state: { terminated: { exitCode: 0 } } }, { restartCount: 3, state: running, lastState: lastTerm(10 * S) }], statuses: [{ state: { waiting: {} } }] }), ['test9', '0/1', 'Init:1/2', '3 (10s ago)', '<unknown>']],
    ['#11 init restarts add up', mk({ name: 'test10', init: containers(2), containers: containers(1), phase: 'podPhase', initStatuses: [{ restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: lastTerm(2 * 60 * S) }, { restartCount: 3, state: running, lastState: lastTerm(10 * S) }], statuses: [{ state: { waiting: {} } }] }), ['test10', '0/1', 'Init:1/2', '5 (10s ago)', '<unknown>']],
    ['#12 init restarts are dropped once initialized', mk({ name: 'test11', init: containers(1), containers: containers(1), phase: 'Running', initStatuses: [{ restartCount: 2, state: { terminated: { exitCode: 0 } }, lastState: lastTerm(2 * 60 * S) }], statuses: [{ restartCount: 4, state: running, lastState: lastTerm(20 * S) }] }), ['test11', '0/1', 'Running', '4 (20s ago)', '<unknown>']],
    ['#13 restarted 5d ago', mk({ name: 'test12', containers: containers(1), phase: 'Running', statuses: [{ ready: true, restartCount: 3, state: running, lastState: lastTerm(5 * DAY) }] }), ['test12', '1/1', 'Running', '3 (5d ago)', '<unknown>']],
    ['#14 restarted 10d ago', mk({ name: 'test13', containers: containers(2), phase: 'Running', statuses: [{ ready: true, state: running }, { ready: true, restartCount: 3, state: running, lastState: lastTerm(10 * DAY) }] }), ['test13', '2/2', 'Running', '3 (10d ago)', '<unknown>']],
    ['#15 the most recent restart wins', mk({ name: 'test14', containers: containers(2), phase: 'Running', statuses: [{ ready: true, restartCount: 6, state: running, lastState: lastTerm(5 * DAY) }, { ready: true, restartCount: 3, state: running, lastState: lastTerm(20 * DAY) }] }), ['test14', '2/2', 'Running', '9 (5d ago)', '<unknown>']],
    ['#16 SchedulingGated', mk({ name: 'test15', containers: containers(2), phase: 'podPhase', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), ['test15', '0/2', 'SchedulingGated', '0', '<unknown>']],
    ['#17 Succeeded', mk({ name: 'test16', containers: containers(1), phase: 'Succeeded', statuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }), ['test16', '0/1', 'Completed', '0', '<unknown>'], SUCCEEDED],
    ['#18 Failed', mk({ name: 'test17', containers: containers(1), phase: 'Failed', statuses: [{ state: { terminated: { reason: 'Error', exitCode: 1 } } }] }), ['test17', '0/1', 'Error', '0', '<unknown>'], FAILED],
    ['#19 deleted but Succeeded stays Completed', mk({ name: 'test18', deleted: true, containers: containers(1), phase: 'Succeeded', statuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }), ['test18', '0/1', 'Completed', '0', '<unknown>'], SUCCEEDED],
    ['#20 deleted and Running is Terminating', mk({ name: 'test19', deleted: true, containers: containers(1), phase: 'Running', statuses: [{ state: running }] }), ['test19', '0/1', 'Terminating', '0', '<unknown>']],
    ['#21 deleted and Pending is Terminating', mk({ name: 'test20', deleted: true, containers: containers(1), phase: 'Pending' }), ['test20', '0/1', 'Terminating', '0', '<unknown>']],
  ];
  it.each(cases)('%s', (_name, pod, cells, condition) => {
    expect(printPod(pod, NOW)).toEqual(cells);
    expect(podRowCondition(pod)).toEqual(condition);
  });
});

describe('printPod — TestPrintPodWithRestartableInitContainer', () => {
  const spec = { init: [sidecar('restartable-init-1'), sidecar('restartable-init-2')], containers: containers(1, ['container']) };
  const cases: [string, Pod, string[], object?][] = [
    ['#22 sidecars not started', mk({ name: 'test1', ...spec, phase: 'Pending', initStatuses: [{ name: 'restartable-init-1', restartCount: 3, state: running, started: false, lastState: lastTerm(10 * S) }, { name: 'restartable-init-2', state: { waiting: {} }, started: false }], statuses: [{ name: 'container', state: { waiting: {} } }], conditions: [{ type: 'Initialized', status: 'False' }] }), ['test1', '0/3', 'Init:0/2', '3 (10s ago)', '<unknown>']],
    ['#23 first sidecar started', mk({ name: 'test1', ...spec, phase: 'Pending', initStatuses: [{ name: 'restartable-init-1', restartCount: 3, state: running, started: true, lastState: lastTerm(10 * S) }, { name: 'restartable-init-2', state: running, started: false }], statuses: [{ name: 'container', state: { waiting: {} } }], conditions: [{ type: 'Initialized', status: 'False' }] }), ['test1', '0/3', 'Init:1/2', '3 (10s ago)', '<unknown>']],
    ['#24 both started, main running', mk({ name: 'test2', ...spec, phase: 'Running', initStatuses: [{ name: 'restartable-init-1', restartCount: 3, state: running, started: true, lastState: lastTerm(10 * S) }, { name: 'restartable-init-2', state: running, started: true }], statuses: [{ name: 'container', ready: true, restartCount: 4, state: running, lastState: lastTerm(20 * S) }], conditions: [{ type: 'Initialized', status: 'True' }] }), ['test2', '1/3', 'Running', '7 (10s ago)', '<unknown>']],
    ['#25 Succeeded with terminated sidecars', mk({ name: 'test3', ...spec, phase: 'Succeeded', initStatuses: [{ name: 'restartable-init-1', restartCount: 3, state: { terminated: { reason: 'Error', exitCode: 137 } }, started: false, lastState: lastTerm(10 * S) }, { name: 'restartable-init-2', state: { terminated: { reason: 'Error', exitCode: 137 } }, started: false }], statuses: [{ name: 'container', restartCount: 4, state: { terminated: { reason: 'Completed', exitCode: 0 } }, lastState: lastTerm(20 * S) }], conditions: [{ type: 'Initialized', status: 'True' }] }), ['test3', '0/3', 'Completed', '7 (10s ago)', '<unknown>'], SUCCEEDED],
    ['#26 statuses of unknown containers', mk({ name: 'test4', init: [{ name: 'init1' } as Container, sidecar('sidecar1')], containers: containers(1, ['container1']), phase: 'Running', initStatuses: [{ name: 'initinvalid' }, { name: 'init1' }, { name: 'sidecar1' }], statuses: [{ name: 'containerinvalid' }, { name: 'container1' }] }), ['test4', '0/2', 'Init:0/2', '0', '<unknown>']],
  ];
  it.each(cases)('%s', (_name, pod, cells, condition) => {
    expect(printPod(pod, NOW)).toEqual(cells);
    expect(podRowCondition(pod)).toEqual(condition);
  });
});

describe('printPod — TestPrintPodwide and TestPrintPodConditions', () => {
  it('#27 IP, node, nominated node and readiness gates (only the first IP shows)', () => {
    const pod = mk({
      name: 'test1', containers: containers(2), phase: 'podPhase', nodeName: 'test1', nominated: 'node1',
      podIPs: ['1.1.1.1', '2001:db8::'], gates: ['condition1', 'condition2', 'condition3'],
      statuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
      conditions: [{ type: 'condition1', status: 'False' }, { type: 'condition2', status: 'True' }, { type: 'condition3', status: 'False' }],
    });
    expect(printPod(pod, NOW, true)).toEqual(['test1', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3']);
  });
  it('#28 no node and no IP print <none>', () => {
    const pod = mk({ name: 'test2', containers: containers(2), phase: 'podPhase', statuses: [{ ready: true, restartCount: 3, state: running }, { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }] });
    expect(printPod(pod, NOW, true)).toEqual(['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>', '<none>', '<none>', '<none>', '<none>']);
  });
  it('#29 Succeeded without container reasons shows the phase', () => {
    const pod = mk({ name: 'test1', containers: containers(2), phase: 'Succeeded', statuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] });
    expect(printPod(pod, NOW)).toEqual(['test1', '1/2', 'Succeeded', '6', '<unknown>']);
    expect(podRowCondition(pod)).toEqual(SUCCEEDED);
  });
  it('#30 Failed without container reasons shows the phase', () => {
    const pod = mk({ name: 'test2', containers: containers(2), phase: 'Failed', statuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] });
    expect(printPod(pod, NOW)).toEqual(['test2', '1/2', 'Failed', '6', '<unknown>']);
    expect(podRowCondition(pod)).toEqual(FAILED);
  });
});

describe('printPod — the article', () => {
  it('crash-test at 8m23s: CrashLoopBackOff, 6 restarts, the last 2m46s ago', () => {
    const created = NOW - (8 * 60 + 23) * S;
    const pod = mk({
      name: 'crash-test', containers: containers(1, ['crash-test']), phase: 'Running',
      statuses: [{ name: 'crash-test', restartCount: 6, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(166 * S) } } }],
    });
    pod.metadata.creationTimestamp = rfc3339(created);
    expect(printPod(pod, NOW)).toEqual(['crash-test', '0/1', 'CrashLoopBackOff', '6 (2m46s ago)', '8m23s']);
  });
});
