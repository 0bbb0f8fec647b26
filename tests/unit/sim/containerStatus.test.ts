// The fields a v1.36 kubelet writes in every container status besides state and readiness: volumeMounts
// (RecursiveReadOnlyMounts, GA), allocatedResources and resources (InPlacePodVerticalScaling, GA).
// upstream: pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses, convertContainerStatusResources,
//           resolveRecursiveReadOnly
import { describe, expect, it } from 'vitest';
import type { Container, ContainerStatus, Pod, PodStatus, ResourceRequirements } from '../../../src/sim/types.ts';
import { generateAPIPodStatus, terminatePodStatus, type StatusInputs } from '../../../src/sim/kubelet/status.ts';
import type { RuntimeContainerStatus, RuntimePodStatus } from '../../../src/sim/kubelet/podstatus.ts';
import { create, engineWith, pod as podAt, podManifest } from './helpers.ts';
import { pod as fixturePod, ts } from './fixtures.ts';

const SA_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

const inputs: StatusInputs = { readiness: new Map(), startup: new Map(), hostIP: '192.168.114.148', rfc3339: (t) => ts(t) };

function runtimeStatus(containers: Partial<RuntimeContainerStatus>[]): RuntimePodStatus {
  return {
    ID: 'uid', Name: 'p', Namespace: 'default', IPs: ['10.244.5.6'],
    SandboxStatuses: [{ Id: 'sb', State: 'SANDBOX_READY', Attempt: 0, Ip: '10.244.5.6', HostNetwork: false }],
    ContainerStatuses: containers.map((c, i) => ({
      ID: `${i}`.repeat(64), Name: 'c', State: 'running', CreatedAt: 1000, StartedAt: 1000, ExitCode: 0,
      Image: 'docker.io/library/nginx:latest', ImageRef: 'docker.io/library/nginx@sha256:1', Hash: '', RestartCount: 0, ...c,
    })),
  };
}

function podWith(containers: Partial<Container>[], spec: Partial<Pod['spec']> = {}): Pod {
  const base = fixturePod('p').spec.containers[0];
  return fixturePod('p', { spec: { containers: containers.map((c) => ({ ...base, name: 'c', ...c })), ...spec } });
}

const generate = (p: Pod, rs: RuntimePodStatus, old: PodStatus = p.status, applied?: Map<string, ResourceRequirements>) =>
  generateAPIPodStatus(p, rs, old, false, new Map(), inputs, applied);

