// Ported from pkg/kubelet/kubelet_pods_test.go (kubernetes v1.36): TestPodPhaseWithRestartAlways,
// ...InitContainers, ...RestartableInitContainers, ...AndPodHasRun, TestPodPhaseWithRestartNever (+ init variants),
// TestPodPhaseWithRestartOnFailure. Case names are upstream's. podHasInitialized is computed as the kubelet does
// (a regular container has started: it is running or has terminated), which is what the upstream cases encode.
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodPhase } from '../../../src/sim/types.ts';
import { getPhase } from '../../../src/sim/kubelet/status.ts';

const base = (name: string): ContainerStatus => ({ name, state: {}, lastState: {}, ready: false, restartCount: 0, image: '', imageID: '' });
const waitingState = (n: string): ContainerStatus => ({ ...base(n), state: { waiting: {} } });
const waitingStateWithLastTermination = (n: string): ContainerStatus => ({ ...base(n), state: { waiting: {} }, lastState: { terminated: { exitCode: 0 } } });
const waitingStateWithNonZeroTermination = (n: string): ContainerStatus => ({ ...base(n), state: { waiting: {} }, lastState: { terminated: { exitCode: -1 } } });
const runningState = (n: string): ContainerStatus => ({ ...base(n), state: { running: { startedAt: '' } } });
const startedState = (n: string): ContainerStatus => ({ ...runningState(n), started: true });
const stoppedState = (n: string): ContainerStatus => ({ ...base(n), state: { terminated: { exitCode: 0 } } });
const succeededState = (n: string): ContainerStatus => ({ ...base(n), state: { terminated: { exitCode: 0 } } });
const failedState = (n: string): ContainerStatus => ({ ...base(n), state: { terminated: { exitCode: -1 } } });

function pod(restartPolicy: Pod['spec']['restartPolicy'], init: { name: string; sidecar?: boolean }[] = []): Pod {
  return {
    spec: {
      nodeName: 'machine',
      restartPolicy,
      initContainers: init.map((c) => ({ name: c.name, ...(c.sidecar ? { restartPolicy: 'Always' } : {}) })),
      containers: [{ name: 'containerA' }, { name: 'containerB' }],
    },
  } as unknown as Pod;
}

type Case = [string, ContainerStatus[], ContainerStatus[], boolean, PodPhase];

function run(p: Pod, cases: Case[]): void {
  for (const [name, init, regular, terminal, expected] of cases) {
    it(name, () => {
      const hasInitialized = regular.some((s) => p.spec.containers.some((c) => c.name === s.name) && (!!s.state.running || !!s.state.terminated));
      expect(getPhase(p, [...init, ...regular], terminal, hasInitialized)).toBe(expected);
    });
  }
}

