// The forms of `kubectl get` a user types beside the plain table — several resource types at once, --no-headers,
// -o custom-columns, namespaces — and the other read-only commands podlife answers (describe namespace, top), run by
// the real kubectl against `podlife serve` and by podlife's own kubectl at the same virtual time: stdout, stderr and
// the exit code must agree.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import type { Scenario } from '../../../src/sim/index.ts';
import { SKIP_REASON, advance, kubectl, kubectlAvailable, loadScenario, podlifeAt, startPaused } from './helpers.ts';

describe.skipIf(!kubectlAvailable)('kubectl get forms, the real kubectl against podlife', () => {
  let scenario: Scenario;
  let server: RunningServer;
  const AT = 149_000;
  beforeAll(async () => {
    scenario = loadScenario('crash-loop');
    server = await startPaused({ scenario });
    await advance(server, '2m29s');
  });
  afterAll(() => server.close());

  it.each([
    // several types: one table per type, a blank line between them, NAME says the kind
    ['pods,events'], ['po,no'], ['pods,nodes -o wide'], ['pod,ev -A'], ['pods,events -o wide'],
    // only the types that found something print; the kind is said when more than one type was listed
    ['nodes,pods -l run=crash-test'], ['pods,pods'], ['pod/crash-test node/worker01'],
    // a name not found among several types, and nothing found at all
    ['pod,node crash-test'], ['nodes,pods -l x=y'], ['pods,events -l x=y'],
    ['pods,events -o name'], ['pods,nodes -o yaml'],
    // --no-headers: the columns are as wide as their cells
    ['pods --no-headers'], ['events --no-headers'], ['pods,nodes --no-headers'], ['pods -o wide --no-headers'],
    // custom columns
    ['pods -o custom-columns=NAME:.metadata.name,IP:status.podIP,RESTARTS:{.status.containerStatuses[0].restartCount}'],
    ['pods,nodes -o custom-columns=KIND:.kind,NAME:.metadata.name,LABELS:.metadata.labels'],
    ['events --no-headers -o custom-columns=R:.reason,C:.count,F:.involvedObject.fieldPath'],
    ['nodes -o custom-columns=N:.metadata.name,ADDRESSES:.status.addresses,CPU:.status.allocatable.cpu'],
    ['pod nope -o custom-columns=N:.metadata.name'], ['pod nope1 nope2 -o yaml'],
    // label columns (-L, after the printer's columns, before LABELS) and --show-kind
    ['pod -L run'], ['pods -L run,app --show-labels'], ['pods -L example.com/tier -A'], ['pods --show-kind'],
    ['pods,nodes --show-kind -L run'], ['pods -L run -o wide'], ['pods -L run --no-headers'], ['events -L x --show-kind -o wide'],
    // namespaces: the four of a kubeadm cluster
    ['ns'], ['namespaces -o wide'], ['ns,pods'], ['namespace kube-system -o yaml'], ['ns --field-selector status.phase=Active -o name'],
    ['ns nope'], ['ns -l kubernetes.io/metadata.name=default --no-headers'],
  ])('kubectl get %s', async (args) => {
    const real = await kubectl(server, ['get', ...args.split(' ')]);
    const ours = podlifeAt(scenario, AT, `kubectl get ${args}`);
    expect(ours.stdout).toBe(real.stdout);
    expect(ours.stderr).toBe(real.stderr);
    expect(ours.code).toBe(real.code);
  });

  it.each([
    ['describe ns default'], ['describe namespace kube-system'], ['describe ns nope'],
    // kubectl run's client-side object: -o json in the structs' field order, --privileged, --overrides of each type
    ['run x --image=nginx --dry-run=client -o json --env=A=b --port=80 --labels=a=b,c=d --privileged --image-pull-policy=Always --command -- sleep 1'],
    ['run x --image=nginx --dry-run=client -o yaml --privileged --overrides={"spec":{"nodeName":"w2","containers":[{"name":"x","image":"busybox"}]}}'],
    ['run x --image=nginx --dry-run=client -o json --overrides={"metadata":{"labels":{"a":"b"}},"spec":{"initContainers":[{"name":"i","image":"busybox"}]}}'],
    ['run x --image=nginx --dry-run=client -o yaml --override-type=strategic --overrides={"spec":{"containers":[{"name":"x","stdin":true}]}}'],
    ['run x --image=nginx --dry-run=client -o yaml --override-type=json --overrides=[{"op":"add","path":"/spec/hostname","value":"h"}]'],
    ['run x --image=nginx --dry-run=client --overrides={bad'], ['run x --image=nginx --dry-run=client --override-type=foo --overrides={}'],
    ['run x --image=nginx --dry-run=client --override-type=json --overrides={}'], ['run x --image=nginx --dry-run=client --override-type=strategic --overrides={bad'],
    ['apply -f /dev/null --validate=bogus'], ['apply -f /dev/null --force-conflicts'],
    // no metrics-server: kubectl says the Metrics API is not available
    ['top pod'], ['top node'], ['top pod crash-test --containers'], ['top foo'],
  ])('kubectl %s', async (args) => {
    const real = await kubectl(server, args.split(' '));
    const ours = podlifeAt(scenario, AT, `kubectl ${args.split(' ').map((a) => `'${a}'`).join(' ')}`);
    expect(ours.stdout).toBe(real.stdout);
    expect(ours.stderr).toBe(real.stderr);
    expect(ours.code).toBe(real.code);
  });
});

describe.runIf(!kubectlAvailable)('kubectl get forms', () => {
  it(SKIP_REASON, () => {
    expect(kubectlAvailable).toBe(false);
  });
});

describe.skipIf(!kubectlAvailable)('kubectl logs forms, the real kubectl against podlife', () => {
  let scenario: Scenario;
  let server: RunningServer;
  beforeAll(async () => {
    scenario = loadScenario('nginx-test');
    server = await startPaused({ scenario });
    await advance(server, '89s');
  });
  afterAll(() => server.close());

  it.each([
    ['logs nginx-test'], ['logs pod/nginx-test --tail=3 --timestamps'],
    // a selector: the last 10 lines of each pod unless --tail says otherwise; --prefix names the source
    ['logs -l run=nginx-test'], ['logs -l run=nginx-test --prefix'], ['logs -l run=nginx-test --tail=3 --all-containers --prefix'],
    ['logs -l run=none'], ['logs nginx-test -l run=x'],
    // --limit-bytes is cut by the server, before kubectl adds the prefix
    ['logs nginx-test --limit-bytes=100'], ['logs nginx-test --limit-bytes=100 --prefix'], ['logs -l run=nginx-test --limit-bytes=50 --timestamps'],
    // the argument and flag errors
    ['logs nginx-test --all-containers -c nginx-test'], ['logs nginx-test nginx-test -c nginx-test'], ['logs nginx-test --limit-bytes=-1'],
    ['logs nginx-test --tail=-2'], ['logs nginx-test -p'], ['logs nginx-test -p --ignore-errors'],
  ])('kubectl %s', async (args) => {
    const real = await kubectl(server, args.split(' '));
    const ours = podlifeAt(scenario, 89_000, `kubectl ${args}`);
    expect(ours.stdout).toBe(real.stdout);
    expect(ours.stderr).toBe(real.stderr);
    expect(ours.code).toBe(real.code);
  });
});
