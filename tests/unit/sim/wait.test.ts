// kubectl wait (src/sim/commands/kubectl/wait.ts): kubectl watches an object until its condition holds or the timeout
// passes; podlife reads the cluster's future at each moment it changed. The real kubectl checks the messages and the
// conditions met at once against `podlife serve` (tests/unit/server/get-forms.test.ts, "kubectl wait"); these are the
// waits that need the future: met later, timed out, deleted, in a transcript, and where the future ends.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { formatTranscript, futureOf, runCommandAt, runScenario, runnable } from '../../../src/sim/run.ts';
import type { ClusterState } from '../../../src/sim/types.ts';

const load = (name: string) => {
  const file = `content/scenarios/${name}.yaml`;
  return runnable(parseScenario(readFileSync(file, 'utf8'), file));
};
const inline = (yaml: string) => runnable(parseScenario(yaml, 'inline.yaml'));

/** The first moment in (from, to] of a run at which `pred` holds of its state, by scanning every change. */
function firstMoment(scenario: ReturnType<typeof load>, from: number, to: number, pred: (s: ClusterState) => boolean): number | undefined {
  const run = runScenario(scenario);
  run.engine.advanceTo(Math.max(to, run.engine.now));
  return run.engine.changeTimes(from, to).find((t) => pred(run.engine.stateAt(t)));
}

const ready = (s: ClusterState, name: string) => s.pods.find((p) => p.metadata.name === name)?.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';