describe('TestPodPhaseWithRestartAlways', () => {
  run(pod('Always'), [
    ['waiting', [], [], false, 'Pending'],
    ['all running', [], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['all stopped with restart always', [], [stoppedState('containerA'), stoppedState('containerB')], false, 'Running'],
    ['all succeeded with restart always, but the pod is terminal', [], [succeededState('containerA'), succeededState('containerB')], true, 'Succeeded'],
    ['all stopped with restart always, but the pod is terminal', [], [succeededState('containerA'), failedState('containerB')], true, 'Failed'],
    ['mixed state #1 with restart always', [], [runningState('containerA'), stoppedState('containerB')], false, 'Running'],
    ['mixed state #2 with restart always', [], [runningState('containerA')], false, 'Pending'],
    ['mixed state #3 with restart always', [], [runningState('containerA'), waitingState('containerB')], false, 'Pending'],
    ['backoff crashloop container with restart always', [], [runningState('containerA'), waitingStateWithLastTermination('containerB')], false, 'Running'],
  ]);
});

describe('TestPodPhaseWithRestartAlwaysInitContainers', () => {
  run(pod('Always', [{ name: 'containerX' }]), [
    ['empty, waiting', [], [], false, 'Pending'],
    ['init container running', [runningState('containerX')], [], false, 'Pending'],
    ['init container terminated non-zero', [failedState('containerX')], [], false, 'Pending'],
    ['init container waiting, terminated zero', [waitingStateWithLastTermination('containerX')], [], false, 'Pending'],
    ['init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination('containerX')], [], false, 'Pending'],
    ['init container waiting, not terminated', [waitingState('containerX')], [], false, 'Pending'],
    ['init container succeeded', [succeededState('containerX')], [runningState('containerA'), runningState('containerB')], false, 'Running'],
  ]);
});

describe('TestPodPhaseWithRestartAlwaysRestartableInitContainers', () => {
  run(pod('Always', [{ name: 'containerX', sidecar: true }]), [
    ['empty, waiting', [], [], false, 'Pending'],
    ['restartable init container running', [runningState('containerX')], [], false, 'Pending'],
    ['restartable init container stopped', [stoppedState('containerX')], [], false, 'Pending'],
    ['restartable init container waiting, terminated zero', [waitingStateWithLastTermination('containerX')], [], false, 'Pending'],
    ['restartable init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination('containerX')], [], false, 'Pending'],
    ['restartable init container waiting, not terminated', [waitingState('containerX')], [], false, 'Pending'],
    ['restartable init container started, 1/2 regular container running', [startedState('containerX')], [runningState('containerA')], false, 'Pending'],
    ['restartable init container started, all regular containers running', [startedState('containerX')], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['restartable init container running, all regular containers running', [runningState('containerX')], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['restartable init container stopped, all regular containers running', [stoppedState('containerX')], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['backoff crashloop restartable init container, all regular containers running', [waitingStateWithLastTermination('containerX')], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal', [failedState('containerX')], [succeededState('containerA'), succeededState('containerB')], true, 'Succeeded'],
    ['all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal', [succeededState('containerX')], [succeededState('containerA'), succeededState('containerB')], true, 'Succeeded'],
  ]);
});

describe('TestPodPhaseWithRestartAlwaysAndPodHasRun', () => {
  const p = pod('Always', [{ name: 'containerX' }, { name: 'containerY', sidecar: true }]);
  p.spec.containers = [{ name: 'containerA' } as Pod['spec']['containers'][0]];
  run(p, [
    ['regular init containers, restartable init container and regular container are all running', [runningState('containerX'), runningState('containerY')], [runningState('containerA')], false, 'Pending'],
    ['regular containers is stopped, restartable init container and regular int container are both running', [runningState('containerX'), runningState('containerY')], [stoppedState('containerA')], false, 'Pending'],
    ['regular init container is succeeded, restartable init container is running, regular containers is stopped', [succeededState('containerX'), runningState('containerY')], [stoppedState('containerA')], false, 'Running'],
    ['regular init container is succeeded, restartable init container and regular containers are both running', [succeededState('containerX'), runningState('containerY')], [runningState('containerA')], false, 'Running'],
  ]);
});

describe('TestPodPhaseWithRestartNever', () => {
  run(pod('Never'), [
    ['waiting', [], [], false, 'Pending'],
    ['all running with restart never', [], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['all succeeded with restart never', [], [succeededState('containerA'), succeededState('containerB')], false, 'Succeeded'],
    ['all failed with restart never', [], [failedState('containerA'), failedState('containerB')], false, 'Failed'],
    ['mixed state #1 with restart never', [], [runningState('containerA'), succeededState('containerB')], false, 'Running'],
    ['mixed state #2 with restart never', [], [runningState('containerA')], false, 'Pending'],
    ['mixed state #3 with restart never', [], [runningState('containerA'), waitingState('containerB')], false, 'Pending'],
  ]);
});

describe('TestPodPhaseWithRestartNeverInitContainers', () => {
  run(pod('Never', [{ name: 'containerX' }]), [
    ['empty, waiting', [], [], false, 'Pending'],
    ['init container running', [runningState('containerX')], [], false, 'Pending'],
    ['init container terminated non-zero', [failedState('containerX')], [], false, 'Failed'],
    ['init container waiting, terminated zero', [waitingStateWithLastTermination('containerX')], [], false, 'Pending'],
    ['init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination('containerX')], [], false, 'Failed'],
    ['init container waiting, not terminated', [waitingState('containerX')], [], false, 'Pending'],
    ['init container succeeded', [succeededState('containerX')], [runningState('containerA'), runningState('containerB')], false, 'Running'],
  ]);
});

describe('TestPodPhaseWithRestartNeverRestartableInitContainers', () => {
  run(pod('Never', [{ name: 'containerX', sidecar: true }]), [
    ['empty, waiting', [], [], false, 'Pending'],
    ['restartable init container running', [runningState('containerX')], [], false, 'Pending'],
    ['restartable init container stopped', [stoppedState('containerX')], [], false, 'Pending'],
    ['restartable init container waiting, terminated zero', [waitingStateWithLastTermination('containerX')], [], false, 'Pending'],
    ['restartable init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination('containerX')], [], false, 'Pending'],
    ['restartable init container waiting, not terminated', [waitingState('containerX')], [], false, 'Pending'],
    ['restartable init container started, one main container running', [startedState('containerX')], [runningState('containerA')], false, 'Pending'],
    ['restartable init container started, main containers succeeded', [startedState('containerX')], [succeededState('containerA'), succeededState('containerB')], false, 'Running'],
    ['restartable init container running, main containers succeeded', [runningState('containerX')], [succeededState('containerA'), succeededState('containerB')], false, 'Running'],
    ['all containers succeeded', [succeededState('containerX')], [succeededState('containerA'), succeededState('containerB')], false, 'Succeeded'],
    ['restartable init container terminated non-zero, main containers succeeded', [failedState('containerX')], [succeededState('containerA'), succeededState('containerB')], false, 'Succeeded'],
    ['backoff crashloop restartable init container, main containers succeeded', [waitingStateWithLastTermination('containerX')], [succeededState('containerA'), succeededState('containerB')], false, 'Succeeded'],
    ['backoff crashloop with non-zero restartable init container, main containers succeeded', [waitingStateWithNonZeroTermination('containerX')], [succeededState('containerA'), succeededState('containerB')], false, 'Succeeded'],
  ]);
});

describe('TestPodPhaseWithRestartOnFailure', () => {
  run(pod('OnFailure'), [
    ['waiting', [], [], false, 'Pending'],
    ['all running with restart onfailure', [], [runningState('containerA'), runningState('containerB')], false, 'Running'],
    ['all succeeded with restart onfailure', [], [succeededState('containerA'), succeededState('containerB')], false, 'Succeeded'],
    ['all failed with restart never', [], [failedState('containerA'), failedState('containerB')], false, 'Running'],
    ['mixed state #1 with restart onfailure', [], [runningState('containerA'), succeededState('containerB')], false, 'Running'],
    ['mixed state #2 with restart onfailure', [], [runningState('containerA')], false, 'Pending'],
    ['mixed state #3 with restart onfailure', [], [runningState('containerA'), waitingState('containerB')], false, 'Pending'],
    ['backoff crashloop container with restart onfailure', [], [runningState('containerA'), waitingStateWithLastTermination('containerB')], false, 'Running'],
  ]);
});
