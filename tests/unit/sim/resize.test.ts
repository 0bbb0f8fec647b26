// In-place pod resize. Ported tables: TestComputePodActionsForPodResize (pkg/kubelet/kuberuntime/
// kuberuntime_manager_test.go; case names are upstream's) and the API errors of doPodResizeErrorTests
// (test/e2e/common/node/pod_resize.go). Then the whole path through the engine: the resize subresource, the
// kubelet's admission, SyncPod step 8 and the status.
import { describe, expect, it } from 'vitest';
import type { Container, Pod, ResourceRequirements } from '../../../src/sim/types.ts';
import { computePodActions, type PodActions } from '../../../src/sim/kubelet/podactions.ts';
import { hashContainer, type RuntimeContainerStatus, type RuntimePodStatus } from '../../../src/sim/kubelet/podstatus.ts';
import {
  computePodResizeAction, doPodResizeAction, handlePodResourcesResize, linuxContainerResources, containerResources, podResizeMessage, retryPendingResizes,
  type PodResize,
} from '../../../src/sim/kubelet/resize.ts';
import type { NodeEnv } from '../../../src/sim/kubelet/env.ts';
import { createEngineCore } from '../../../src/sim/engine-core.ts';
import type { Engine } from '../../../src/sim/types.ts';
import { NODE, create, engineWith, pod as podAt, podManifest } from './helpers.ts';
import { node as fixtureNode } from './fixtures.ts';

// ---------------------------------------------------------------------------------------------------------------
// TestComputePodActionsForPodResize

const container = (name: string, over: Partial<Container> = {}): Container => ({ name, image: 'busybox', resources: {}, ...over }) as Container;

function basePod(): { pod: Pod; status: RuntimePodStatus } {
  const pod = {
    metadata: { uid: '12345678', name: 'foo', namespace: 'foo-ns' },
    spec: { containers: [container('foo1'), container('foo2'), container('foo3')], restartPolicy: 'Always' },
    status: {},
  } as unknown as Pod;
  const status: RuntimePodStatus = {
    ID: '12345678', Name: 'foo', Namespace: 'foo-ns', IPs: ['10.0.0.1'],
    SandboxStatuses: [{ Id: 'sandboxID', State: 'SANDBOX_READY', Attempt: 0, Ip: '10.0.0.1', HostNetwork: false }],
    ContainerStatuses: pod.spec.containers.map((c, i): RuntimeContainerStatus => ({
      ID: `id${i + 1}`, Name: c.name, State: 'running', CreatedAt: 0, ExitCode: 0, Image: 'docker.io/library/busybox:latest', ImageRef: '', Hash: hashContainer(c), RestartCount: 0,
    })),
  };
  return { pod, status };
}

const cpuPolicy = (restartPolicy: 'NotRequired' | 'RestartContainer') => ({ resourceName: 'cpu', restartPolicy });
const memPolicy = (restartPolicy: 'NotRequired' | 'RestartContainer') => ({ resourceName: 'memory', restartPolicy });

interface ResizeCase {
  /** the second container's spec resources (the allocation) and resize policy */
  resources: ResourceRequirements;
  resizePolicy?: Container['resizePolicy'];
  /** what the runtime applied to it (setupActuatedResources) */
  actuated: ResourceRequirements;
  update?: ('cpu' | 'memory')[];
  restart?: boolean;
}

