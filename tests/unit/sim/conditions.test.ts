// Ported from pkg/kubelet/status/generate_test.go (condition generators) and
// pkg/kubelet/kuberuntime/kuberuntime_container_test.go TestKillContainerGracePeriod (setTerminationGracePeriod).
import { describe, expect, it } from 'vitest';
import type { Container, ContainerStatus, Pod, PodCondition } from '../../../src/sim/types.ts';
import {
  generateContainersReadyCondition, generatePodInitializedCondition, generatePodReadyCondition, generatePodReadyToStartContainersCondition,
} from '../../../src/sim/kubelet/status.ts';
import { setTerminationGracePeriod } from '../../../src/sim/kubelet/kuberuntime.ts';
import type { RuntimePodStatus } from '../../../src/sim/kubelet/podstatus.ts';

const spec = (names: string[], init: { name: string; sidecar?: boolean }[] = []): Pod =>
  ({
    metadata: {},
    spec: {
      containers: names.map((name) => ({ name })),
      initContainers: init.map((c) => ({ name: c.name, ...(c.sidecar ? { restartPolicy: 'Always' } : {}) })),
    },
    status: {},
  }) as unknown as Pod;
const st = (name: string, ready: boolean, extra: Partial<ContainerStatus> = {}): ContainerStatus =>
  ({ name, ready, state: {}, lastState: {}, restartCount: 0, image: '', imageID: '', ...extra });

describe('TestGenerateContainersReadyCondition', () => {
  it('nil statuses: False UnknownContainerStatuses', () => {
    expect(generateContainersReadyCondition(spec([]), null, 'Running')).toEqual({ type: 'ContainersReady', status: 'False', reason: 'UnknownContainerStatuses' });
  });
  it('empty statuses, no containers: True', () => {
    expect(generateContainersReadyCondition(spec([]), [], 'Running')).toEqual({ type: 'ContainersReady', status: 'True' });
  });
  it('a container without status: unknown status [1234]', () => {
    expect(generateContainersReadyCondition(spec(['1234']), [], 'Running')).toEqual({
      type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unknown status: [1234]',
    });
  });
  it('one ready, one unready: unready status [5678]', () => {
    expect(generateContainersReadyCondition(spec(['1234', '5678']), [st('1234', true), st('5678', false)], 'Running')).toEqual({
      type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [5678]',
    });
  });
  it('unknown and unready together', () => {
    expect(generateContainersReadyCondition(spec(['1234', '5678', '9']), [st('5678', false)], 'Running').message).toBe(
      'containers with unknown status: [1234 9], containers with unready status: [5678]',
    );
  });
  it('phase Succeeded: False PodCompleted; phase Failed: False PodFailed', () => {
    expect(generateContainersReadyCondition(spec(['1234']), [st('1234', false)], 'Succeeded')).toEqual({ type: 'ContainersReady', status: 'False', reason: 'PodCompleted' });
    expect(generateContainersReadyCondition(spec(['1234']), [st('1234', true)], 'Failed')).toEqual({ type: 'ContainersReady', status: 'False', reason: 'PodFailed' });
  });
  it('restartable init containers count', () => {
    expect(generateContainersReadyCondition(spec(['1234'], [{ name: 'restartable-init-1', sidecar: true }]), [st('1234', true)], 'Running').message).toBe(
      'containers with unknown status: [restartable-init-1]',
    );
  });
});

describe('TestGeneratePodReadyCondition', () => {
  const gated = (conds: PodCondition[]): Pod => {
    const p = spec(['1234']);
    p.spec.readinessGates = [{ conditionType: 'gate1' }];
    p.status.conditions = conds;
    return p;
  };
  const cond = (type: string, status: 'True' | 'False'): PodCondition => ({ type, status, lastProbeTime: null, lastTransitionTime: '' });
  it('copies ContainersReady when it is not True', () => {
    expect(generatePodReadyCondition(spec(['1234']), [], 'Running', [])).toEqual({
      type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unknown status: [1234]',
    });
  });
  it('readiness gate missing', () => {
    expect(generatePodReadyCondition(gated([]), [st('1234', true)], 'Running', [])).toEqual({
      type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "gate1" does not exist.',
    });
  });
  it('readiness gate False', () => {
    const p = gated([cond('gate1', 'False')]);
    expect(generatePodReadyCondition(p, [st('1234', true)], 'Running', p.status.conditions!).message).toBe(
      'the status of pod readiness gate "gate1" is not "True", but False',
    );
  });
  it('readiness gate True and containers ready: True', () => {
    const p = gated([cond('gate1', 'True')]);
    expect(generatePodReadyCondition(p, [st('1234', true)], 'Running', p.status.conditions!)).toEqual({ type: 'Ready', status: 'True' });
  });
  it('gate True but a container unready: ContainersNotReady', () => {
    const p = gated([cond('gate1', 'True')]);
    expect(generatePodReadyCondition(p, [st('1234', false)], 'Running', p.status.conditions!).reason).toBe('ContainersNotReady');
  });
});

