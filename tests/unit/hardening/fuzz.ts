// Random scenarios for the engine fuzz (fuzz-*.test.ts): random clusters, pods (images, policies, commands,
// init containers, probes, hooks, grace periods, requests, selectors, finalizers) and actions at random times
// (creations, graceful and forced deletions, finalizer and label patches of every patch type). Each run is
// checked for the simulation's invariants, and the printers render the states it passes through.
import fc from 'fast-check';
import { expect } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { createEngine } from '../../../src/sim/engine.ts';
import type { ClusterAction, ClusterState, Engine } from '../../../src/sim/types.ts';
import { eventEnd, eventStart } from '../sim/helpers.ts';

const COMMANDS: (string[] | undefined)[] = [
  ['sh', '-c', 'exit 1'],
  ['sh', '-c', 'exit 0'],
  ['sh', '-c', 'sleep 2; exit 3'],
  ['sleep', '3600'],
  ['sh', '-c', 'echo hi; sleep 5 && exit 0'],
  ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'],
  ['sh', '-c', "trap '' TERM; sleep 100000"],
  undefined, // the image's own command
];
const IMAGES = ['nginx:1.29', 'busybox', 'busybox:1.36', 'redis:7', 'registry.invalid/app:v1', 'quay.io/team/slow:2'];
const HOOKS = ['pass', 'fail', 'pass 3s', 'fail 1s'];
const PROBES = ['pass', 'fail', 'pass*3,fail', 'fail*2,pass'];

const containerArb = fc.record({
  command: fc.nat(COMMANDS.length - 1),
  image: fc.constantFrom(...IMAGES),
  cpu: fc.constantFrom(undefined, '100m', '500m', '2', '16'),
  liveness: fc.option(fc.constantFrom(...PROBES), { nil: undefined }),
  readiness: fc.option(fc.constantFrom(...PROBES), { nil: undefined }),
  startup: fc.option(fc.constantFrom(...PROBES), { nil: undefined }),
  postStart: fc.option(fc.constantFrom(...HOOKS), { nil: undefined }),
  preStop: fc.option(fc.constantFrom(...HOOKS), { nil: undefined }),
  pullPolicy: fc.constantFrom(undefined, 'Always', 'IfNotPresent', 'Never'),
});

const podArb = fc.record({
  name: fc.constantFrom('web', 'job', 'db', 'x-1'),
  containers: fc.array(containerArb, { minLength: 1, maxLength: 2 }),
  init: fc.array(containerArb, { maxLength: 2 }),
  restartPolicy: fc.constantFrom('Always', 'OnFailure', 'Never'),
  grace: fc.constantFrom(undefined, 0, 1, 5, 30),
  finalizer: fc.boolean(),
  selector: fc.constantFrom(undefined, 'worker01', 'nowhere'),
  deadline: fc.option(fc.integer({ min: 5, max: 90 }), { nil: undefined }),
});

const stepArb = fc.record({
  at: fc.integer({ min: 0, max: 150_000 }),
  kind: fc.constantFrom('create', 'create', 'create', 'delete', 'delete-grace', 'force', 'unfinalize-merge', 'unfinalize-json', 'label-strategic'),
  grace: fc.constantFrom(0, 1, 3, 10),
  pod: podArb,
});

export const scenarioArb = fc.record({
  nodes: fc.integer({ min: 1, max: 3 }),
  cpu: fc.constantFrom('1', '2', '4', '8'),
  pull: fc.integer({ min: 0, max: 20_000 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 6 }),
  seed: fc.nat(10_000),
});

export type FuzzScenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;
type Step = FuzzScenario['steps'][number];
type C = Step['pod']['containers'][number];

/** Init containers may not have probes or lifecycle hooks (the API server rejects them). */
function initContainer(name: string, c: C, annotations: Record<string, string>): Record<string, unknown> {
  return container(name, { ...c, liveness: undefined, readiness: undefined, startup: undefined, postStart: undefined, preStop: undefined }, annotations);
}