describe('kubectl wait looks ahead', () => {
  it('a pod that becomes Ready within the timeout: "condition met"; one that does not: the timeout error', () => {
    const nginx = load('nginx-test');
    expect(firstMoment(nginx, 1000, 31_000, (s) => ready(s, 'nginx-test'))).toBeGreaterThan(1000);
    expect(runCommandAt(nginx, 1000, 'kubectl wait --for=condition=Ready pod/nginx-test')).toEqual({ stdout: 'pod/nginx-test condition met\n', stderr: '', exitCode: 0 });
    // --timeout=0 checks once, now
    expect(runCommandAt(nginx, 1000, 'kubectl wait --for=condition=Ready pod/nginx-test --timeout=0')).toEqual({
      stdout: '', stderr: 'error: condition not met for pods/nginx-test\n', exitCode: 1,
    });
    const crash = load('crash-loop');
    expect(firstMoment(crash, 10_000, 70_000, (s) => ready(s, 'crash-test'))).toBeUndefined();
    expect(runCommandAt(crash, 10_000, 'kubectl wait --for=condition=Ready pod/crash-test --timeout=60s')).toEqual({
      stdout: '', stderr: 'error: timed out waiting for the condition on pods/crash-test\n', exitCode: 1,
    });
  });

  it('-f: waits on the pods the file names, as on the same pods named', () => {
    const nginx = load('nginx-test');
    const files: Record<string, string> = {
      'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx-test\nspec:\n  containers:\n  - name: nginx\n    image: nginx\n',
      'two.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx-test\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: other\n',
      'elsewhere.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx-test\n  namespace: kube-system\n',
    };
    const at = (line: string) => runCommandAt(nginx, 1000, line, { readFile: (f) => files[f] });
    expect(at('kubectl wait --for=condition=Ready -f pod.yaml')).toEqual(at('kubectl wait --for=condition=Ready pod/nginx-test'));
    expect(at('kubectl wait --for=condition=Ready -f pod.yaml').stdout).toBe('pod/nginx-test condition met\n');
    expect(at('kubectl wait --for=condition=Ready -f two.yaml --timeout=1m')).toEqual(at('kubectl wait --for=condition=Ready pod/nginx-test pod/other --timeout=1m'));
    expect(at('kubectl wait --for=condition=Ready -f elsewhere.yaml -n default').stderr).toBe(
      'error: the namespace from the provided object "kube-system" does not match the namespace "default". You must pass \'--namespace=kube-system\' to perform this operation.\n',
    );
    expect(at('kubectl wait --for=condition=Ready -f pod.yaml pod/x').stderr).toBe('error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well\n');
  });

  it('prints the object as it is at the moment the condition is met (-o jsonpath)', () => {
    const crash = load('crash-loop');
    const restarts = (s: ClusterState) => s.pods[0]?.status.containerStatuses?.[0]?.restartCount;
    const at = firstMoment(crash, 10_000, 310_000, (s) => restarts(s) === 3)!;
    expect(at).toBeGreaterThan(10_000);
    const finished = runCommandAt(crash, at, "kubectl get pod crash-test -o jsonpath='{.status.containerStatuses[0].lastState.terminated.finishedAt}'").stdout;
    expect(finished).toMatch(/^\d{4}-\d\d-\d\dT/);
    const r = runCommandAt(crash, 10_000, "kubectl wait --for=jsonpath='{.status.containerStatuses[0].restartCount}'=3 pod/crash-test --timeout=5m -o jsonpath='{.status.containerStatuses[0].lastState.terminated.finishedAt}'");
    expect(r).toEqual({ stdout: finished, stderr: '', exitCode: 0 });
  });

  it('--for=delete: met when the pod is gone, or made again under the same name (another UID)', () => {
    const del = load('delete');
    expect(runCommandAt(del, 40_000, 'kubectl wait --for=delete pod/nginx-delete --timeout=60s').stdout).toBe('pod/nginx-delete condition met\n');
    expect(runCommandAt(del, 40_000, 'kubectl wait --for=delete pod/nginx-delete --timeout=0').stderr).toBe('error: condition not met for pods/nginx-delete\n');
    const again = inline(`title: again
timeline:
  - at: 0s
    run: kubectl run web --image=registry.k8s.io/pause:3.10
  - at: 20s
    run: kubectl delete pod web --grace-period=0 --force
  - at: 20s
    run: kubectl run web --image=registry.k8s.io/pause:3.10
`);
    // at 10 s the pod is there; at 20 s it is deleted and another made at once: a different object
    expect(runCommandAt(again, 10_000, 'kubectl wait --for=delete pod/web --timeout=30s').stdout).toBe('pod/web condition met\n');
    expect(runCommandAt(again, 10_000, 'kubectl wait --for=delete pod/web --timeout=5s').stderr).toBe('error: timed out waiting for the condition on pods/web\n');
  });

  it('--for=create waits for an object that does not exist yet, then the other conditions', () => {
    const nginx = load('nginx-test');
    const later = inline(`title: later
timeline:
  - at: 1s
    run: kubectl wait --for=create --for=condition=Ready pod/late --timeout=60s
  - at: 1s
    run: kubectl wait --for=create pod/late --timeout=5s
  - at: 10s
    run: kubectl run late --image=registry.k8s.io/pause:3.10
`);
    const transcript = formatTranscript(runScenario(later));
    expect(transcript).toContain('$ kubectl wait --for=create --for=condition=Ready pod/late --timeout=60s\npod/late condition met\npod/late condition met\n');
    expect(transcript).toContain('$ kubectl wait --for=create pod/late --timeout=5s\nerror: timed out waiting for the condition\n');
    expect(runCommandAt(nginx, 1000, 'kubectl wait --for=condition=Ready pod/nope').stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
  });

  it('in a transcript the wait does not hold the timeline up: a later step keeps its own time', () => {
    const s = inline(`title: order
timeline:
  - at: 0s
    run: kubectl run web --image=registry.k8s.io/pause:3.10
  - at: 0s
    run: kubectl wait --for=condition=Ready pod/web --timeout=60s
  - at: 0s
    run: kubectl get pod web -o jsonpath={.status.phase}
`);
    const run = runScenario(s);
    expect(run.steps.map((x) => x.stdout)).toEqual(['pod/web created\n', 'pod/web condition met\n', 'Pending']);
    // and the run is the same with and without the wait (it only reads)
    expect(runScenario(s).trace).toEqual(run.trace);
  });

  it('where the future ends before the deadline (the run a page shows), says so instead of guessing', () => {
    const crash = load('crash-loop');
    const run = runScenario(crash);
    const end = 20_000;
    const ctx = { state: run.engine.stateAt(10_000), future: () => futureOf(run.engine, undefined, end) };
    const r = execute('kubectl wait --for=condition=Ready pod/crash-test --timeout=60s', ctx);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: podlife: kubectl wait would still be waiting when the run shown ends; run it with podlife simulate --at to see the outcome\n');
    // met before the end: answered
    expect(execute('kubectl wait --for=condition=PodScheduled pod/crash-test --timeout=60s', ctx).stdout).toBe('pod/crash-test condition met\n');
  });
});
