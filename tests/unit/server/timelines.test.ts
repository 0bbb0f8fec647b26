// Every shipped scenario served to the real kubectl: at each moment of its timeline, kubectl's view of every
// simulated object (pods, events, nodes, as tables, wide tables and YAML; every container's log) is
// podlife's, and every kubectl command the scenario types prints what `podlife simulate` prints for it.
// `describe` is compared without what kubectl computes from the reader's clock (event ages): the same text
// otherwise, and the same events in the same order; the article test compares it with the clocks aligned.

import { describe, expect, it } from 'vitest';
import { isMutating } from '../../../src/sim/commands/execute.ts';
import { runScenario, runnable } from '../../../src/sim/run.ts';
import { scenarioNames } from '../sim/scenarios.ts';
import {
  SKIP_REASON, advance, asKubectl132, eventRows, kubectl, kubectlAvailable, loadScenario, podlifeRead, podlifeState, shell, startPaused,
  withoutClock,
} from './helpers.ts';

/** What a reader can run against the server: kubectl, alone or piped into the shell's own tools. */
const onNode = (line: string): boolean => /^(sudo|crictl|journalctl)\b/.test(line);

const OBJECT_VIEWS = ['kubectl get pods -o wide', 'kubectl get pods -A -o yaml', 'kubectl get events -o wide'];
/** Nodes do not change in a scenario: looked at once, at the end. */
const END_VIEWS = ['kubectl get nodes -o wide', 'kubectl get nodes -o yaml'];

describe.skipIf(!kubectlAvailable)('every scenario, as the real kubectl sees it', () => {
  it.each(scenarioNames())('%s', async (name) => {
    const scenario = loadScenario(name);
    const transcript = runScenario(runnable(scenario)).steps;
    const server = await startPaused({ scenario });
    try {
      const times = [...new Set(transcript.map((s) => s.at))].sort((a, b) => a - b);
      let compared = 0;
      for (const t of times) {
        await advance(server, `${t}ms`);
        // podlife's cluster at t, simulated on its own (as `podlife simulate --at` does), read at t.
        const state = podlifeState(scenario, t);
        const ours = (line: string) => podlifeRead(state, line, state.epoch + t);
        // Reads do not change the paused cluster: run them side by side.
        await Promise.all(OBJECT_VIEWS.map(async (view) => {
          const real = await shell(server, view);
          expect(real.stdout, `${name} at ${t} ms: ${view}`).toBe(ours(view).stdout);
          expect(real.stderr, `${name} at ${t} ms: ${view}`).toBe(ours(view).stderr);
        }));
        const steps = transcript.filter((s) => s.at === t && !onNode(s.command) && !isMutating(s.command));
        await Promise.all(steps.map(async (step) => {
          const describePod = /^kubectl describe pod (\S+)/.exec(step.command);
          if (describePod) {
            const real = await kubectl(server, ['describe', 'pod', describePod[1]]);
            const expected = asKubectl132(ours(`kubectl describe pod ${describePod[1]}`).stdout);
            expect(withoutClock(real.stdout), `${name} at ${t} ms: ${step.command}`).toBe(withoutClock(expected));
            expect(eventRows(real.stdout)).toEqual(eventRows(expected));
          } else {
            const real = await shell(server, step.command);
            expect(real.stdout, `${name} at ${t} ms: ${step.command}`).toBe(step.stdout);
            expect(real.stderr, `${name} at ${t} ms: ${step.command}`).toBe(step.stderr);
          }
        }));
        compared += steps.length;
      }
      // Every container's log (and the previous one's) and the nodes, at the end of the timeline.
      const last = times[times.length - 1];
      const state = podlifeState(scenario, last);
      const atEnd = server.cluster.engine.state().pods.flatMap((pod) =>
        [...(pod.spec.initContainers ?? []), ...pod.spec.containers].flatMap((c) =>
          ['', ' --previous'].map((previous) => `kubectl logs ${pod.metadata.name} -c ${c.name}${previous}`),
        ),
      ).concat(END_VIEWS);
      await Promise.all(atEnd.map(async (line) => {
        const real = await shell(server, line);
        const ours = podlifeRead(state, line, state.epoch + last);
        expect(real.stdout, `${name}: ${line}`).toBe(ours.stdout);
        expect(real.stderr, `${name}: ${line}`).toBe(ours.stderr);
      }));
      expect(compared + atEnd.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

it.runIf(!kubectlAvailable)(SKIP_REASON, () => {
  expect(kubectlAvailable).toBe(false);
});
