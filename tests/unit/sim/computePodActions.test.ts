// Ported from pkg/kubelet/kuberuntime/kuberuntime_manager_test.go (kubernetes v1.36):
// TestComputePodActions, TestComputePodActionsWithInitContainers, TestComputePodActionsWithRestartableInitContainers,
// TestComputePodActionsWithInitAndEphemeralContainers. Case names are upstream's, verbatim. As upstream's
// verifyActions does, the kill map is compared by container ID and name only (message and reason ignored).
import { describe, expect, it } from 'vitest';
import type { Container, Pod } from '../../../src/sim/types.ts';
import { computePodActions, type PodActions, type ProbeResults } from '../../../src/sim/kubelet/podactions.ts';
import { hashContainer, type RuntimeContainerStatus, type RuntimePodStatus } from '../../../src/sim/kubelet/podstatus.ts';

const c = (name: string, image: string, extra: Partial<Container> = {}): Container => ({ name, image, ...extra }) as Container;

function makeBasePodAndStatus(): { pod: Pod; status: RuntimePodStatus } {
  const pod = {
    metadata: { uid: '12345678', name: 'foo', namespace: 'foo-ns' },
    spec: { containers: [c('foo1', 'busybox'), c('foo2', 'busybox'), c('foo3', 'busybox')], restartPolicy: '' },
    status: {},
  } as unknown as Pod;
  const status: RuntimePodStatus = {
    ID: '12345678', Name: 'foo', Namespace: 'foo-ns', IPs: ['10.0.0.1'],
    SandboxStatuses: [{ Id: 'sandboxID', State: 'SANDBOX_READY', Attempt: 0, Ip: '10.0.0.1', HostNetwork: false }],
    ContainerStatuses: pod.spec.containers.map((ct, i) => cs(`id${i + 1}`, ct, 'running')),
  };
  return { pod, status };
}

function cs(id: string, ct: Container, state: RuntimeContainerStatus['State'], exitCode = 0): RuntimeContainerStatus {
  return { ID: id, Name: ct.name, State: state, CreatedAt: 0, ExitCode: exitCode, Image: ct.image, ImageRef: '', Hash: hashContainer(ct), RestartCount: 0 };
}

function noProbes(): ProbeResults {
  return { liveness: new Map(), startup: new Map() };
}

interface Expected {
  KillPod?: boolean;
  CreateSandbox?: boolean;
  SandboxID: string;
  Attempt?: number;
  InitContainersToStart?: number[];
  ContainersToStart: number[];
  EphemeralContainersToStart?: number[];
  /** container IDs in the kill map */
  kill?: string[];
}

function normalise(a: PodActions) {
  return {
    KillPod: a.KillPod,
    CreateSandbox: a.CreateSandbox,
    SandboxID: a.SandboxID,
    Attempt: a.Attempt,
    InitContainersToStart: a.InitContainersToStart,
    ContainersToStart: a.ContainersToStart,
    EphemeralContainersToStart: a.EphemeralContainersToStart,
    kill: [...a.ContainersToKill.keys()].sort(),
    killNames: [...a.ContainersToKill.entries()].map(([id, k]) => `${id}:${k.name}`).sort(),
  };
}

function expectActions(actual: PodActions, e: Expected, status: RuntimePodStatus): void {
  const n = normalise(actual);
  expect({ ...n, killNames: undefined }).toEqual({
    KillPod: e.KillPod ?? false,
    CreateSandbox: e.CreateSandbox ?? false,
    SandboxID: e.SandboxID,
    Attempt: e.Attempt ?? 0,
    InitContainersToStart: e.InitContainersToStart ?? [],
    ContainersToStart: e.ContainersToStart,
    EphemeralContainersToStart: e.EphemeralContainersToStart ?? [],
    kill: [...(e.kill ?? [])].sort(),
    killNames: undefined,
  });
  // the kill map names the container the status had under that ID
  for (const k of n.killNames) {
    const [id, name] = k.split(':');
    expect(status.ContainerStatuses.find((s) => s.ID === id)?.Name).toBe(name);
  }
}