describe('volumeMounts', () => {
  it('the status written before the runtime knows the container lists the spec mounts; the SA token mount is Disabled', () => {
    const p = podWith([{ volumeMounts: [{ name: 'kube-api-access-6fqlm', mountPath: SA_PATH, readOnly: true }, { name: 'data', mountPath: '/data' }] }]);
    const cs = generate(p, runtimeStatus([])).containerStatuses![0];
    expect(cs.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(cs.volumeMounts).toEqual([
      { name: 'kube-api-access-6fqlm', mountPath: SA_PATH, readOnly: true, recursiveReadOnly: 'Disabled' },
      { name: 'data', mountPath: '/data' }, // readOnly false: neither readOnly nor recursiveReadOnly
    ]);
    // and no resources yet: they come with the runtime's container
    expect('resources' in cs || 'allocatedResources' in cs).toBe(false);
  });

  it('recursiveReadOnly resolves to Enabled for IfPossible and Enabled (a runtime that supports it), Disabled otherwise', () => {
    const p = podWith([{
      volumeMounts: [
        { name: 'a', mountPath: '/a', readOnly: true, recursiveReadOnly: 'IfPossible' },
        { name: 'b', mountPath: '/b', readOnly: true, recursiveReadOnly: 'Enabled' },
        { name: 'c', mountPath: '/c', readOnly: true, recursiveReadOnly: 'Disabled' },
        // resolveRecursiveReadOnly refuses a propagation other than None: logged, and the mount stays Disabled
        { name: 'd', mountPath: '/d', readOnly: true, recursiveReadOnly: 'IfPossible', mountPropagation: 'HostToContainer' },
      ],
    }]);
    const modes = generate(p, runtimeStatus([])).containerStatuses![0].volumeMounts!.map((m) => m.recursiveReadOnly);
    expect(modes).toEqual(['Enabled', 'Enabled', 'Disabled', 'Disabled']);
  });

  it('a status converted from the runtime copies the old status\'s mounts, so a first status from the runtime has none', () => {
    const p = podWith([{}]);
    const first = generate(p, runtimeStatus([{}]), { phase: 'Pending' });
    expect(first.containerStatuses![0].state.running).toBeDefined();
    expect(first.containerStatuses![0].volumeMounts).toBeUndefined();
    // and it stays without: each status copies the one before
    expect(generate(p, runtimeStatus([{}]), first).containerStatuses![0].volumeMounts).toBeUndefined();
    // while a container first written as waiting keeps the spec's mounts once it runs
    const waiting = generate(p, runtimeStatus([]), { phase: 'Pending' });
    const started = generate(p, runtimeStatus([{}]), waiting).containerStatuses![0];
    expect(started.volumeMounts).toBe(waiting.containerStatuses![0].volumeMounts);
  });
});

describe('allocatedResources and resources', () => {
  it('a BestEffort container the runtime reports: resources {}, no allocatedResources', () => {
    const cs = generate(podWith([{}]), runtimeStatus([{}])).containerStatuses![0];
    expect(cs.resources).toEqual({});
    expect('allocatedResources' in cs).toBe(false);
  });

  it('requests become allocatedResources; a running container reports the runtime\'s cpu and memory limit', () => {
    const resources = { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1', memory: '100M' } };
    const p = podWith([{ resources }]);
    const running = generate(p, runtimeStatus([{}])).containerStatuses![0];
    expect(running.allocatedResources).toBe(resources.requests);
    // the memory limit read back from the cgroup is bytes: BinarySI, and 100M is no whole number of Ki
    expect(running.resources).toEqual({ requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1', memory: '100000000' } });
    // a container that is not running shows the allocation itself
    const exited = generate(p, runtimeStatus([{ State: 'exited', ExitCode: 1, FinishedAt: 2000, Reason: 'Error' }])).containerStatuses![0];
    expect(exited.resources).toBe(resources);
  });

  it('keeps the allocated cpu where the cgroup cannot tell it apart (2 shares, a 10m quota)', () => {
    const resources = { requests: { cpu: '1m' }, limits: { cpu: '5m' } };
    const cs = generate(podWith([{ resources }]), runtimeStatus([{}])).containerStatuses![0];
    expect(cs.resources).toBe(resources);
  });

  it('a running container shows what the runtime applied while a resize is in progress, allocatedResources the allocation', () => {
    const resources = { requests: { cpu: '800m', memory: '128Mi' }, limits: { cpu: '800m', memory: '128Mi' } };
    const applied = new Map([['c', { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '500m', memory: '128Mi' } }]]);
    const cs = generate(podWith([{ resources }]), runtimeStatus([{}]), undefined, applied).containerStatuses![0];
    expect(cs.allocatedResources).toEqual({ cpu: '800m', memory: '128Mi' });
    expect(cs.resources).toEqual(applied.get('c'));
  });

  it('init and ephemeral containers follow the same rule', () => {
    const base = fixturePod('p').spec.containers[0];
    const init = { ...base, name: 'init', resources: { requests: { cpu: '100m' } } };
    const debug = { ...base, name: 'debug', resources: {}, volumeMounts: undefined, targetContainerName: 'c' };
    const p = podWith([{}], { initContainers: [init], ephemeralContainers: [debug] });
    const rs = runtimeStatus([
      { Name: 'init', State: 'exited', ExitCode: 0, FinishedAt: 1500 },
      { Name: 'debug' },
    ]);
    const s = generate(p, rs, { phase: 'Pending', initContainerStatuses: generate(p, runtimeStatus([])).initContainerStatuses });
    const i = s.initContainerStatuses![0];
    expect(i.allocatedResources).toEqual({ cpu: '100m' });
    expect(i.resources).toBe(init.resources);
    expect(i.volumeMounts).toEqual([{ name: 'kube-api-access-6fqlm', mountPath: SA_PATH, readOnly: true, recursiveReadOnly: 'Disabled' }]);
    const d = s.ephemeralContainerStatuses![0] as ContainerStatus;
    expect(d.resources).toEqual({});
    expect('volumeMounts' in d || 'allocatedResources' in d || 'started' in d).toBe(false);
  });
});

describe('through the engine', () => {
  it('kubectl run: the first status has the SA mount, the running one resources {} as well', () => {
    const e = engineWith();
    create(e, podManifest('web', { image: 'registry.k8s.io/pause:3.10' }));
    e.advanceTo(10_000);
    const cs = podAt(e, 'web')!.status.containerStatuses![0];
    expect(cs.state.running).toBeDefined();
    expect(cs.resources).toEqual({});
    expect(cs.volumeMounts).toEqual([{ name: expect.stringMatching(/^kube-api-access-[a-z0-9]{5}$/), mountPath: SA_PATH, readOnly: true, recursiveReadOnly: 'Disabled' }]);
    // the key order of v1.ContainerStatus, as the status is built
    expect(Object.keys(cs)).toEqual(['name', 'state', 'lastState', 'ready', 'restartCount', 'image', 'imageID', 'containerID', 'started', 'resources', 'volumeMounts']);
  });
});

// status_manager_test.go TestTerminatePod: TerminatePod gives every container it cannot account for an unknown
// termination; of the init containers, all but the final suffix with no evidence of a start (initializedContainers)
describe('TerminatePod (pkg/kubelet/status/status_manager.go)', () => {
  const unknown = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 } };
  const cs = (name: string, state: ContainerStatus['state'] = {}, lastState: ContainerStatus['lastState'] = {}): ContainerStatus =>
    ({ name, state, lastState, ready: false, restartCount: 0, image: 'busybox', imageID: '' });
  const withInits = (inits: ContainerStatus[]): [Pod, PodStatus] => {
    const p = fixturePod('init');
    p.spec.initContainers = inits.map((s) => ({ name: s.name, image: 'busybox' }) as Container);
    const status: PodStatus = { ...p.status, phase: 'Pending', initContainerStatuses: inits };
    return [p, status];
  };
  it('an init container waiting after a last termination had started: it and every one before it are marked', () => {
    const [p, old] = withInits([
      cs('init-test-1'),
      cs('init-test-2', { terminated: { reason: 'InitTest', exitCode: 0 } }),
      cs('init-test-3', { waiting: { reason: 'InitTest' } }),
      cs('init-test-4', { waiting: { reason: 'InitTest' } }, { terminated: { reason: 'InitTest', exitCode: 0 } }),
    ]);
    const inits = terminatePodStatus(p, old).initContainerStatuses!.map((s) => s.state);
    expect(inits).toEqual([unknown, { terminated: { reason: 'InitTest', exitCode: 0 } }, unknown, unknown]);
  });
  it('a waiting suffix that never started is left waiting, yet the first init container is always marked', () => {
    let [p, old] = withInits([cs('a', { terminated: { reason: 'Completed', exitCode: 0 } }), cs('b', { waiting: { reason: 'PodInitializing' } })]);
    expect(terminatePodStatus(p, old).initContainerStatuses!.map((s) => s.state)).toEqual([{ terminated: { reason: 'Completed', exitCode: 0 } }, { waiting: { reason: 'PodInitializing' } }]);
    [p, old] = withInits([cs('a', { waiting: { reason: 'ImagePullBackOff' } }), cs('b', { waiting: { reason: 'PodInitializing' } })]);
    expect(terminatePodStatus(p, old).initContainerStatuses!.map((s) => s.state)).toEqual([unknown, { waiting: { reason: 'PodInitializing' } }]);
  });
});
