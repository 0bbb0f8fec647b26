// What the article shows from its real cluster, line by line, against the simulated transcripts.
// Each expectation is quoted from the article (seed/000_dba8feacdf50fc37.txt); where the simulation
// cannot be byte-identical (generated IDs, the pod IP's last octet, kernel PIDs) the line is matched
// with those parts as patterns and the rest exact.

import { describe, expect, it } from 'vitest';
import { runCommandAt } from '../../../src/sim/run.ts';
import { loadScenario, transcriptOf } from './scenarios.ts';

/** The output printed under `$ <command>` (the first time it appears), with the newline the transcript ends it with. */
function outputOf(transcript: string, command: string): string {
  const start = transcript.indexOf(`$ ${command}\n`);
  if (start < 0) throw new Error(`no "$ ${command}" in the transcript`);
  const rest = transcript.slice(start + command.length + 3);
  const end = rest.search(/^\$ /m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('kubectl run nginx (the first experiment)', () => {
  it('2 s after kubectl run the pod is ContainerCreating', () => {
    expect(outputOf(transcriptOf('nginx'), 'kubectl get pod nginx')).toBe(
      'NAME    READY   STATUS              RESTARTS   AGE\nnginx   0/1     ContainerCreating   0          2s\n',
    );
  });
});

describe('crash-test (CrashLoopBackOff)', () => {
  const t = transcriptOf('crash-loop');
  it('at 8m23s: the article\'s row, exactly', () => {
    expect(outputOf(t, 'kubectl get pod crash-test').length).toBeGreaterThan(0);
    expect(t).toContain(
      '$ kubectl get pod crash-test\nNAME         READY   STATUS             RESTARTS        AGE\ncrash-test   0/1     CrashLoopBackOff   6 (2m46s ago)   8m23s\n',
    );
  });
  it('phase Running while the container state is terminated: exitCode 1, reason Error, finished 03:06:26Z', () => {
    const out = outputOf(t, `kubectl get pod crash-test -o jsonpath='{.status.phase}{"\\n"}{.status.containerStatuses[0].state}'`);
    expect(out).toMatch(
      /^Running\n\{"terminated":\{"containerID":"containerd:\/\/[0-9a-f]{64}","exitCode":1,"finishedAt":"2026-08-04T03:06:26Z","reason":"Error","startedAt":"[^"]+"\}\}\n$/,
    );
  });
});

describe('nginx-test (image already present)', () => {
  const t = transcriptOf('nginx-test');
  it('status right after kubectl run: Running on worker01, the article\'s timestamps', () => {
    const yaml = outputOf(t, 'kubectl get pod nginx-test -o yaml');
    expect(yaml).toContain('  phase: Running\n');
    expect(yaml).toContain('  hostIP: 192.168.114.148\n');
    expect(yaml).toContain('  nodeName: worker01\n');
    expect(yaml).toMatch(/  podIP: 10\.244\.5\.\d+\n/);
    expect(yaml).toContain('    image: m.daocloud.io/docker.io/library/nginx:alpine\n');
    expect(yaml).toContain('    state:\n      running:\n        startedAt: "2026-08-04T03:32:37Z"\n');
    // a v1.36 kubelet writes resources ({} without requests) and the mounts between the article's two lines
    expect(yaml).toContain('    ready: true\n    resources: {}\n    restartCount: 0\n');
    expect(yaml).toContain('    lastTransitionTime: "2026-08-04T03:32:36Z"\n    observedGeneration: 1\n    status: "True"\n    type: PodScheduled\n');
    expect(yaml).toContain('    lastTransitionTime: "2026-08-04T03:32:37Z"\n    observedGeneration: 1\n    status: "True"\n    type: Ready\n');
  });
  it('-o wide at 74 s', () => {
    expect(outputOf(t, 'kubectl get pod nginx-test -o wide')).toMatch(
      /^NAME         READY   STATUS    RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES\nnginx-test   1\/1     Running   0          74s   10\.244\.5\.\d  {2}worker01   <none>           <none>\n$/,
    );
  });
  it('describe | grep -A5 Events at 89 s: the article\'s lines, exactly', () => {
    expect(outputOf(t, 'kubectl describe pod nginx-test | grep -A5 Events')).toBe(
      [
        'Events:',
        '  Type    Reason     Age   From               Message',
        '  ----    ------     ----  ----               -------',
        '  Normal  Scheduled  89s   default-scheduler  Successfully assigned default/nginx-test to worker01',
        '  Normal  Pulled     88s   kubelet            spec.containers{nginx-test}: Container image "m.daocloud.io/docker.io/library/nginx:alpine" already present on machine and can be accessed by the pod',
        '  Normal  Created    88s   kubelet            spec.containers{nginx-test}: Container created',
        '',
      ].join('\n'),
    );
  });
  it('get events --sort-by --field-selector at 102 s: the article\'s table, exactly', () => {
    expect(outputOf(t, "kubectl get events --sort-by='.lastTimestamp' --field-selector involvedObject.name=nginx-test")).toBe(
      [
        'LAST SEEN   TYPE     REASON      OBJECT           MESSAGE',
        '102s        Normal   Scheduled   pod/nginx-test   Successfully assigned default/nginx-test to worker01',
        '101s        Normal   Pulled      pod/nginx-test   Container image "m.daocloud.io/docker.io/library/nginx:alpine" already present on machine and can be accessed by the pod',
        '101s        Normal   Created     pod/nginx-test   Container created',
        '101s        Normal   Started     pod/nginx-test   Container started',
        '',
      ].join('\n'),
    );
  });
  it('crictl pods and ps (crictl v1.36 columns; the article\'s spacing was edited by hand)', () => {
    expect(outputOf(t, 'sudo crictl pods | grep nginx-test')).toMatch(
      /^[0-9a-f]{13} {7}2 minutes ago {7}Ready {15}nginx-test {10}default {13}0 {19}\(default\)\n$/,
    );
    expect(outputOf(t, 'sudo crictl ps | grep nginx-test')).toMatch(
      /^[0-9a-f]{13} {7}[0-9a-f]{13} {7}2 minutes ago {7}Running {13}nginx-test {10}0 {19}[0-9a-f]{13} {7}nginx-test {10}default\n$/,
    );
  });
  it('the container joins the pause process\'s ipc, uts and network namespaces', () => {
    const inspect = t.slice(t.indexOf('$ sudo crictl inspect '));
    const json = JSON.parse(inspect.slice(inspect.indexOf('\n') + 1));
    expect(json.map((n: { type: string }) => n.type)).toEqual(['pid', 'ipc', 'uts', 'network', 'mount', 'cgroup']);
    const paths = json.filter((n: { path?: string }) => n.path).map((n: { path: string }) => n.path);
    const pid = /^\/proc\/(\d+)\/ns\/ipc$/.exec(paths[0])![1];
    expect(paths).toEqual([`/proc/${pid}/ns/ipc`, `/proc/${pid}/ns/uts`, `/proc/${pid}/ns/net`]);
  });
});

describe('scheduled but Pending', () => {
  const t = transcriptOf('scheduled-pending');
  it('before scheduling: no node; after: nodeName worker01, PodScheduled True, phase still Pending', () => {
    expect(t).toContain('nodeName= phase=Pending\n');
    expect(t).toContain('nodeName=worker01 phase=Pending PodScheduled=True\n');
  });
});

describe('delete (kubelet log lines)', () => {
  it('RemoveContainer twice, then the orphaned volumes line, in the article\'s format and at its time', () => {
    const lines = outputOf(transcriptOf('delete'), 'sudo journalctl -u kubelet --since "30 sec ago" | grep -E "RemoveContainer|orphaned|Killing"').trimEnd().split('\n');
    const remove = lines.filter((l) => l.includes('RemoveContainer'));
    expect(remove).toHaveLength(2);
    for (const l of remove) {
      expect(l).toMatch(/^Aug 04 11:37:47 worker01 kubelet\[(\d+)\]: I0804 11:37:47\.\d{6} \1 scope\.go:122\] "RemoveContainer" containerID="[0-9a-f]{64}"$/);
    }
    expect(lines.some((l) => /kubelet_volumes\.go:161\] "Cleaned up orphaned pod volumes dir" podUID="[0-9a-f-]{36}" path="\/var\/lib\/kubelet\/pods\/[0-9a-f-]{36}\/volumes"$/.test(l))).toBe(true);
  });
});

describe('finalizers', () => {
  const t = transcriptOf('stuck-finalizer');
  it('the finalizer keeps the object until it is patched away', () => {
    expect(outputOf(t, "kubectl get pod guarded -o jsonpath='{.metadata.finalizers}'")).toBe('["example.com/cleanup"]\n');
    expect(outputOf(t, `kubectl patch pod guarded -p '{"metadata":{"finalizers":[]}}' --type=merge`)).toBe('pod/guarded patched\n');
    expect(t.endsWith('$ kubectl get pod guarded\nError from server (NotFound): pods "guarded" not found\n')).toBe(true);
  });
});

describe('runCommandAt (podlife simulate --at, the page console)', () => {
  const scenario = loadScenario('crash-loop');
  it('prints one command at any virtual time', () => {
    expect(runCommandAt(scenario, 503_000, 'kubectl get pod crash-test').stdout).toBe(
      'NAME         READY   STATUS             RESTARTS        AGE\ncrash-test   0/1     CrashLoopBackOff   6 (2m46s ago)   8m23s\n',
    );
  });
  it('a mutating command changes what follows (re-simulated with the command in place)', () => {
    const deleted = runCommandAt(scenario, 60_000, 'kubectl delete pod crash-test --grace-period=0 --force');
    expect(deleted.stdout).toBe('pod "crash-test" force deleted from default namespace\n');
    expect(runCommandAt(scenario, 60_000, 'kubectl get pod crash-test').exitCode).toBe(0);
  });
});
