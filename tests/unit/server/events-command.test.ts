// `kubectl events`: the real kubectl (its own table, ages computed from the computer's clock) against podlife serve,
// and podlife's own kubectl at the same moment, ages included (atRealTime), plus the forms without ages.

import { describe, expect, it } from 'vitest';
import { SKIP_REASON, atRealTime, kubectlAvailable, loadScenario } from './helpers.ts';

describe.skipIf(!kubectlAvailable)('kubectl events, the real kubectl against podlife', () => {
  it.each([
    // oldest first; a repeated event says "(xN over …)"; the object is Kind/name
    ['crash-loop', 503_000, 'kubectl events'],
    ['crash-loop', 503_000, 'kubectl events -A --types=warning,Normal'],
    ['crash-loop', 503_000, 'kubectl events --for pod/crash-test --types Warning --no-headers'],
    // the scheduler's events carry an eventTime, the kubelet's do not
    ['unschedulable', 60_000, 'kubectl events'],
    ['image-pull-error', 120_000, 'kubectl events --for=pod/app'],
    // nothing found: said on stderr
    ['crash-loop', 503_000, 'kubectl events -n kube-system'],
    ['crash-loop', 503_000, 'kubectl events --for pod/nope -A'],
  ])('%s at %dms: %s', async (name, at, line) => {
    const { real, expected } = await atRealTime(loadScenario(name), at, line);
    expect(real.stdout).toBe(expected.stdout);
    expect(real.stderr).toBe(expected.stderr);
    expect(real.code).toBe(expected.code);
  });

  it('prints the events in time order with their counts, in the events command\'s own columns', async () => {
    const { expected } = await atRealTime(loadScenario('crash-loop'), 503_000, 'kubectl events');
    expect(expected.stdout).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE\n/);
    // the last BackOff written: the kubelet's spam filter has dropped every event of the pod since (chapter 8)
    expect(expected.stdout).toMatch(/\n6m56s \(x5 over 8m19s\) +Warning +BackOff +Pod\/crash-test +Back-off restarting failed container/);
  });
});

describe.runIf(!kubectlAvailable)('kubectl events', () => {
  it(SKIP_REASON, () => {
    expect(kubectlAvailable).toBe(false);
  });
});