const RESIZE_CASES: Record<string, ResizeCase> = {
  'Update container CPU and memory resources': {
    resources: { limits: { cpu: '100m', memory: '100Mi' } }, actuated: { limits: { cpu: '200m', memory: '200Mi' } }, update: ['memory', 'cpu'],
  },
  'Update container CPU resources': {
    resources: { limits: { cpu: '100m', memory: '100Mi' } }, actuated: { limits: { cpu: '200m', memory: '100Mi' } }, update: ['cpu'],
  },
  'Update container memory resources': {
    resources: { limits: { cpu: '200m', memory: '200Mi' } }, actuated: { limits: { cpu: '200m', memory: '100Mi' } }, update: ['memory'],
  },
  'Nothing when spec.Resources and status.Resources are equal': {
    resources: { limits: { cpu: '200m' } }, actuated: { limits: { cpu: '200m' } },
  },
  'Nothing when spec.Resources and status.Resources are equivalent': {
    resources: {}, actuated: { requests: { cpu: '2m' } },
  },
  'Update container CPU resources to equivalent value': {
    resources: { requests: { cpu: '1m' } }, actuated: { requests: { cpu: '2m' } },
  },
  'Update container CPU and memory resources with Restart policy for CPU': {
    resizePolicy: [cpuPolicy('RestartContainer'), memPolicy('NotRequired')],
    resources: { limits: { cpu: '200m', memory: '200Mi' } }, actuated: { limits: { cpu: '100m', memory: '100Mi' } }, restart: true,
  },
  'Update container CPU and memory resources with Restart policy for memory': {
    resizePolicy: [cpuPolicy('NotRequired'), memPolicy('RestartContainer')],
    resources: { limits: { cpu: '200m', memory: '200Mi' } }, actuated: { limits: { cpu: '100m', memory: '100Mi' } }, restart: true,
  },
  'Update container memory resources with Restart policy for CPU': {
    resizePolicy: [cpuPolicy('RestartContainer'), memPolicy('NotRequired')],
    resources: { limits: { cpu: '100m', memory: '200Mi' } }, actuated: { limits: { cpu: '100m', memory: '100Mi' } }, update: ['memory'],
  },
  'Update container CPU resources with Restart policy for memory': {
    resizePolicy: [cpuPolicy('NotRequired'), memPolicy('RestartContainer')],
    resources: { limits: { cpu: '200m', memory: '100Mi' } }, actuated: { limits: { cpu: '100m', memory: '100Mi' } }, update: ['cpu'],
  },
};