function container(name: string, c: C, annotations: Record<string, string>): Record<string, unknown> {
  const cmd = COMMANDS[c.command];
  const out: Record<string, unknown> = { name, image: c.image, ...(cmd ? { command: cmd } : {}) };
  if (c.cpu) out.resources = { requests: { cpu: c.cpu } };
  if (c.pullPolicy) out.imagePullPolicy = c.pullPolicy;
  for (const kind of ['liveness', 'readiness', 'startup'] as const) {
    if (!c[kind]) continue;
    out[`${kind}Probe`] = { exec: { command: ['true'] }, periodSeconds: 2, failureThreshold: 2 };
    annotations[`sim.podlife.dev/probe.${name}.${kind}`] = c[kind]!;
  }
  const lifecycle: Record<string, unknown> = {};
  for (const hook of ['postStart', 'preStop'] as const) {
    if (!c[hook]) continue;
    lifecycle[hook] = { exec: { command: ['sh', '-c', 'true'] } };
    annotations[`sim.podlife.dev/hook.${name}.${hook}`] = c[hook]!;
  }
  if (Object.keys(lifecycle).length) out.lifecycle = lifecycle;
  return out;
}

export function action(s: Step): ClusterAction {
  const p = s.pod;
  const ref = { kind: 'Pod' as const, namespace: 'default', name: p.name };
  switch (s.kind) {
    case 'delete':
      return { type: 'delete', ...ref };
    case 'delete-grace':
      return { type: 'delete', ...ref, gracePeriodSeconds: s.grace };
    case 'force':
      return { type: 'delete', ...ref, gracePeriodSeconds: 0, force: true };
    case 'unfinalize-merge':
      return { type: 'patch', ...ref, patchType: 'merge', patch: { metadata: { finalizers: [] } } };
    case 'unfinalize-json':
      return { type: 'patch', ...ref, patchType: 'json', patch: [{ op: 'remove', path: '/metadata/finalizers' }] };
    case 'label-strategic':
      return { type: 'patch', ...ref, patchType: 'strategic', patch: { metadata: { labels: { fuzz: String(s.grace) } } } };
    default: {
      const annotations: Record<string, string> = {};
      const containers = p.containers.map((c, i) => container(`${p.name}-c${i}`, c, annotations));
      const init = p.init.map((c, i) => initContainer(`${p.name}-init${i}`, c, annotations));
      return {
        type: 'create',
        namespace: 'default',
        obj: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: p.name, annotations, ...(p.finalizer ? { finalizers: ['example.com/keep'] } : {}) },
          spec: {
            restartPolicy: p.restartPolicy,
            containers,
            ...(init.length ? { initContainers: init } : {}),
            ...(p.grace !== undefined ? { terminationGracePeriodSeconds: p.grace } : {}),
            ...(p.selector ? { nodeSelector: { 'kubernetes.io/hostname': p.selector } } : {}),
            ...(p.deadline ? { activeDeadlineSeconds: p.deadline } : {}),
          },
        },
      };
    }
  }
}

const END = 180_000;

/** Run one random scenario, sampling the state along the way; returns the engine. */
export function runScenario(s: FuzzScenario, sample: (state: ClusterState, e: Engine) => void): Engine {
  const nodes = Array.from({ length: s.nodes }, (_, i) => ({
    name: `worker0${i + 1}`,
    ip: `192.168.114.${148 + i}`,
    podCIDR: `10.244.${5 + i}.0/24`,
    capacity: { cpu: s.cpu, memory: '8Gi', pods: 110 },
    images: i === 0 ? ['nginx:1.29', 'redis:7'] : [],
  }));
  const e = createEngine(
    { nodes, images: { busybox: { pull: s.pull }, 'busybox:1.36': { pull: Math.floor(s.pull / 2) }, 'registry.invalid/app:v1': { error: 'not found' }, 'quay.io/team/slow:2': { pull: s.pull * 3 } } },
    { seed: s.seed },
  );
  const steps = [...s.steps].sort((a, b) => a.at - b.at);
  let next = 30_000;
  const advance = (t: number) => {
    while (next <= t) {
      e.advanceTo(next);
      sample(e.state(), e);
      next += 30_000;
    }
    e.advanceTo(t);
  };
  for (const step of steps) {
    advance(step.at);
    e.apply(action(step));
    sample(e.state(), e);
  }
  advance(END);
  sample(e.state(), e);
  return e;
}

