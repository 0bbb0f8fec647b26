// `kubectl describe node`: the real kubectl's NodeDescriber over podlife serve (the node, its pods, the kubelet's
// lease) against podlife's own describer at the same moment, ages included. kubectl 1.32 (the local client) still
// prints "Kube-Proxy Version:", which v1.36's describe.go dropped: that line is the one difference mapped.

import { describe, expect, it } from 'vitest';
import { SKIP_REASON, atRealTime, kubectlAvailable, loadScenario } from './helpers.ts';

/** podlife's v1.36 text as kubectl 1.32 prints it. */
const asKubectl132 = (s: string) => s.replace(/^(  Kubelet Version:\s+\S+\n)/m, '$1  Kube-Proxy Version:         \n');

describe.skipIf(!kubectlAvailable)('kubectl describe node, the real kubectl against podlife', () => {
  it.each([
    // a crash-looping pod without requests: 0 (0%) everywhere
    ['crash-loop', 149_000],
    // a pod no node can take: not on the node, nothing allocated
    ['unschedulable', 60_000],
    // a resize in progress: the pod's row counts the larger of spec, allocation and what the runtime applied
    ['resize', 20_200],
    // a node labelled, cordoned and uncordoned: its labels, the kubelet's NodeNotSchedulable/NodeSchedulable events
    // (the describer searches the node's events by its name as UID too, as the kubelet records them)
    ['node-selector', 45_000], ['node-selector', 75_000],
    // a NoExecute taint, one pod gone and one terminating
    ['taint-eviction', 90_500],
    // (an Infeasible resize is not compared here: kubectl 1.32 predates the PodResizePending condition and counts
    // the spec; tests/unit/sim/describe-node.test.ts checks podlife against the v1.36 helpers instead)
  ])('%s at %dms', async (name, at) => {
    const { real, expected } = await atRealTime(loadScenario(name), at, 'kubectl describe node worker01', { normalise: asKubectl132 });
    expect(real.stderr).toBe('');
    expect(real.stdout).toBe(expected.stdout);
    expect(real.stdout).toMatch(/^Lease:\n  HolderIdentity:  worker01\n  AcquireTime:     <unset>\n  RenewTime:       /m);
  });
});

describe.runIf(!kubectlAvailable)('kubectl describe node', () => {
  it(SKIP_REASON, () => {
    expect(kubectlAvailable).toBe(false);
  });
});
