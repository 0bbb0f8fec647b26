// Properties over random pods and timelines (fast-check): the invariants every run must keep, determinism, and
// stateAt(t) equal to what state() was at t.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEngine } from '../../../src/sim/engine.ts';
import type { ClusterAction, Engine } from '../../../src/sim/types.ts';
import { NODE, eventEnd, eventStart } from './helpers.ts';

const COMMANDS = [
  ['sh', '-c', 'exit 1'],
  ['sh', '-c', 'exit 0'],
  ['sh', '-c', 'sleep 3; exit 2'],
  ['sleep', '3600'],
  ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'],
  ['sh', '-c', "trap 'exit 143' TERM; sleep 1000 & wait"],
  undefined, // the image's own command (nginx: a server)
];

const podArb = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'd'),
  command: fc.nat(COMMANDS.length - 1),
  restartPolicy: fc.constantFrom('Always', 'OnFailure', 'Never'),
  grace: fc.constantFrom(0, 1, 5, 30),
  finalizer: fc.boolean(),
  image: fc.constantFrom('nginx:1.29', 'busybox', 'registry.invalid/x:1'),
  probe: fc.constantFrom('none', 'liveness-fail', 'readiness'),
});

const stepArb = fc.record({
  at: fc.integer({ min: 0, max: 240_000 }),
  kind: fc.constantFrom('create', 'create', 'delete', 'force', 'unfinalize'),
  pod: podArb,
});

type Step = { at: number; kind: string; pod: { name: string; command: number; restartPolicy: string; grace: number; finalizer: boolean; image: string; probe: string } };

function action(s: Step): ClusterAction {
  const p = s.pod;
  switch (s.kind) {
    case 'delete':
      return { type: 'delete', kind: 'Pod', namespace: 'default', name: p.name };
    case 'force':
      return { type: 'delete', kind: 'Pod', namespace: 'default', name: p.name, gracePeriodSeconds: 0, force: true };
    case 'unfinalize':
      return { type: 'patch', kind: 'Pod', namespace: 'default', name: p.name, patchType: 'merge', patch: { metadata: { finalizers: null } } };
    default: {
      const cmd = COMMANDS[p.command];
      const container: Record<string, unknown> = { name: p.name, image: p.image, ...(cmd ? { command: cmd } : {}) };
      if (p.probe === 'liveness-fail') container.livenessProbe = { exec: { command: ['cat', '/nope'] }, periodSeconds: 2 };
      if (p.probe === 'readiness') container.readinessProbe = { httpGet: { port: 80 }, periodSeconds: 3 };
      return {
        type: 'create', namespace: 'default',
        obj: {
          apiVersion: 'v1', kind: 'Pod',
          metadata: { name: p.name, ...(p.finalizer ? { finalizers: ['example.com/f'] } : {}) },
          spec: { restartPolicy: p.restartPolicy, terminationGracePeriodSeconds: p.grace, containers: [container] },
        },
      };
    }
  }
}

function run(steps: Step[], seed: number, sample?: (e: Engine) => void): Engine {
  const e = createEngine({ nodes: [NODE, { ...NODE, name: 'worker02', ip: '192.168.114.149', podCIDR: '10.244.6.0/24' }], images: { busybox: { pull: 700 }, 'registry.invalid/x:1': { error: 'not found', pull: 300 } } }, { seed });
  const sorted = [...steps].sort((a, b) => a.at - b.at);
  for (const s of sorted) {
    while (e.now + 5000 < s.at) {
      e.advanceTo(e.now + 5000);
      sample?.(e);
    }
    e.advanceTo(s.at);
    e.apply(action(s));
    sample?.(e);
  }
  for (let t = e.now; t < 300_000; t += 5000) {
    e.advanceTo(t);
    sample?.(e);
  }
  return e;
}

describe('invariants over random pods and timelines', () => {
  it('no container runs without a ready sandbox; restart counts never decrease; Succeeded/Failed never change; logs and trace in time order', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 10 }), fc.nat(1000), (steps, seed) => {
        const restarts = new Map<string, number>();
        const terminal = new Map<string, string>();
        run(steps, seed, (e) => {
          const s = e.state();
          for (const rt of s.runtimes) {
            const sandboxes = new Map(rt.sandboxes.map((x) => [x.id, x]));
            for (const c of rt.containers) {
              if (c.state === 'CONTAINER_RUNNING') expect(sandboxes.get(c.sandboxId)?.state).toBe('SANDBOX_READY');
            }
          }
          for (const p of s.pods) {
            for (const cs of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])]) {
              const key = `${p.metadata.uid}/${cs.name}`;
              expect(cs.restartCount).toBeGreaterThanOrEqual(restarts.get(key) ?? 0);
              restarts.set(key, cs.restartCount);
            }
            const was = terminal.get(p.metadata.uid);
            if (was) expect(p.status.phase).toBe(was);
            if (p.status.phase === 'Succeeded' || p.status.phase === 'Failed') terminal.set(p.metadata.uid, p.status.phase);
          }
          for (const list of [e.trace, s.kubeletLogs, s.containerLogs] as { t: number }[][]) {
            for (let i = 1; i < list.length; i++) expect(list[i].t).toBeGreaterThanOrEqual(list[i - 1].t);
          }
          e.trace.forEach((ev, i) => expect(ev.seq).toBe(i));
          for (const ev of s.events) expect(eventEnd(ev)).toBeGreaterThanOrEqual(eventStart(ev));
        });
      }),
      { numRuns: 25 },
    );
  });

  it('same steps and seed: byte-identical trace and states', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 8 }), fc.nat(1000), (steps, seed) => {
        const a = run(steps, seed);
        const b = run(steps, seed);
        expect(JSON.stringify(a.trace)).toBe(JSON.stringify(b.trace));
        expect(JSON.stringify(a.state())).toBe(JSON.stringify(b.state()));
        expect(JSON.stringify(a.stateAt(123_456))).toBe(JSON.stringify(b.stateAt(123_456)));
      }),
      { numRuns: 10 },
    );
  });

  it('stateAt(t) is exactly what state() was at t', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 8 }), fc.nat(1000), (steps, seed) => {
        const seen = new Map<number, string>();
        const e = run(steps, seed, (eng) => seen.set(eng.now, JSON.stringify(eng.state())));
        for (const [t, json] of seen) expect(JSON.stringify(e.stateAt(t))).toBe(json);
      }),
      { numRuns: 10 },
    );
  });
});