describe('TestGeneratePodInitializedCondition', () => {
  it('nil statuses with init containers: False UnknownContainerStatuses', () => {
    expect(generatePodInitializedCondition(spec(['a'], [{ name: 'i' }]), null, 'Pending')).toEqual({ type: 'Initialized', status: 'False', reason: 'UnknownContainerStatuses' });
  });
  it('no init containers: True', () => {
    expect(generatePodInitializedCondition(spec(['a']), [], 'Pending')).toEqual({ type: 'Initialized', status: 'True' });
  });
  it('init container not done: False ContainersNotInitialized', () => {
    expect(generatePodInitializedCondition(spec(['a'], [{ name: 'i1' }, { name: 'i2' }]), [st('i1', true), st('i2', false)], 'Pending')).toEqual({
      type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [i2]',
    });
  });
  it('phase Succeeded: True PodCompleted', () => {
    expect(generatePodInitializedCondition(spec(['a'], [{ name: 'i1' }]), [st('i1', false)], 'Succeeded')).toEqual({ type: 'Initialized', status: 'True', reason: 'PodCompleted' });
  });
  it('restartable init container not started: False; started: True', () => {
    const p = spec(['a'], [{ name: 'r', sidecar: true }]);
    expect(generatePodInitializedCondition(p, [st('r', false, { started: false })], 'Pending').status).toBe('False');
    expect(generatePodInitializedCondition(p, [st('r', false, { started: true })], 'Pending')).toEqual({ type: 'Initialized', status: 'True' });
  });
  it('a regular container that has started means initialized', () => {
    expect(generatePodInitializedCondition(spec(['a'], [{ name: 'i1' }]), [st('i1', false), st('a', false, { state: { running: { startedAt: '' } } })], 'Running').status).toBe('True');
  });
});

describe('TestGeneratePodReadyToStartContainersCondition', () => {
  const rs = (sandboxes: RuntimePodStatus['SandboxStatuses']): RuntimePodStatus => ({ ID: 'u', Name: 'p', Namespace: 'n', IPs: [], SandboxStatuses: sandboxes, ContainerStatuses: [] });
  const sb = (State: 'SANDBOX_READY' | 'SANDBOX_NOTREADY', Ip = '10.0.0.10') => ({ Id: `s-${State}`, State, Attempt: 0, Ip, HostNetwork: false });
  it('Empty pod status: False', () => expect(generatePodReadyToStartContainersCondition(spec(['a']), rs([])).status).toBe('False'));
  it('Pod sandbox status not ready: False', () => expect(generatePodReadyToStartContainersCondition(spec(['a']), rs([sb('SANDBOX_NOTREADY')])).status).toBe('False'));
  it('Pod with multiple ready sandboxes: False', () => expect(generatePodReadyToStartContainersCondition(spec(['a']), rs([sb('SANDBOX_READY'), sb('SANDBOX_READY')])).status).toBe('False'));
  it('Pod sandbox status ready but no IP configured: False', () => expect(generatePodReadyToStartContainersCondition(spec(['a']), rs([sb('SANDBOX_READY', '')])).status).toBe('False'));
  it('Pod sandbox status ready and IP configured: True', () => expect(generatePodReadyToStartContainersCondition(spec(['a']), rs([sb('SANDBOX_READY')]))).toEqual({ type: 'PodReadyToStartContainers', status: 'True' }));
});

describe('TestKillContainerGracePeriod (setTerminationGracePeriod)', () => {
  const shortGrace = 10;
  const mediumGrace = 30;
  const longGrace = 60;
  const probe = (t?: number) => ({ timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, ...(t === undefined ? {} : { terminationGracePeriodSeconds: t }) });
  const make = (podGrace: number | undefined, c: Partial<Container>): [Pod, Container] => {
    const container = { name: 'foo', image: 'busybox', ...c } as Container;
    const pod = { metadata: { name: 'bar' }, spec: { containers: [container], ...(podGrace === undefined ? {} : { terminationGracePeriodSeconds: podGrace }) } } as unknown as Pod;
    return [pod, container];
  };
  it('default termination grace period (nothing set) is the 2 s minimum', () => {
    expect(setTerminationGracePeriod(...make(undefined, {}), '')).toBe(2);
  });
  it('use pod termination grace period', () => {
    expect(setTerminationGracePeriod(...make(longGrace, {}), '')).toBe(longGrace);
  });
  it('liveness probe overrides the pod grace period, even when longer', () => {
    expect(setTerminationGracePeriod(...make(longGrace, { livenessProbe: probe(shortGrace) }), 'LivenessProbe')).toBe(shortGrace);
    expect(setTerminationGracePeriod(...make(shortGrace, { livenessProbe: probe(longGrace) }), 'LivenessProbe')).toBe(longGrace);
  });
  it('startup probe overrides the pod grace period', () => {
    expect(setTerminationGracePeriod(...make(longGrace, { startupProbe: probe(shortGrace) }), 'StartupProbe')).toBe(shortGrace);
  });
  it('a kill for another reason uses the pod grace period', () => {
    expect(setTerminationGracePeriod(...make(longGrace, { livenessProbe: probe(shortGrace) }), 'FailedPostStartHook')).toBe(longGrace);
  });
  it('all three set: each reason picks its own', () => {
    const args = make(longGrace, { startupProbe: probe(shortGrace), livenessProbe: probe(mediumGrace) });
    expect(setTerminationGracePeriod(...args, 'Unknown')).toBe(longGrace);
    expect(setTerminationGracePeriod(...args, 'StartupProbe')).toBe(shortGrace);
    expect(setTerminationGracePeriod(...args, 'LivenessProbe')).toBe(mediumGrace);
  });
  it('a deletion grace period wins', () => {
    const [pod, c] = make(longGrace, { livenessProbe: probe(shortGrace) });
    pod.metadata.deletionGracePeriodSeconds = 5;
    expect(setTerminationGracePeriod(pod, c, 'LivenessProbe')).toBe(5);
  });
});