/** Checks across consecutive samples of one run. */
export function invariantChecker(): (s: ClusterState, e: Engine) => void {
  const restarts = new Map<string, number>();
  const terminal = new Map<string, string>();
  let lastTrace = 0;
  return (s, e) => {
    for (const rt of s.runtimes) {
      const sandboxes = new Map(rt.sandboxes.map((x) => [x.id, x]));
      for (const c of rt.containers) {
        if (c.state === 'CONTAINER_RUNNING' && sandboxes.get(c.sandboxId)?.state !== 'SANDBOX_READY') {
          throw new Error(`container ${c.name} runs without a ready sandbox at ${s.t}`);
        }
      }
    }
    for (const p of s.pods) {
      for (const cs of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])]) {
        const key = `${p.metadata.uid}/${cs.name}`;
        if (cs.restartCount < (restarts.get(key) ?? 0)) throw new Error(`restartCount of ${key} went down at ${s.t}`);
        restarts.set(key, cs.restartCount);
      }
      const was = terminal.get(p.metadata.uid);
      if (was && p.status.phase !== was) throw new Error(`pod ${p.metadata.name} left terminal phase ${was} for ${p.status.phase} at ${s.t}`);
      if (p.status.phase === 'Succeeded' || p.status.phase === 'Failed') terminal.set(p.metadata.uid, p.status.phase);
    }
    const trace = e.trace;
    for (let i = Math.max(1, lastTrace); i < trace.length; i++) {
      if (trace[i].t < trace[i - 1].t || trace[i].seq !== i) throw new Error(`trace out of order at #${i}`);
    }
    lastTrace = trace.length;
    for (const ev of s.events) if (eventEnd(ev) < eventStart(ev)) throw new Error(`event ${ev.metadata.name} ends before it starts`);
  };
}

const PRINTERS = [
  'kubectl get pods -o wide',
  'kubectl get pods -A -o yaml',
  'kubectl get events --sort-by=.lastTimestamp',
  'kubectl describe pods',
  'kubectl get nodes -o wide',
  'crictl pods',
  'crictl ps -a',
  'crictl images',
  'journalctl -u kubelet | tail -3',
];

/** Every printer renders the state without failing. */
export function renderAll(state: ClusterState): void {
  for (const line of PRINTERS) {
    const r = execute(line, { state });
    if (r.exitCode !== 0) throw new Error(`${line} failed at ${state.t}: ${r.stderr}`);
  }
  for (const p of state.pods) {
    for (const line of [`kubectl describe pod ${p.metadata.name}`, `kubectl get pod ${p.metadata.name} -o jsonpath={.status.phase}`]) {
      const r = execute(line, { state });
      if (r.exitCode !== 0) throw new Error(`${line} failed at ${state.t}: ${r.stderr}`);
    }
  }
}

/** What the runs went through, so a generator that stopped reaching a situation shows up. */
const SITUATIONS: Record<string, (s: ClusterState) => boolean> = {
  running: (s) => s.pods.some((p) => p.status.phase === 'Running'),
  restarted: (s) => s.pods.some((p) => (p.status.containerStatuses ?? []).some((c) => c.restartCount > 0)),
  crashLoop: (s) => s.pods.some((p) => (p.status.containerStatuses ?? []).some((c) => c.state.waiting?.reason === 'CrashLoopBackOff')),
  imagePullBackOff: (s) => s.pods.some((p) => [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])].some((c) => c.state.waiting?.reason === 'ImagePullBackOff')),
  initializing: (s) => s.pods.some((p) => (p.status.initContainerStatuses ?? []).some((c) => c.state.running)),
  unschedulable: (s) => s.pods.some((p) => p.status.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable')),
  terminating: (s) => s.pods.some((p) => p.metadata.deletionTimestamp !== undefined),
  terminal: (s) => s.pods.some((p) => p.status.phase === 'Succeeded' || p.status.phase === 'Failed'),
};

/** Run `runs` random scenarios (seeded, so a failure reproduces) through the engine and the printers. */
export function fuzz(runs: number, seed: number): void {
  let n = 0;
  const reached = Object.fromEntries(Object.keys(SITUATIONS).map((k) => [k, 0])) as Record<string, number>;
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const check = invariantChecker();
      const seen = new Set<string>();
      let samples = 0;
      runScenario(s, (state, e) => {
        check(state, e);
        if (samples++ % 3 === 0) renderAll(state);
        for (const [name, test] of Object.entries(SITUATIONS)) if (!seen.has(name) && test(state)) seen.add(name);
      });
      for (const name of seen) reached[name]++;
      n++;
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  expect(n).toBe(runs);
  // Every situation is reached by a fair share of the runs (the fuzz is only as good as its reach).
  for (const [name, count] of Object.entries(reached)) expect(count, `${name}: ${count}/${runs} runs`).toBeGreaterThan(runs * 0.02);
}
