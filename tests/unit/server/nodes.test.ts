// Changing labels, annotations and a node's scheduling with the real kubectl: label, annotate (pods and nodes),
// cordon, uncordon and taint, each typed into `podlife serve` and into podlife's own kubectl at the same virtual
// time, in the same order: what both print (stdout, stderr, exit code), and the cluster afterwards (the node as
// YAML, the node and pod tables, the events once the kubelet, the node lifecycle controller and the taint-eviction
// controller have answered), must agree.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import type { Scenario } from '../../../src/sim/index.ts';
import { advance, kubectlAvailable, loadScenario, podlifeAt, shell, startPaused, type Typed } from './helpers.ts';

/**
 * A sequence of command lines typed at one paused virtual time: each is run by bash with the real kubectl against
 * the server and by podlife with every earlier line already typed; the two must print the same.
 */
function sequence(
  title: string, scenarioName: string, at: number, lines: string[], after: { at: number; views: string[] }, as132: (s: string) => string = (s) => s,
): void {
  describe.skipIf(!kubectlAvailable)(`${title}, the real kubectl against podlife`, () => {
    let scenario: Scenario;
    let server: RunningServer;
    const typed: Typed[] = [];
    beforeAll(async () => {
      scenario = loadScenario(scenarioName);
      server = await startPaused({ scenario });
      await advance(server, `${at}ms`);
    });
    afterAll(() => server.close());

    // in order: each line changes what the next one sees
    for (const line of lines) {
      it(line, async () => {
        const real = await shell(server, line);
        const ours = podlifeAt(scenario, at, line, { typed });
        typed.push({ at, run: line });
        expect(ours.stdout).toBe(real.stdout);
        expect(as132(ours.stderr)).toBe(real.stderr);
        expect(ours.code).toBe(real.code);
      });
    }

    it(`afterwards, at ${after.at} ms: ${after.views.join('; ')}`, async () => {
      await advance(server, `${after.at}ms`);
      for (const view of after.views) {
        const real = await shell(server, view);
        const ours = podlifeAt(scenario, after.at, view, { typed });
        expect(ours.stdout, view).toBe(real.stdout);
        expect(ours.stderr, view).toBe(real.stderr);
      }
    });
  });
}

sequence('kubectl label and annotate', 'nginx-test', 10_000, [
  'kubectl label node worker01 disktype=ssd',
  // a different value needs --overwrite; the same value changes nothing
  'kubectl label node worker01 disktype=hdd',
  'kubectl label node worker01 disktype=hdd --overwrite',
  'kubectl label no/worker01 disktype=hdd',
  'kubectl label nodes --all zone=a',
  // removing: a label that is not there is reported on stdout
  'kubectl label node worker01 zone- nope-',
  'kubectl label pod nginx-test tier=web -o name',
  'kubectl label pod/nginx-test tier-',
  // one label: Go prints a map in random order, so --list is compared where there is one
  'kubectl label pod nginx-test --list',
  'kubectl label pods -l run=nginx-test team=a',
  'kubectl label pod nginx-test x=y --dry-run=client',
  'kubectl label pod nope a=b',
  'kubectl label pod nginx-test "a=b c"',
  'kubectl label pod nginx-test a=b=c',
  'kubectl label pod nginx-test x',
  'kubectl label pod nginx-test',
  'kubectl label pod nginx-test a=b a-',
  'kubectl label pod nginx-test "a b=c"',
  'kubectl annotate pod nginx-test note=hello',
  'kubectl annotate pod nginx-test note=bye',
  'kubectl annotate pod nginx-test note=bye --overwrite',
  'kubectl annotate node worker01 owner=ops -o name',
  'kubectl annotate pod nginx-test note-',
  'kubectl annotate pod nginx-test =x',
  // a table format: label has patched before it makes its printer, annotate refuses first
  'kubectl label pod nginx-test late=yes -o wide',
  'kubectl annotate pod nginx-test early=no -o custom-columns=N:.metadata.name',
  'kubectl label pods -l x=y a=b',
], { at: 20_000, views: ['kubectl get node worker01 -o yaml', 'kubectl get pods --show-labels', 'kubectl get nodes -L disktype,zone', 'kubectl get pod nginx-test -o jsonpath={.metadata.annotations}'] });

