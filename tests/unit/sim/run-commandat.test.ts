// commandAt answers read-only commands from a recorded run's own states; it must print exactly what
// runCommandAt (a fresh re-simulation up to that moment) prints, for every scenario and moment.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { commandAt, runCommandAt, runnable, runScenario } from '../../../src/sim/run.ts';

const DIR = 'content/scenarios';
const COMMANDS = ['kubectl get pods -o wide', 'kubectl get events --sort-by=.lastTimestamp', 'kubectl describe pods', 'crictl ps -a', 'journalctl -u kubelet | tail -5', 'kubectl get pods -A -o yaml'];

describe('commandAt = runCommandAt for read-only commands', () => {
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort()) {
    it(file, () => {
      const scenario = runnable(parseScenario(readFileSync(join(DIR, file), 'utf8'), join(DIR, file)));
      const run = runScenario(scenario);
      const end = run.engine.now;
      const times = [...new Set([0, 1, ...scenario.timeline.map((s) => s.at), Math.floor(end / 3), Math.floor(end / 2), end])];
      for (const t of times) {
        for (const command of COMMANDS) {
          expect(commandAt(scenario, run, t, command), `${file} at ${t} ms: ${command}`).toEqual(runCommandAt(scenario, t, command));
        }
      }
    });
  }

  it('re-simulates commands that change the cluster, and moments past the run', () => {
    const file = join(DIR, 'crash-loop.yaml');
    const scenario = runnable(parseScenario(readFileSync(file, 'utf8'), file));
    const run = runScenario(scenario);
    const at = 60_000;
    expect(commandAt(scenario, run, at, 'kubectl delete pod crash-test --wait=false')).toEqual(runCommandAt(scenario, at, 'kubectl delete pod crash-test --wait=false'));
    const later = run.engine.now + 3_600_000;
    expect(commandAt(scenario, run, later, 'kubectl get pods')).toEqual(runCommandAt(scenario, later, 'kubectl get pods'));
  });
});