describe('TestComputePodActionsForPodResize', () => {
  for (const [desc, tc] of Object.entries(RESIZE_CASES)) {
    it(desc, () => {
      const { pod, status } = basePod();
      pod.spec.containers[1] = container('foo2', { resources: tc.resources, resizePolicy: tc.resizePolicy });
      const actuated = new Map(pod.spec.containers.map((c) => [c.name, c.resources]));
      actuated.set('foo2', tc.actuated);
      const probes = { liveness: new Map(), startup: new Map() };
      const a: PodActions = computePodActions(pod, status, probes, (idx, s, ch) => computePodResizeAction(pod, idx, s, actuated, ch));
      expect(a.KillPod).toBe(false);
      expect(a.CreateSandbox).toBe(false);
      expect(a.SandboxID).toBe('sandboxID');
      if (tc.restart) {
        expect(a.ContainersToStart).toEqual([1]);
        expect([...a.ContainersToKill.keys()]).toEqual(['id2']);
        expect(a.ContainersToKill.get('id2')!.message).toBe('Container foo2 resize requires restart');
        expect(a.UpdatePodResources).toBe(true);
        expect(a.ContainersToUpdate).toBeUndefined();
        return;
      }
      expect(a.ContainersToStart).toEqual([]);
      expect(a.ContainersToKill.size).toBe(0);
      if (!tc.update) {
        expect(a.ContainersToUpdate).toBeUndefined();
        return;
      }
      expect(Object.keys(a.ContainersToUpdate!).sort()).toEqual([...tc.update].sort());
      for (const r of tc.update) {
        const [info] = a.ContainersToUpdate![r]!;
        expect(a.ContainersToUpdate![r]).toHaveLength(1);
        expect(info.id).toBe('id2');
        expect(info.desired).toEqual(containerResources(tc.resources));
        expect(info.current).toEqual(containerResources(tc.actuated));
      }
    });
  }

  it('orders decreases before increases within a resource', () => {
    const { pod, status } = basePod();
    pod.spec.containers[0] = container('foo1', { resources: { limits: { cpu: '300m' } } });
    pod.spec.containers[1] = container('foo2', { resources: { limits: { cpu: '100m' } } });
    const actuated = new Map<string, ResourceRequirements>([['foo1', { limits: { cpu: '200m' } }], ['foo2', { limits: { cpu: '200m' } }], ['foo3', {}]]);
    const a = computePodActions(pod, status, { liveness: new Map(), startup: new Map() }, (idx, s, ch) => computePodResizeAction(pod, idx, s, actuated, ch));
    expect(a.ContainersToUpdate!.cpu!.map((u) => u.name)).toEqual(['foo2', 'foo1']);
  });

  it('leaves a container that is not running alone', () => {
    const { pod, status } = basePod();
    pod.spec.containers[1] = container('foo2', { resources: { limits: { cpu: '100m' } } });
    const changes = { ContainersToKill: new Map(), ContainersToStart: [] } as unknown as PodActions;
    const exited = { ...status.ContainerStatuses[1], State: 'exited' as const };
    expect(computePodResizeAction(pod, 1, exited, new Map([['foo2', { limits: { cpu: '200m' } }]]), changes)).toBe(true);
    expect(changes.ContainersToUpdate).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The kubelet's admission and the values given to the runtime

describe('handlePodResourcesResize', () => {
  const sized = (name: string, cpu: string, memory: string): Pod =>
    ({ metadata: { uid: name, name, generation: 2 }, spec: { containers: [container('app', { resources: { requests: { cpu, memory }, limits: { cpu, memory } } })] } }) as unknown as Pod;
  const node = fixtureNode(); // allocatable cpu 4, memory 8Gi
  // the kubelet's side of the events it records (reason, type, message) and the status manager's clock
  const envWith = (events: { type: string; reason: string; message: string }[]) =>
    ({ ctx: { rfc3339: () => '2026-08-04T03:00:20Z' }, nodeName: 'worker01', api: { recordEvent: (e: { type: string; reason: string; message: string }) => events.push(e) } }) as unknown as NodeEnv;
  const run = (pod: Pod, others: Pod[] = [], resized = new Map<string, PodResize>()) => {
    const events: { type: string; reason: string; message: string }[] = [];
    const ev = handlePodResourcesResize(envWith(events), resized, pod, sized('old', '100m', '64Mi'), others, node);
    return { ev, st: resized.get(pod.metadata.uid), events: events.map((e) => [e.type, e.reason, e.message]) };
  };

  it('allocates a resize that fits: PodResizeInProgress, the new pod is the allocation', () => {
    const pod = sized('a', '500m', '128Mi');
    const { ev, st } = run(pod);
    expect(ev?.[0]).toBe('ResizeAllocated');
    expect(st!.allocated).toBe(pod);
    // the condition carries the generation it is about (SetPodResizeInProgressCondition(uid, "", "", generation))
    expect(st!.inProgress).toMatchObject({ type: 'PodResizeInProgress', status: 'True', observedGeneration: 2 });
    expect(st!.inProgress!.reason).toBeUndefined();
    expect(st!.pending).toBeUndefined();
    // the running containers were created with the allocation so far
    expect(st!.actuated.get('app')).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } });
  });

  it('is Infeasible above the node allocatable, memory reported before cpu', () => {
    expect(run(sized('a', '5', '128Mi')).st!.pending).toMatchObject({ reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 5000, capacity: 4000" });
    const { st } = run(sized('a', '5', '9Gi'));
    expect(st!.pending).toMatchObject({ reason: 'Infeasible', message: `Node didn't have enough capacity: memory, requested: ${9 * 2 ** 30}, capacity: ${8 * 2 ** 30}` });
    expect(st!.allocated.metadata.name).toBe('old');
    expect(st!.inProgress).toBeUndefined();
  });

  it('is Deferred when it fits the node but not beside the other pods', () => {
    const { ev, st } = run(sized('a', '2500m', '128Mi'), [sized('b', '2', '64Mi')]);
    expect(ev).toEqual(['ResizePending', "resize Deferred: Node didn't have enough resource: cpu, requested: 2500, used: 2000, capacity: 4000"]);
    expect(st!.pending).toMatchObject({ type: 'PodResizePending', status: 'True', reason: 'Deferred' });
  });

  it('does nothing when the resources equal the allocation', () => {
    expect(run(sized('a', '100m', '64Mi'))).toEqual({ ev: undefined, st: undefined, events: [] });
  });

  // events.ResizeStarted / ResizeInfeasible / ResizeDeferred (pkg/kubelet/events/event.go), messages from
  // pkg/kubelet/events/resize.go: the prefix, then the pod's container resources and the generation as JSON
  it('records ResizeStarted (Normal) when it allocates, with the resources and generation as JSON', () => {
    expect(run(sized('a', '500m', '128Mi')).events).toEqual([[
      'Normal', 'ResizeStarted',
      'Pod resize started: {"containers":[{"name":"app","resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"500m","memory":"128Mi"}}}],"generation":2}',
    ]]);
  });

  it('records ResizeInfeasible / ResizeDeferred (Warning) with the error, once while the condition stays the same', () => {
    const resized = new Map<string, PodResize>();
    const first = run(sized('a', '5', '128Mi'), [], resized);
    expect(first.events).toEqual([[
      'Warning', 'ResizeInfeasible',
      'Pod resize Infeasible: {"containers":[{"name":"app","resources":{"limits":{"cpu":"5","memory":"128Mi"},"requests":{"cpu":"5","memory":"128Mi"}}}],"generation":2,"error":"Node didn\'t have enough capacity: cpu, requested: 5000, capacity: 4000"}',
    ]]);
    // a retry that finds the same: SetPodResizePendingCondition reports no change, no event
    expect(run(sized('a', '5', '128Mi'), [], resized).events).toEqual([]);
    expect(run(sized('a', '2500m', '128Mi'), [sized('b', '2', '64Mi')]).events.map((e) => e.slice(0, 2))).toEqual([['Warning', 'ResizeDeferred']]);
  });

  it('writes the summary as Go encodes it: init containers first, empty resources as {}', () => {
    const pod = {
      metadata: { generation: 4 },
      spec: { initContainers: [container('side', { resources: { requests: { memory: '1Gi', cpu: '1' } } })], containers: [container('app')] },
    } as unknown as Pod;
    expect(podResizeMessage('Pod resize completed', pod, 4)).toBe(
      'Pod resize completed: {"initContainers":[{"name":"side","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}],"containers":[{"name":"app","resources":{}}],"generation":4}',
    );
  });

  // sortPendingResizes: resizes that do not increase requests first, then priority, then Guaranteed, then the
  // longest pending; each is admitted against the others' allocations as they stand by then
  it('retries the Deferred resizes in upstream\'s order', () => {
    const resized = new Map<string, PodResize>();
    const env = envWith([]);
    const withPrio = (p: Pod, priority: number): Pod => ({ ...p, spec: { ...p.spec, priority } }) as Pod;
    // allocated 1 cpu each; the node has 4: b (priority 10) wants 2, a and c (priority 0) 1.5 and 2
    const a = withPrio(sized('a', '1500m', '64Mi'), 0);
    const b = withPrio(sized('b', '2', '64Mi'), 10);
    const c = withPrio(sized('c', '2', '64Mi'), 0);
    const big = sized('big', '2', '64Mi');
    for (const p of [a, b, c]) handlePodResourcesResize(env, resized, p, sized(p.metadata.name, '1', '64Mi'), [big, a, b, c].filter((o) => o !== p), node);
    expect([a, b, c].map((p) => resized.get(p.metadata.uid)!.pending?.reason)).toEqual(['Deferred', 'Deferred', 'Deferred']);
    // `big` is gone: 4 cpu for three pods allocated 1 each; b goes first (priority) and fits, then a and c do not
    // beside it (their messages changed, so they sync too)
    const retried = retryPendingResizes(env, resized, [a, b, c], node);
    expect(retried.map(([p, detail, sync]) => [p.metadata.name, detail.split(':')[0], sync])).toEqual([
      ['b', 'resize of generation 2 allocated', true], ['a', 'resize Deferred', true], ['c', 'resize Deferred', true],
    ]);
    expect(resized.get('a')!.pending?.message).toBe("Node didn't have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000");
  });

  it('gives the runtime cpu shares, a CFS quota over 100 ms and the memory limit', () => {
    expect(linuxContainerResources(containerResources({ requests: { cpu: '800m', memory: '128Mi' }, limits: { cpu: '800m', memory: '128Mi' } }))).toEqual({
      cpuPeriod: '100000', cpuQuota: '80000', cpuShares: '819', memoryLimitInBytes: '134217728',
    });
    // no request and no limit: the minimum shares, no quota
    expect(linuxContainerResources(containerResources({}))).toMatchObject({ cpuQuota: '0', cpuShares: '2', memoryLimitInBytes: '0' });
  });
});

// updatePodContainerResources: memory first (with the current cpu), then cpu (with the memory now applied); the
// first failed UpdateContainerResources ends the resize, the rest waits for a later sync
describe('doPodResizeAction', () => {
  const info = (name: string, from: ResourceRequirements, to: ResourceRequirements) =>
    ({ name, id: `id-${name}`, resources: to, desired: containerResources(to), current: containerResources(from) });
  const rr = (cpu: string, memory: string): ResourceRequirements => ({ requests: { cpu, memory }, limits: { cpu, memory } });

  it('updates memory with the current cpu, then cpu with the new memory', () => {
    const u = info('app', rr('500m', '128Mi'), rr('800m', '256Mi'));
    const calls: string[] = [];
    const actuated = new Map<string, ResourceRequirements>([['app', rr('500m', '128Mi')]]);
    expect(doPodResizeAction({ memory: [u], cpu: [u] }, actuated, (_id, r) => (calls.push(`${r.cpuQuota} ${r.memoryLimitInBytes}`), true))).toBe(true);
    expect(calls).toEqual([`50000 ${256 * 2 ** 20}`, `80000 ${256 * 2 ** 20}`]);
    expect(actuated.get('app')).toBe(u.resources);
  });

  it('stops at the first failure, and records only what was applied', () => {
    const u = info('app', rr('500m', '128Mi'), rr('800m', '256Mi'));
    const v = info('side', rr('500m', '128Mi'), rr('800m', '128Mi'));
    const actuated = new Map<string, ResourceRequirements>([['app', rr('500m', '128Mi')], ['side', rr('500m', '128Mi')]]);
    const ids: string[] = [];
    const ok = doPodResizeAction({ memory: [u], cpu: [u, v] }, actuated, (id) => (ids.push(id), id !== 'id-app' || ids.length === 1));
    expect(ok).toBe(false);
    expect(ids).toEqual(['id-app', 'id-app']); // the cpu update of app failed: side is not tried
    expect(actuated.get('app')).toEqual({ requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
    expect(actuated.get('side')).toEqual(rr('500m', '128Mi'));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The API server: the resize subresource (doPodResizeErrorTests' errors)

const guaranteed = { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '500m', memory: '128Mi' } };

function runningPod(resources: ResourceRequirements, extra: Record<string, unknown> = {}, e: Engine = engineWith()): Engine {
  create(e, podManifest('web', { image: 'registry.k8s.io/pause:3.10', resources, ...extra }));
  e.advanceTo(10_000);
  expect(podAt(e, 'web')!.status.phase).toBe('Running');
  return e;
}

const resize = (e: Engine, containers: unknown[], patchType: 'merge' | 'strategic' = 'strategic') =>
  e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType, patch: { spec: { containers } }, subresource: 'resize' });

describe('the resize subresource', () => {
  const errors: [string, ResourceRequirements, unknown[], string][] = [
    ['BestEffort pod - try requesting memory, expect error', {}, [{ name: 'web', resources: { requests: { memory: '40Mi' } } }],
      'Pod "web" is invalid: spec: Invalid value: "BestEffort": Pod QOS Class may not change as a result of resizing'],
    ['Burstable QoS pod, one container with cpu & memory requests + limits - remove memory limits',
      { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '200m', memory: '200Mi' } }, [{ name: 'web', resources: { limits: { memory: null } } }],
      'Pod "web" is invalid: spec.containers[0].resources.limits[memory]: Forbidden: resource limits cannot be removed'],
    ['Burstable QoS pod, one container with memory requests + limits, cpu requests - remove CPU requests',
      { requests: { cpu: '100m', memory: '100Mi' }, limits: { memory: '200Mi' } }, [{ name: 'web', resources: { requests: { cpu: null } } }],
      'Pod "web" is invalid: spec.containers[0].resources.requests[cpu]: Forbidden: resource requests cannot be removed'],
  ];
  for (const [name, resources, containers, message] of errors) {
    it(name, () => {
      const e = runningPod(resources);
      const r = resize(e, containers);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.status.message).toBe(message);
      expect(podAt(e, 'web')!.metadata.generation).toBe(1);
    });
  }

  it('rejects renamed or reordered containers', () => {
    const e = engineWith();
    create(e, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [
      { name: 'c1', image: 'registry.k8s.io/pause:3.10', resources: guaranteed }, { name: 'c2', image: 'registry.k8s.io/pause:3.10', resources: guaranteed },
    ] } });
    e.advanceTo(5000);
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'merge', subresource: 'resize',
      patch: { spec: { containers: [{ name: 'c2', image: 'x', resources: guaranteed }, { name: 'c1', image: 'x', resources: guaranteed }] } } });
    expect(!r.ok && r.status.message).toBe(
      'Pod "web" is invalid: [spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize, spec.containers[1].name: Forbidden: containers may not be renamed or reordered on resize]',
    );
  });

  it('forbids other resources than cpu and memory', () => {
    const e = runningPod(guaranteed);
    const r = resize(e, [{ name: 'web', resources: { requests: { 'ephemeral-storage': '1Gi' } } }]);
    expect(!r.ok && r.status.message).toBe('Pod "web" is invalid: spec: Forbidden: only cpu and memory resources are mutable');
  });

  it('takes only resources and resizePolicy, and bumps the generation', () => {
    const e = runningPod(guaranteed);
    // a JSON merge patch replaces the containers list: each container's resources come whole
    const resources = { requests: { cpu: '800m', memory: '128Mi' }, limits: { cpu: '800m', memory: '128Mi' } };
    const r = resize(e, [{ name: 'web', image: 'nginx', resources, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }], 'merge');
    expect(r.ok).toBe(true);
    const p = podAt(e, 'web')!;
    expect(p.metadata.generation).toBe(2);
    expect(p.spec.containers[0].image).toBe('registry.k8s.io/pause:3.10'); // dropped, not rejected
    expect(p.spec.containers[0].resources).toEqual(resources);
    expect(p.spec.containers[0].resizePolicy).toEqual([{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]);
    expect(p.status.qosClass).toBe('Guaranteed');
  });

  it('changes nothing when the resources are the same', () => {
    const e = runningPod(guaranteed);
    const r = resize(e, [{ name: 'web', resources: guaranteed }]);
    expect(r.ok && r.unchanged).toBe(true);
  });

  it('is an internal error on an engine created without the resize support', () => {
    const e = runningPod(guaranteed, {}, createEngineCore({ nodes: [NODE] }, { seed: 1 }));
    const r = resize(e, [{ name: 'web', resources: guaranteed }], 'merge');
    expect(!r.ok && r.status).toMatchObject({ code: 500, message: expect.stringContaining('without support for resize patches') });
  });

  it('keeps resources immutable through the pod itself', () => {
    const e = runningPod(guaranteed);
    const r = e.apply({ type: 'patch', kind: 'Pod', namespace: 'default', name: 'web', patchType: 'strategic', patch: { spec: { containers: [{ name: 'web', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }] } } });
    expect(!r.ok && r.status.message).toMatch(/^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The whole path: admission, SyncPod step 8, the status

describe('a resize resets the crash-loop back-off (GetBackoffKey covers the resources, kubernetes#131681)', () => {
  it('a crash-looping container resized while it backs off is started again at once, its back-off back at 10 s', () => {
    const e = engineWith({ nodes: [{ ...NODE, images: ['busybox:1.36'] }] });
    create(e, podManifest('web', { image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'], resources: guaranteed }));
    e.advanceTo(100_000);
    const backOffs = () => e.trace.filter((t) => t.key === 'doBackOff#1').map((t) => t.detail.split(' ')[1]);
    expect(backOffs().at(-1)).toBe('1m20s');
    const before = e.trace.length;
    expect(resize(e, [{ name: 'web', resources: { requests: { cpu: '800m' }, limits: { cpu: '800m' } } }]).ok).toBe(true);
    e.advanceTo(105_000);
    // the next sync finds no back-off under the new key: the container starts in the same sync, and its exit
    // waits 10 s, not 2m40s
    const after = e.trace.slice(before);
    expect(after.filter((t) => t.key === 'startContainer#3')).toHaveLength(1);
    expect(after.find((t) => t.key === 'doBackOff#2')!.detail).toBe('restart web: next back-off 10s');
    expect(podAt(e, 'web')!.status.containerStatuses![0].restartCount).toBe(5);
  });
});

describe('an in-place resize through the engine', () => {
  const crictlContainer = (e: Engine) => e.state().runtimes[0].containers.filter((c) => c.name === 'web');

  it('updates the running container in place (SyncPod#8); the relist it asks for brings the sync that clears PodResizeInProgress', () => {
    const e = runningPod(guaranteed);
    const before = crictlContainer(e);
    expect(before).toHaveLength(1);
    expect(before[0].resources).toBeUndefined();
    resize(e, [{ name: 'web', resources: { requests: { cpu: '800m' }, limits: { cpu: '800m' } } }]);
    const patched = e.trace.length;
    e.advanceTo(10_200);
    const step8 = e.trace.filter((t) => t.key === 'SyncPod#8');
    expect(step8).toHaveLength(1);
    expect(step8[0].detail).toContain('UpdateContainerResources web (cpu)');
    const after = crictlContainer(e);
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id)); // not replaced
    expect(after[0].resources).toEqual({ cpuPeriod: '100000', cpuQuota: '80000', cpuShares: '819', memoryLimitInBytes: '134217728' });
    // the status of the sync that resized was generated before step 8: in progress, the old resources applied
    let p = podAt(e, 'web')!;
    expect(p.status.conditions!.map((c) => c.type)[0]).toBe('PodResizeInProgress');
    expect(p.status.conditions![0]).toMatchObject({ status: 'True', observedGeneration: 2 });
    expect(p.status.containerStatuses![0]).toMatchObject({ restartCount: 0, allocatedResources: { cpu: '800m', memory: '128Mi' }, resources: guaranteed });
    // RequestPodReinspect: a resize changes no container's state, yet the next relist (within the PLEG's 1 s
    // period) inspects the pod and sends PodSync; that sync finds the runtime caught up
    e.advanceTo(11_100);
    const after8 = e.trace.slice(patched);
    const podSync = after8.findIndex((t) => t.kind === 'PLEGEvents' && t.detail.includes('PodSync'));
    expect(podSync).toBeGreaterThan(after8.findIndex((t) => t.key === 'SyncPod#8'));
    expect(after8[podSync].t - step8[0].t).toBeLessThanOrEqual(1000);
    p = podAt(e, 'web')!;
    expect(p.status.conditions!.map((c) => c.type)).not.toContain('PodResizeInProgress');
    expect(p.status.containerStatuses![0].resources).toEqual({ requests: { cpu: '800m', memory: '128Mi' }, limits: { cpu: '800m', memory: '128Mi' } });
    expect(p.status.observedGeneration).toBe(2);
    expect(e.state().events.filter((ev) => ev.reason.startsWith('Resize')).map((ev) => [ev.type, ev.reason])).toEqual([
      ['Normal', 'ResizeStarted'], ['Normal', 'ResizeCompleted'],
    ]);
    e.advanceTo(120_000);
    expect(e.trace.filter((t) => t.key === 'SyncPod#8')).toHaveLength(1);
  });

  it('restarts the container when its resizePolicy says RestartContainer for the resource', () => {
    const e = runningPod(guaranteed, { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] });
    resize(e, [{ name: 'web', resources: { requests: { memory: '256Mi' }, limits: { memory: '256Mi' } } }]);
    e.advanceTo(20_000);
    expect(e.trace.some((t) => t.key === 'SyncPod#8')).toBe(false);
    const killing = e.state().events.find((ev) => ev.reason === 'Killing');
    expect(killing?.message).toBe('Container web resize requires restart');
    const running = crictlContainer(e).filter((c) => c.state === 'CONTAINER_RUNNING');
    expect(running).toHaveLength(1);
    expect(running[0].attempt).toBe(1);
    expect(running[0].resources?.memoryLimitInBytes).toBe(String(256 * 2 ** 20));
    expect(podAt(e, 'web')!.status.containerStatuses![0].restartCount).toBe(1);
    // the restarted container runs with the allocation: the sync after its start reports the resize done
    expect(podAt(e, 'web')!.status.conditions!.map((c) => c.type)).not.toContain('PodResizeInProgress');
    expect(e.state().events.map((ev) => ev.reason).filter((r) => r.startsWith('Resize') || r === 'Killing')).toEqual(['ResizeStarted', 'Killing', 'ResizeCompleted']);
  });

  it('leaves a resize beyond the node pending (Infeasible) and keeps the allocation', () => {
    const e = runningPod(guaranteed);
    resize(e, [{ name: 'web', resources: { requests: { cpu: '6' }, limits: { cpu: '6' } } }]);
    e.advanceTo(15_000);
    const p = podAt(e, 'web')!;
    expect(p.spec.containers[0].resources.limits!.cpu).toBe('6');
    expect(p.status.conditions![0]).toMatchObject({
      type: 'PodResizePending', status: 'True', reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 6000, capacity: 4000",
    });
    expect(p.status.containerStatuses![0].allocatedResources).toEqual({ cpu: '500m', memory: '128Mi' });
    expect(e.trace.some((t) => t.key === 'SyncPod#8')).toBe(false);
    expect(crictlContainer(e)[0].resources).toBeUndefined();
  });

  /** web resized to 2 cpu beside a pod that holds 3 of the node's 4: at 15 s the resize is pending. */
  function deferredResize() {
    const e = engineWith();
    create(e, podManifest('other', { image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '3' } } }));
    runningPod(guaranteed, {}, e);
    resize(e, [{ name: 'web', resources: { requests: { cpu: '2' }, limits: { cpu: '2' } } }]);
    e.advanceTo(15_000);
    return e;
  }

  it('defers a resize that fits the node but not beside another pod', () => {
    const e = deferredResize();
    expect(podAt(e, 'web')!.status.conditions![0]).toMatchObject({
      type: 'PodResizePending', reason: 'Deferred', message: "Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000",
    });
    // once the other pod terminated, the deferred resize is tried again: allocated and applied in place
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'other' });
    e.advanceTo(60_000);
    const p = podAt(e, 'web')!;
    expect(p.status.conditions!.map((c) => c.type)).not.toContain('PodResizePending');
    expect(p.status.containerStatuses![0].allocatedResources!.cpu).toBe('2');
    expect(e.trace.filter((t) => t.key === 'SyncPod#8')).toHaveLength(1);
    expect(crictlContainer(e)[0].resources?.cpuQuota).toBe('200000');
  });

  it('retries a Deferred resize on the allocation manager\'s ticker: 30 s after the kubelet starts, then every 3 min', () => {
    const e = deferredResize();
    expect(podAt(e, 'web')!.status.conditions![0]).toMatchObject({ type: 'PodResizePending', reason: 'Deferred' });
    const retried = (t0: number, t1: number) => e.trace.filter((t) => t.kind === 'ResizeRetried' && t.t > t0 && t.t <= t1).length;
    e.advanceTo(29_000);
    expect(retried(16_000, 29_000)).toBe(0);
    e.advanceTo(31_000);
    expect(retried(29_000, 31_000)).toBe(1); // the first tick, 30 s after the kubelet started
    e.advanceTo(209_000);
    expect(retried(31_000, 209_000)).toBe(0);
    e.advanceTo(211_000);
    expect(retried(209_000, 211_000)).toBe(1); // 3 min later
  });

  it('gives a pod never resized the same allocatedResources and resources (upstream writes them for every pod)', () => {
    const e = runningPod(guaranteed);
    const cs = podAt(e, 'web')!.status.containerStatuses![0];
    expect(cs.allocatedResources).toEqual(guaranteed.requests);
    expect(cs.resources).toEqual(guaranteed);
  });
});