describe('TestComputePodActions', () => {
  const noAction: Expected = { SandboxID: 'sandboxID', ContainersToStart: [] };
  const cases: [string, (p: Pod) => void, (s: RuntimePodStatus, p: ProbeResults) => void, Expected][] = [
    ['everything is good; do nothing', () => {}, () => {}, noAction],
    ['start pod sandbox and all containers for a new pod', () => {}, (s) => {
      s.SandboxStatuses = [];
      s.ContainerStatuses = [];
    }, { KillPod: true, CreateSandbox: true, SandboxID: '', Attempt: 0, ContainersToStart: [0, 1, 2] }],
    ['restart exited containers if RestartPolicy == Always', (p) => (p.spec.restartPolicy = 'Always'), (s) => {
      s.ContainerStatuses[0] = { ...s.ContainerStatuses[0], State: 'exited', ExitCode: 0 };
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'exited', ExitCode: 111 };
    }, { SandboxID: 'sandboxID', ContainersToStart: [0, 1] }],
    ['restart failed containers if RestartPolicy == OnFailure', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => {
      s.ContainerStatuses[0] = { ...s.ContainerStatuses[0], State: 'exited', ExitCode: 0 };
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'exited', ExitCode: 111 };
    }, { SandboxID: 'sandboxID', ContainersToStart: [1] }],
    ['restart created but not started containers if RestartPolicy == OnFailure', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => {
      s.ContainerStatuses[0] = { ...s.ContainerStatuses[0], State: 'exited', ExitCode: 0 };
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'created' };
    }, { SandboxID: 'sandboxID', ContainersToStart: [1] }],
    ["don't restart containers if RestartPolicy == Never", (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      s.ContainerStatuses[0] = { ...s.ContainerStatuses[0], State: 'exited', ExitCode: 0 };
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'exited', ExitCode: 111 };
    }, noAction],
    ['Kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always', (p) => (p.spec.restartPolicy = 'Always'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, ContainersToStart: [0, 1, 2] }],
    ['Kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead, and RestartPolicy == OnFailure', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'exited', ExitCode: 0 };
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, ContainersToStart: [0, 2] }],
    ['Kill pod and recreate all containers if the PodSandbox does not have an IP', () => {}, (s) => {
      s.SandboxStatuses[0].Ip = '';
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, ContainersToStart: [0, 1, 2] }],
    ["Kill and recreate the container if the container's spec changed", (p) => (p.spec.restartPolicy = 'Always'), (s) => {
      s.ContainerStatuses[1].Hash = '432423432';
    }, { SandboxID: 'sandboxID', ContainersToStart: [1], kill: ['id2'] }],
    ['Kill and recreate the container if the liveness check has failed', (p) => (p.spec.restartPolicy = 'Always'), (s, probes) => {
      probes.liveness.set(s.ContainerStatuses[1].ID, 'Failure');
    }, { SandboxID: 'sandboxID', ContainersToStart: [1], kill: ['id2'] }],
    ['Kill and recreate the container if the startup check has failed', (p) => (p.spec.restartPolicy = 'Always'), (s, probes) => {
      probes.startup.set(s.ContainerStatuses[1].ID, 'Failure');
    }, { SandboxID: 'sandboxID', ContainersToStart: [1], kill: ['id2'] }],
    ['Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited', (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.SandboxStatuses[0].Attempt = 1;
      s.ContainerStatuses = s.ContainerStatuses.map((x) => ({ ...x, State: 'exited', ExitCode: 0 }));
    }, { KillPod: true, CreateSandbox: false, SandboxID: 'sandboxID', Attempt: 2, ContainersToStart: [] }],
    ['Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=OnFailure and all containers succeeded', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.SandboxStatuses[0].Attempt = 1;
      s.ContainerStatuses = s.ContainerStatuses.map((x) => ({ ...x, State: 'exited', ExitCode: 0 }));
    }, { KillPod: true, CreateSandbox: false, SandboxID: 'sandboxID', Attempt: 2, ContainersToStart: [] }],
    ['Verify we create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created', (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.SandboxStatuses[0].Attempt = 2;
      s.ContainerStatuses = [];
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 3, ContainersToStart: [0, 1, 2] }],
    ['Kill and recreate the container if the container is in unknown state', (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'unknown' };
    }, { SandboxID: 'sandboxID', ContainersToStart: [1], kill: ['id2'] }],
    ['Restart the container if the container is in created state', (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      s.ContainerStatuses[1] = { ...s.ContainerStatuses[1], State: 'created' };
    }, { SandboxID: 'sandboxID', ContainersToStart: [1] }],
  ];
  it('has the 17 upstream cases', () => expect(cases.length).toBe(17));
  for (const [name, mutatePod, mutateStatus, expected] of cases) {
    it(name, () => {
      const { pod, status } = makeBasePodAndStatus();
      const probes = noProbes();
      mutatePod(pod);
      mutateStatus(status, probes);
      expectActions(computePodActions(pod, status, probes), expected, status);
    });
  }
});

