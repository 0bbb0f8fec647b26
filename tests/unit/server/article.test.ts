// The article, command for command, with the real kubectl against `podlife serve`: the crash-loop and the
// nginx-test walk-throughs at the article's moments. Every output must be what `podlife simulate` prints
// for the same command at the same virtual time; the rows the article quotes from a real cluster are
// asserted literally too. `describe` runs with the server's clock lined up with kubectl's (kubectl computes
// event ages itself), so its whole output, ages included, is compared.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import type { Scenario } from '../../../src/sim/index.ts';
import {
  SKIP_REASON, advance, asKubectl132, atRealTime, kubectl, kubectlAvailable, loadScenario, podlifeAt, shell, startPaused,
} from './helpers.ts';

describe.skipIf(!kubectlAvailable)('crash-loop with a real kubectl', () => {
  let scenario: Scenario;
  let server: RunningServer;
  beforeAll(async () => {
    scenario = loadScenario('crash-loop');
    server = await startPaused({ scenario });
  });
  afterAll(() => server.close());

  it('kubectl get pod crash-test at 1m, as podlife prints it', async () => {
    await advance(server, '1m');
    const real = await kubectl(server, ['get', 'pod', 'crash-test']);
    expect(real.stderr).toBe('');
    expect(real.stdout).toBe(podlifeAt(scenario, 60_000, 'kubectl get pod crash-test').stdout);
  });

  it('at 5m38.5s the container is terminated (exit code 1, Error) while the phase is Running', async () => {
    await advance(server, '5m38.5s');
    const line = `kubectl get pod crash-test -o jsonpath='{.status.phase}{"\\n"}{.status.containerStatuses[0].state}'`;
    const real = await shell(server, line);
    expect(real.stdout).toBe(podlifeAt(scenario, 338_500, line).stdout);
    const [phase, state] = real.stdout.split('\n');
    expect(phase).toBe('Running');
    expect(JSON.parse(state).terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
  });

  it('at 8m23s kubectl get pod crash-test prints the article\'s row', async () => {
    await advance(server, '8m23s');
    const real = await kubectl(server, ['get', 'pod', 'crash-test']);
    expect(real.stdout).toBe(podlifeAt(scenario, 503_000, 'kubectl get pod crash-test').stdout);
    // The article's real cluster printed exactly this row.
    expect(real.stdout.split('\n')[1]).toBe('crash-test   0/1     CrashLoopBackOff   6 (2m46s ago)   8m23s');
    const line = `kubectl get pod crash-test -o jsonpath='{.status.phase}{"\\n"}{.status.containerStatuses[0].state.waiting.reason}{"\\n"}'`;
    const jp = await shell(server, line);
    expect(jp.stdout).toBe('Running\nCrashLoopBackOff\n');
    expect(jp.stdout).toBe(podlifeAt(scenario, 503_000, line).stdout);
  });

  it('kubectl describe pod crash-test | tail -20 at 8m30s: kubectl\'s describer over podlife\'s pod and events', async () => {
    const line = 'kubectl describe pod crash-test | tail -20';
    const { real, expected } = await atRealTime(scenario, 510_000, line, {
      podlifeLine: 'kubectl describe pod crash-test',
      normalise: (s) => asKubectl132(s).split('\n').slice(-21).join('\n'),
    });
    expect(real.stdout).toBe(expected.stdout);
    expect(real.stdout).toMatch(/ Warning +BackOff +\S+ \(x\d+ over \S+\) +kubelet +Back-off restarting failed container crash-test /);
  });
});

describe.skipIf(!kubectlAvailable)('nginx-test with a real kubectl', () => {
  let scenario: Scenario;
  let server: RunningServer;
  beforeAll(async () => {
    scenario = loadScenario('nginx-test');
    server = await startPaused({ scenario });
  });
  afterAll(() => server.close());

  it('kubectl get pod nginx-test -o yaml at 3s: the status as podlife has it', async () => {
    await advance(server, '3s');
    const real = await kubectl(server, ['get', 'pod', 'nginx-test', '-o', 'yaml']);
    expect(real.stdout).toBe(podlifeAt(scenario, 3000, 'kubectl get pod nginx-test -o yaml').stdout);
    expect(real.stdout).toContain('    state:\n      running:\n');
    expect(real.stdout).toContain('  phase: Running\n');
  });

  it('kubectl get pod nginx-test -o wide at 74s', async () => {
    await advance(server, '74s');
    const real = await kubectl(server, ['get', 'pod', 'nginx-test', '-o', 'wide']);
    expect(real.stdout).toBe(podlifeAt(scenario, 74_000, 'kubectl get pod nginx-test -o wide').stdout);
    expect(real.stdout.split('\n')[1]).toMatch(/^nginx-test {3}1\/1 {5}Running {3}0 {10}7[34]s {3}10\.244\.5\.\d+ {3}worker01 {3}<none> {11}<none>$/);
  });

  it("kubectl get events --sort-by='.lastTimestamp' --field-selector involvedObject.name=nginx-test at 102s", async () => {
    await advance(server, '102s');
    const line = "kubectl get events --sort-by='.lastTimestamp' --field-selector involvedObject.name=nginx-test";
    const real = await shell(server, line);
    expect(real.stdout).toBe(podlifeAt(scenario, 102_000, line).stdout);
    expect(real.stdout.split('\n').slice(1, -1).map((l) => l.split(/\s{2,}/)[2])).toEqual(['Scheduled', 'Pulled', 'Created', 'Started']);
  });

  it('kubectl describe pod nginx-test at 89.5s, ages included', async () => {
    const command = 'kubectl describe pod nginx-test';
    const { real, expected } = await atRealTime(scenario, 89_500, command, { normalise: asKubectl132 });
    expect(real.stderr).toBe('');
    expect(real.stdout).toBe(expected.stdout);
    expect(real.stdout).toContain('Status:           Running\n');
  });

  it('kubectl describe pod nginx-test | grep -A5 Events, as in the article', async () => {
    const line = 'kubectl describe pod nginx-test | grep -A5 Events';
    const { real, expected } = await atRealTime(scenario, 89_500, line, { normalise: asKubectl132 });
    expect(real.stdout).toBe(expected.stdout);
    expect(real.stdout.split('\n')[0]).toBe('Events:');
    expect(real.stdout).toContain('Container image "m.daocloud.io/docker.io/library/nginx:alpine" already present on machine');
  });
});

it.runIf(!kubectlAvailable)(SKIP_REASON, () => {
  expect(kubectlAvailable).toBe(false);
});
