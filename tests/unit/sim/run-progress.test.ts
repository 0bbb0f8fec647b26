// runCommandAt's onAdvance (the CLI's progress line for a long --at): the simulation advances in steps of a
// virtual hour and reports each, and the steps run exactly the events one advance would, so every output is
// the same with or without it.
import { describe, expect, it } from 'vitest';
import { runCommandAt } from '../../../src/sim/run.ts';
import { loadScenario } from './scenarios.ts';

describe('runCommandAt with onAdvance', () => {
  const scenario = loadScenario('crash-loop');
  const at = 30 * 3_600_000 + 1234;

  it('reports non-decreasing times up to `at` and prints what a single advance prints', () => {
    for (const command of ['kubectl get pods', 'kubectl get events', 'journalctl -u kubelet | tail -4', 'crictl ps -a -o json']) {
      const seen: number[] = [];
      const stepped = runCommandAt(scenario, at, command, { onAdvance: (now, target) => { expect(target).toBe(at); seen.push(now); } });
      expect(stepped, command).toEqual(runCommandAt(scenario, at, command));
      expect(seen.every((t, i) => i === 0 || t >= seen[i - 1]), command).toBe(true);
      expect(seen.at(-1)).toBe(at);
      // one report per virtual hour past the timeline's last step, and one per timeline step up to `at`
      expect(seen.length).toBeGreaterThanOrEqual(30);
    }
  });
});