function makeBasePodAndStatusWithInitContainers() {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [c('init1', 'bar-image'), c('init2', 'bar-image'), c('init3', 'bar-image')];
  status.ContainerStatuses = pod.spec.initContainers.map((ct, i) => cs(`initid${i + 1}`, ct, 'exited'));
  return { pod, status };
}

describe('TestComputePodActionsWithInitContainers', () => {
  const cases: [string, (p: Pod) => void, (s: RuntimePodStatus) => void, Expected][] = [
    ['initialization completed; start all containers', (p) => (p.spec.restartPolicy = 'Always'), () => {},
      { SandboxID: 'sandboxID', ContainersToStart: [0, 1, 2] }],
    ['no init containers have been started; start the first one', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.ContainerStatuses = []),
      { SandboxID: 'sandboxID', InitContainersToStart: [0], ContainersToStart: [] }],
    ['initialization in progress; do nothing', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.ContainerStatuses[2].State = 'running'),
      { SandboxID: 'sandboxID', ContainersToStart: [] }],
    ['Kill pod and restart the first init container if the pod sandbox is dead', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY'),
      { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ['initialization failed; restart the last init container if RestartPolicy == Always', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.ContainerStatuses[2].ExitCode = 137),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['initialization failed; restart the last init container if RestartPolicy == OnFailure', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => (s.ContainerStatuses[2].ExitCode = 137),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['initialization failed; kill pod if RestartPolicy == Never', (p) => (p.spec.restartPolicy = 'Never'), (s) => (s.ContainerStatuses[2].ExitCode = 137),
      { KillPod: true, SandboxID: 'sandboxID', ContainersToStart: [] }],
    ['init container state unknown; kill and recreate the last init container if RestartPolicy == Always', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.ContainerStatuses[2].State = 'unknown'),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [], kill: ['initid3'] }],
    ['init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => (s.ContainerStatuses[2].State = 'unknown'),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [], kill: ['initid3'] }],
    ['init container state unknown; kill pod if RestartPolicy == Never', (p) => (p.spec.restartPolicy = 'Never'), (s) => (s.ContainerStatuses[2].State = 'unknown'),
      { KillPod: true, SandboxID: 'sandboxID', ContainersToStart: [] }],
    ['Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only', (p) => (p.spec.restartPolicy = 'Never'), (s) => (s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY'),
      { KillPod: true, CreateSandbox: false, SandboxID: 'sandboxID', Attempt: 1, ContainersToStart: [] }],
    ['Pod sandbox not ready, and RestartPolicy == Never, but no visible init containers;  create a new pod sandbox', (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses = [];
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ['Pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses[2].ExitCode = 137;
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ["some of the init container statuses are missing but the last init container is running, don't restart preceding ones", (p) => (p.spec.restartPolicy = 'Always'), (s) => {
      s.ContainerStatuses[2].State = 'running';
      s.ContainerStatuses = s.ContainerStatuses.slice(2);
    }, { SandboxID: 'sandboxID', ContainersToStart: [] }],
    ['an init container is in the created state due to an unknown error when starting container; restart it', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.ContainerStatuses[2].State = 'created'),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
  ];
  it('has the 15 upstream cases', () => expect(cases.length).toBe(15));
  for (const [name, mutatePod, mutateStatus, expected] of cases) {
    it(name, () => {
      const { pod, status } = makeBasePodAndStatusWithInitContainers();
      mutatePod(pod);
      mutateStatus(status);
      expectActions(computePodActions(pod, status, noProbes()), expected, status);
    });
  }
});

function makeBasePodAndStatusWithRestartableInitContainers() {
  const { pod, status } = makeBasePodAndStatus();
  const probe = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
  pod.spec.initContainers = [
    c('restartable-init-1', 'bar-image', { restartPolicy: 'Always' }),
    c('restartable-init-2', 'bar-image', { restartPolicy: 'Always', livenessProbe: probe, startupProbe: probe }),
    c('restartable-init-3', 'bar-image', { restartPolicy: 'Always', livenessProbe: probe, startupProbe: probe }),
  ];
  status.ContainerStatuses = pod.spec.initContainers.map((ct, i) => cs(`initid${i + 1}`, ct, 'running'));
  return { pod, status };
}

describe('TestComputePodActionsWithRestartableInitContainers', () => {
  const noAction: Expected = { SandboxID: 'sandboxID', ContainersToStart: [] };
  const always = (p: Pod) => (p.spec.restartPolicy = 'Always');
  const never = (p: Pod) => (p.spec.restartPolicy = 'Never');
  const runningMains = (p: Pod, s: RuntimePodStatus, state: RuntimeContainerStatus['State']) => {
    for (let i = 1; i <= 3; i++) s.ContainerStatuses.push(cs(`id${i}`, p.spec.containers[i - 1], state));
  };
  const cases: [string, (p: Pod) => void, (p: Pod, s: RuntimePodStatus, pr: ProbeResults) => void, Expected][] = [
    ['initialization completed; start all containers', () => {}, () => {}, { SandboxID: 'sandboxID', ContainersToStart: [0, 1, 2] }],
    ['no init containers have been started; start the first one', () => {}, (_p, s) => (s.ContainerStatuses = []),
      { SandboxID: 'sandboxID', InitContainersToStart: [0], ContainersToStart: [] }],
    ['an init container is stuck in the created state; restart it', always, (_p, s) => (s.ContainerStatuses[2].State = 'created'),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['restartable init container has started; start the next', always, (_p, s) => (s.ContainerStatuses = s.ContainerStatuses.slice(0, 1)),
      { SandboxID: 'sandboxID', InitContainersToStart: [1], ContainersToStart: [] }],
    ['livenessProbe has not been run; start the nothing', always, (_p, s, pr) => {
      pr.liveness.delete(s.ContainerStatuses[1].ID);
      s.ContainerStatuses = s.ContainerStatuses.slice(0, 2);
    }, { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['livenessProbe in progress; start the next', always, (_p, s, pr) => {
      pr.liveness.set(s.ContainerStatuses[1].ID, 'Unknown');
      s.ContainerStatuses = s.ContainerStatuses.slice(0, 2);
    }, { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['livenessProbe has completed; start the next', always, (_p, s) => (s.ContainerStatuses = s.ContainerStatuses.slice(0, 2)),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['kill and recreate the restartable init container if the liveness check has failed', always, (_p, s, pr) => pr.liveness.set(s.ContainerStatuses[2].ID, 'Failure'),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [0, 1, 2], kill: ['initid3'] }],
    ['startupProbe has not been run; do nothing', always, (_p, s, pr) => {
      pr.startup.delete(s.ContainerStatuses[1].ID);
      s.ContainerStatuses = s.ContainerStatuses.slice(0, 2);
    }, noAction],
    ['startupProbe in progress; do nothing', always, (_p, s, pr) => {
      pr.startup.set(s.ContainerStatuses[1].ID, 'Unknown');
      s.ContainerStatuses = s.ContainerStatuses.slice(0, 2);
    }, noAction],
    ['startupProbe has completed; start the next', always, (_p, s) => (s.ContainerStatuses = s.ContainerStatuses.slice(0, 2)),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ['kill and recreate the restartable init container if the startup check has failed', always, (_p, s, pr) => pr.startup.set(s.ContainerStatuses[2].ID, 'Failure'),
      { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [], kill: ['initid3'] }],
    ['kill and recreate the restartable init container if the container definition changes', (p) => {
      p.spec.restartPolicy = 'Always';
      p.spec.initContainers![2] = { ...p.spec.initContainers![2], image: 'foo-image' };
    }, () => {}, { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [0, 1, 2], kill: ['initid3'] }],
    ['restart terminated restartable init container and next init container', always, (_p, s) => {
      s.ContainerStatuses[0].State = 'exited';
      s.ContainerStatuses[2].State = 'exited';
    }, { SandboxID: 'sandboxID', InitContainersToStart: [0, 2], ContainersToStart: [] }],
    ['restart terminated restartable init container and regular containers', always, (_p, s) => (s.ContainerStatuses[0].State = 'exited'),
      { SandboxID: 'sandboxID', InitContainersToStart: [0], ContainersToStart: [0, 1, 2] }],
    ['Pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only', never, (_p, s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses[2] = { ...s.ContainerStatuses[2], State: 'exited', ExitCode: 137 };
    }, { KillPod: true, CreateSandbox: false, SandboxID: 'sandboxID', Attempt: 1, ContainersToStart: [] }],
    ['Pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers;  create a new pod sandbox', never, (_p, s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses = [];
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ['Pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod sandbox', (p) => (p.spec.restartPolicy = 'OnFailure'), (_p, s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses[2] = { ...s.ContainerStatuses[2], State: 'exited', ExitCode: 137 };
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ['Pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod sandbox', always, (_p, s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses[2] = { ...s.ContainerStatuses[2], State: 'exited', ExitCode: 137 };
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ["initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never", never, (_p, s) => {
      s.ContainerStatuses[2] = { ...s.ContainerStatuses[2], State: 'exited', ExitCode: 137 };
    }, { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ["restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never", never, (_p, s) => {
      s.ContainerStatuses[2].State = 'unknown';
    }, { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [], kill: ['initid3'] }],
    ["restart restartable init container if regular containers are running even if pod's RestartPolicy == Never", never, (p, s) => {
      s.ContainerStatuses[2] = { ...s.ContainerStatuses[2], State: 'exited', ExitCode: 137 };
      runningMains(p, s, 'running');
    }, { SandboxID: 'sandboxID', InitContainersToStart: [2], ContainersToStart: [] }],
    ["kill the pod if all main containers succeeded if pod's RestartPolicy == Never", never, (p, s) => runningMains(p, s, 'exited'),
      { KillPod: true, SandboxID: 'sandboxID', ContainersToStart: [] }],
    ['some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers', always, (_p, s) => {
      s.ContainerStatuses = s.ContainerStatuses.slice(2);
    }, { SandboxID: 'sandboxID', InitContainersToStart: [0, 1], ContainersToStart: [0, 1, 2] }],
  ];
  it('has the 24 upstream cases', () => expect(cases.length).toBe(24));
  for (const [name, mutatePod, mutateStatus, expected] of cases) {
    it(name, () => {
      const { pod, status } = makeBasePodAndStatusWithRestartableInitContainers();
      const probes = noProbes();
      for (const i of [1, 2]) {
        probes.liveness.set(status.ContainerStatuses[i].ID, 'Success');
        probes.startup.set(status.ContainerStatuses[i].ID, 'Success');
      }
      mutatePod(pod);
      mutateStatus(pod, status, probes);
      expectActions(computePodActions(pod, status, probes), expected, status);
    });
  }
});

function makeBasePodAndStatusWithInitAndEphemeralContainers() {
  const { pod, status } = makeBasePodAndStatus();
  pod.spec.initContainers = [c('init1', 'bar-image')];
  pod.spec.ephemeralContainers = [c('debug', 'busybox')];
  status.ContainerStatuses.push(cs('initid1', pod.spec.initContainers[0], 'exited'), cs('debug1', pod.spec.ephemeralContainers[0], 'running'));
  return { pod, status };
}

describe('TestComputePodActionsWithInitAndEphemeralContainers', () => {
  const noAction: Expected = { SandboxID: 'sandboxID', ContainersToStart: [] };
  const cases: [string, (p: Pod) => void, (s: RuntimePodStatus) => void, Expected][] = [
    ['steady state; do nothing; ignore ephemeral container', () => {}, () => {}, noAction],
    ['No ephemeral containers running; start one', () => {}, (s) => (s.ContainerStatuses = s.ContainerStatuses.slice(0, 4)),
      { SandboxID: 'sandboxID', ContainersToStart: [], EphemeralContainersToStart: [0] }],
    ['Start second ephemeral container', (p) => p.spec.ephemeralContainers!.push(c('debug2', 'busybox')), () => {},
      { SandboxID: 'sandboxID', ContainersToStart: [], EphemeralContainersToStart: [1] }],
    ['Ephemeral container exited; do not restart', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.ContainerStatuses[4].State = 'exited'), noAction],
    ['initialization in progress; start ephemeral container', () => {}, (s) => {
      s.ContainerStatuses[3].State = 'running';
      s.ContainerStatuses = s.ContainerStatuses.slice(0, 4);
    }, { SandboxID: 'sandboxID', ContainersToStart: [], EphemeralContainersToStart: [0] }],
    ['Create a new pod sandbox if the pod sandbox is dead, init container failed and RestartPolicy == OnFailure', (p) => (p.spec.restartPolicy = 'OnFailure'), (s) => {
      s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY';
      s.ContainerStatuses = s.ContainerStatuses.slice(3);
      s.ContainerStatuses[0].ExitCode = 137;
    }, { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ['Kill pod and do not restart ephemeral container if the pod sandbox is dead', (p) => (p.spec.restartPolicy = 'Always'), (s) => (s.SandboxStatuses[0].State = 'SANDBOX_NOTREADY'),
      { KillPod: true, CreateSandbox: true, SandboxID: 'sandboxID', Attempt: 1, InitContainersToStart: [0], ContainersToStart: [] }],
    ['Kill pod if all containers exited except ephemeral container', (p) => (p.spec.restartPolicy = 'Never'), (s) => {
      for (let i = 0; i < 3; i++) s.ContainerStatuses[i] = { ...s.ContainerStatuses[i], State: 'exited', ExitCode: 0 };
    }, { KillPod: true, CreateSandbox: false, SandboxID: 'sandboxID', ContainersToStart: [] }],
    ['Ephemeral container is in unknown state; leave it alone', (p) => (p.spec.restartPolicy = 'Never'), (s) => (s.ContainerStatuses[4].State = 'unknown'), noAction],
  ];
  it('has the 9 upstream cases', () => expect(cases.length).toBe(9));
  for (const [name, mutatePod, mutateStatus, expected] of cases) {
    it(name, () => {
      const { pod, status } = makeBasePodAndStatusWithInitAndEphemeralContainers();
      mutatePod(pod);
      mutateStatus(status);
      expectActions(computePodActions(pod, status, noProbes()), expected, status);
    });
  }
});