sequence('kubectl cordon, uncordon and taint', 'nginx-test', 10_000, [
  'kubectl cordon worker01',
  'kubectl cordon worker01',
  'kubectl get nodes',
  'kubectl uncordon node/worker01',
  'kubectl uncordon worker01',
  'kubectl cordon nope',
  'kubectl cordon',
  'kubectl cordon -l kubernetes.io/os=linux --dry-run=client',
  'kubectl cordon -l kubernetes.io/os=linux',
  'kubectl taint node worker01 dedicated=gpu:NoSchedule',
  'kubectl taint node worker01 dedicated=db:NoSchedule',
  'kubectl taint node worker01 dedicated=db:NoSchedule --overwrite',
  'kubectl taint nodes worker01 spot:PreferNoSchedule',
  'kubectl taint node worker01 dedicated:NoSchedule-',
  'kubectl taint node worker01 dedicated-',
  'kubectl taint node worker01 foo=bar:Bad',
  'kubectl taint node worker01 "a b=c:NoSchedule"',
  'kubectl taint node worker01',
  'kubectl taint node worker01 x=y:NoSchedule x-',
  'kubectl taint pod nginx-test a=b:NoSchedule',
  'kubectl taint node nope a=b:NoSchedule',
  'kubectl taint node worker01 key1=v:NoSchedule -o name',
  'kubectl taint node worker01 key2=v:NoSchedule -o wide',
  'kubectl taint nodes -l x=y a=b:NoSchedule',
  // NoExecute: the taint-eviction controller deletes the pod that does not tolerate it
  'kubectl taint node worker01 maintenance=true:NoExecute',
], { at: 30_000, views: ['kubectl get node worker01 -o yaml', 'kubectl get nodes', 'kubectl get events', 'kubectl get node worker01 -o jsonpath={.spec.taints}', 'kubectl get pods'] });

/** kubectl 1.32's drain says "cannot delete" twice (its filter messages began with it too); v0.36.2 says it once. */
const asKubectl132Drain = (s: string): string => s.replaceAll('cannot delete Pods', 'cannot delete cannot delete Pods');

sequence('kubectl drain refusals', 'nginx-test', 10_000, [
  // a pod that declares no controller stops the drain (the node stays cordoned)
  'kubectl drain worker01',
  'kubectl drain worker01 --dry-run=client --force',
  'kubectl drain worker01 --pod-selector=run=other',
  'kubectl drain', 'kubectl drain nope', 'kubectl drain worker01 -l x=y',
], { at: 20_000, views: ['kubectl get nodes', 'kubectl get pods'] }, asKubectl132Drain);

describe.skipIf(!kubectlAvailable)('kubectl drain --force: the real kubectl waits while the pod is evicted', () => {
  it('prints what podlife prints, and the pod goes as podlife says', async () => {
    const scenario = loadScenario('nginx-test');
    const server = await startPaused({ scenario });
    try {
      await advance(server, '10s');
      const line = 'kubectl drain worker01 --force --grace-period=5';
      const typed: Typed[] = [{ at: 10_000, run: line }];
      const draining = shell(server, line);
      // the eviction has reached the server once the pod shows a deletionTimestamp
      for (let i = 0; i < 200 && !server.cluster.engine.state().pods[0]?.metadata.deletionTimestamp; i++) await new Promise((r) => setTimeout(r, 25));
      for (const view of ['kubectl get pods', 'kubectl get pod nginx-test -o jsonpath={.status.conditions[?(@.type=="DisruptionTarget")]}']) {
        const real = await shell(server, view);
        expect(podlifeAt(scenario, 10_000, view, { typed }).stdout, view).toBe(real.stdout);
      }
      await advance(server, '30s');
      const done = await draining;
      const ours = podlifeAt(scenario, 10_000, line);
      expect(done.stdout).toBe(ours.stdout);
      expect(done.stderr).toBe(ours.stderr);
      expect(done.stdout).toBe('node/worker01 cordoned\nevicting pod default/nginx-test\npod/nginx-test evicted\nnode/worker01 drained\n');
      for (const view of ['kubectl get pods', 'kubectl get events', 'kubectl get nodes']) {
        const real = await shell(server, view);
        expect(podlifeAt(scenario, 30_000, view, { typed }).stdout, view).toBe(real.stdout);
      }
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!kubectlAvailable)('a pod Pending on a nodeSelector, then the real kubectl labels the node', () => {
  it('the scheduler retries at once and the pod runs, as in podlife', async () => {
    const scenario = loadScenario('unschedulable');
    const pending: Scenario = {
      ...scenario,
      // the unschedulable scenario's pod, asking for a label instead of 8 CPUs
      timeline: [{ ...scenario.timeline[0], apply: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big' }, spec: { nodeSelector: { disktype: 'ssd' }, containers: [{ name: 'app', image: 'm.daocloud.io/docker.io/library/nginx:alpine' }] } } }],
    };
    const server = await startPaused({ scenario: pending });
    try {
      await advance(server, '30s');
      const typed: Typed[] = [{ at: 30_000, run: 'kubectl label node worker01 disktype=ssd' }];
      expect((await shell(server, typed[0].run)).stdout).toBe('node/worker01 labeled\n');
      for (const at of [30_004, 30_010, 32_000]) {
        await advance(server, `${at}ms`);
        for (const view of ['kubectl get pod big -o wide', 'kubectl get events']) {
          const real = await shell(server, view);
          expect(podlifeAt(pending, at, view, { typed }).stdout, `${view} at ${at} ms`).toBe(real.stdout);
        }
      }
      expect((await shell(server, 'kubectl get pod big')).stdout).toMatch(/big +1\/1 +Running/);
    } finally {
      await server.close();
    }
  });
});
