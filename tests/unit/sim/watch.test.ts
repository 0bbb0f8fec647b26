// kubectl get -w in podlife's own kubectl (src/sim/commands/kubectl/watch.ts): the objects now, then a line per change
// read from the cluster's future; and kubectl logs -f, which follows a running container's log until it stops. What it prints is checked against the real kubectl on podlife serve
// (tests/unit/server/watch.test.ts); these are the ends a simulated watch needs: --request-timeout in virtual time,
// the end of a recorded run, a watch nothing changes in, and a crash loop that changes for ever.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { futureOf, runCommandAt, runScenario, runnable } from '../../../src/sim/run.ts';

const load = (name: string) => {
  const file = `content/scenarios/${name}.yaml`;
  return runnable(parseScenario(readFileSync(file, 'utf8'), file));
};
const rows = (text: string) => text.split('\n').filter((l) => l !== '');

describe('kubectl get -w reads the future', () => {
  it('a crash loop: a row per change up to an hour, each status the pod went through, restarts counted', () => {
    const r = runCommandAt(load('crash-loop'), 0, 'kubectl get pods -w');
    expect(r.exitCode).toBe(0);
    const statuses = rows(r.stdout).slice(1).map((l) => l.split(/\s+/)[2]);
    expect(new Set(statuses)).toEqual(new Set(['Pending', 'ContainerCreating', 'Error', 'CrashLoopBackOff']));
    // the back-off grows to five minutes, so the pod changes at least every five minutes: the watch ends at an hour
    expect(r.stderr).toBe('podlife: the watch stops after an hour, at 1h0m0s (kubectl would go on until interrupted; --request-timeout ends a watch when you choose)\n');
    const restarts = rows(r.stdout).slice(1).map((l) => Number(l.split(/\s+/)[3]));
    expect(restarts).toEqual([...restarts].sort((a, b) => a - b));
    expect(restarts[restarts.length - 1]).toBeGreaterThan(10);
  });

  it('--request-timeout ends the watch at that virtual time, without a note; a bad value is kubectl\'s error', () => {
    const crash = load('crash-loop');
    const all = runCommandAt(crash, 0, 'kubectl get pods -w --request-timeout=3m');
    expect(all.stderr).toBe('');
    const full = runCommandAt(crash, 0, 'kubectl get pods -w');
    // the rows of the first three minutes, exactly
    expect(full.stdout.startsWith(all.stdout)).toBe(true);
    expect(rows(all.stdout).length).toBeLessThan(rows(full.stdout).length);
    expect(rows(all.stdout).every((l) => !/\s(3m[1-9]|[4-9]m)/.test(l))).toBe(true);
    expect(runCommandAt(crash, 0, 'kubectl get pods -w --request-timeout=90').stdout).toBe(runCommandAt(crash, 0, 'kubectl get pods -w --request-timeout=1m30s').stdout);
    expect(runCommandAt(crash, 0, 'kubectl get pods -w --request-timeout=soon')).toEqual({
      stdout: '', exitCode: 1,
      stderr: 'error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)\n',
    });
  });

  it('a recorded run: the watch stops where the run shown ends, and says so', () => {
    const scenario = load('nginx-test');
    const run = runScenario(scenario);
    const end = 30_000;
    expect(run.engine.now).toBeGreaterThan(end);
    const r = execute('kubectl get pods -w', { state: run.engine.stateAt(0), future: () => futureOf(run.engine, undefined, end) });
    expect(r.stderr).toBe('podlife: the run shown ends at 30s: the watch stops there (kubectl would go on watching)\n');
    expect(rows(r.stdout).map((l) => l.split(/\s+/)[2])).toEqual(['STATUS', 'Pending', 'Pending', 'ContainerCreating', 'ContainerCreating', 'Running']);
  });

  it('a pod that has settled: the watch stops ten minutes after the last change; -w on a missing name is NotFound', () => {
    const nginx = load('nginx-test');
    const r = runCommandAt(nginx, 60_000, 'kubectl get pod nginx-test -w');
    expect(rows(r.stdout)).toHaveLength(2);
    expect(r.stderr).toBe('podlife: nothing this watch shows changed from 1m0s to 11m0s: it stops there (kubectl would go on until interrupted; --request-timeout ends a watch when you choose)\n');
    expect(runCommandAt(nginx, 60_000, 'kubectl get pod nope -w')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
    expect(runCommandAt(nginx, 60_000, 'kubectl get pod nope -w --ignore-not-found')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('without a future to read (a console that has none), the objects now and a note', () => {
    const run = runScenario(load('nginx-test'));
    const r = execute('kubectl get pods -w', { state: run.engine.stateAt(5000) });
    expect(rows(r.stdout)).toHaveLength(2);
    expect(r.stderr).toMatch(/^podlife: watching \(-w\) needs the cluster's future/);
  });
});

describe('kubectl get -f -w', () => {
  it('watches the one pod of the file; a file without a pod is a clear error (kubectl itself panics there)', () => {
    const nginx = load('nginx-test');
    const files: Record<string, string> = { 'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx-test\n', 'empty.yaml': '' };
    const readFile = (f: string) => files[f];
    const byFile = runCommandAt(nginx, 0, 'kubectl get -f pod.yaml -w', { readFile });
    expect(byFile).toEqual(runCommandAt(nginx, 0, 'kubectl get pod nginx-test -w'));
    expect(rows(byFile.stdout).length).toBeGreaterThan(2);
    expect(runCommandAt(nginx, 0, 'kubectl get -f empty.yaml -w', { readFile })).toEqual({ stdout: '', stderr: 'error: podlife: the files have no pod to watch\n', exitCode: 1 });
  });
});

describe('kubectl events -w reads the future', () => {
  it('no events yet: no "No events found", the watch waits and prints each event as it is recorded', () => {
    const nginx = load('nginx-test');
    // the scenario creates its pod at 0: at 0 the namespace has no event yet
    expect(runCommandAt(nginx, 0, 'kubectl events')).toEqual({ stdout: '', stderr: 'No events found in default namespace.\n', exitCode: 0 });
    const r = runCommandAt(nginx, 0, 'kubectl events -w');
    expect(r.exitCode).toBe(0);
    const printed = rows(r.stdout).map((l) => l.split(/ {2,}/));
    expect(printed[0]).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    // each row is printed at the moment its event is recorded: 0s ago
    expect(printed.slice(1).map((c) => [c[0], c[2]])).toEqual([['0s', 'Scheduled'], ['0s', 'Pulled'], ['0s', 'Created'], ['0s', 'Started']]);
    expect(r.stderr).toMatch(/^podlife: nothing this watch shows changed from .* to .*: it stops there/);
    // the events so far first (in storage order, which is time order here: the names grow with the time), the header once
    const later = runCommandAt(nginx, 30_000, 'kubectl events -w --request-timeout=1s');
    expect(later.stdout).toBe(runCommandAt(nginx, 30_000, 'kubectl events').stdout);
    expect(later.stderr).toBe('');
  });
});

describe('kubectl logs -f follows a running container until it stops', () => {
  it('nginx deleted while followed: its log so far, then its shutdown lines, and the follow ends with the container', () => {
    const del = load('delete');
    const now = runCommandAt(del, 30_000, 'kubectl logs nginx-delete');
    const followed = runCommandAt(del, 30_000, 'kubectl logs -f nginx-delete');
    expect(followed.exitCode).toBe(0);
    expect(followed.stderr).toBe('');
    expect(followed.stdout.startsWith(now.stdout)).toBe(true);
    const added = rows(followed.stdout.slice(now.stdout.length));
    // the image's stop signal is SIGQUIT: nginx shuts down gracefully, its worker first
    expect(added[0]).toMatch(/\[notice\] 1#1: signal 3 \(SIGQUIT\) received, shutting down$/);
    expect(added[added.length - 1]).toMatch(/\[notice\] 1#1: exit$/);
    // --timestamps: the same lines, each after its stamp; --tail applies to the lines there now
    const stamped = rows(runCommandAt(del, 30_000, 'kubectl logs -f nginx-delete --timestamps').stdout);
    expect(stamped.map((l) => l.slice(l.indexOf(' ') + 1))).toEqual(rows(followed.stdout));
    expect(rows(runCommandAt(del, 30_000, 'kubectl logs -f nginx-delete --tail=1').stdout)).toEqual([rows(now.stdout).at(-1), ...added]);
  });

  it('crictl logs -f follows the same way, each line on the stream the container wrote it to', () => {
    const del = load('delete');
    const id = runCommandAt(del, 30_000, 'crictl ps --name nginx -q').stdout.trim();
    const r = runCommandAt(del, 30_000, `crictl logs -f ${id.slice(0, 13)}`);
    // the entrypoint echoes to stdout, nginx writes its notices to stderr: the same lines as kubectl's follow, which
    // merges the streams
    expect(r.stdout).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up');
    expect(r.stdout).not.toContain('[notice]');
    expect(r.stderr).toContain('signal 3 (SIGQUIT) received, shutting down');
    expect(rows(r.stderr).filter((l) => l.includes('[notice]'))).toEqual(rows(runCommandAt(del, 30_000, 'kubectl logs -f nginx-delete').stdout).filter((l) => l.includes('[notice]')));
    // an exited container is not followed
    const crash = load('crash-loop');
    const exited = runCommandAt(crash, 60_000, 'crictl ps -a -q').stdout.trim().split('\n')[0];
    expect(runCommandAt(crash, 60_000, `crictl logs -f ${exited}`)).toEqual(runCommandAt(crash, 60_000, `crictl logs ${exited}`));
  });

  it('a container that keeps running: the log so far, then podlife stops after ten quiet minutes and says so', () => {
    const nginx = load('nginx');
    const r = runCommandAt(nginx, 30_000, 'kubectl logs -f nginx');
    expect(r.stdout).toBe(runCommandAt(nginx, 30_000, 'kubectl logs nginx').stdout);
    expect(r.stderr).toBe('podlife: no new log line from 30s to 10m30s: the stream stops there (kubectl would follow until the container stops or you interrupt it)\n');
  });

  it('a container not running (a crash loop between runs) is not followed: its last log, at once', () => {
    const crash = load('crash-loop');
    expect(runCommandAt(crash, 60_000, 'kubectl logs -f crash-test')).toEqual(runCommandAt(crash, 60_000, 'kubectl logs crash-test'));
  });

  it('a recorded run: the follow stops where the run shown ends; no future: the log so far and a note', () => {
    const run = runScenario(load('delete'));
    const ended = execute('kubectl logs -f nginx-delete', { state: run.engine.stateAt(30_000), future: () => futureOf(run.engine, undefined, 35_000) });
    expect(ended.stderr).toBe('podlife: the run shown ends at 35s: the log stream stops there (kubectl would go on following)\n');
    const none = execute('kubectl logs -f nginx-delete', { state: run.engine.stateAt(30_000) });
    expect(none.stdout).toBe(ended.stdout);
    expect(none.stderr).toMatch(/^podlife: following \(-f\) needs the cluster's future/);
  });
});

describe('journalctl -f follows the kubelet journal', () => {
  it('the last ten entries (-f implies -n 10 unless --since), then each new one; podlife stops after ten quiet minutes', () => {
    const del = load('delete');
    const r = runCommandAt(del, 38_000, 'journalctl -u kubelet -f');
    // the entries there at 38 s, then the ones the delete at 40 s writes: the journal as it is at 55 s
    expect(r.stdout).toBe(runCommandAt(del, 55_000, 'journalctl -u kubelet').stdout);
    expect(r.stdout).toContain('"Cleaned up orphaned pod volumes dir"');
    expect(r.stderr).toBe('podlife: no new entry from 41.338s to 11m38s: journalctl -f stops there (it would follow until interrupted)\n');
    const crash = load('crash-loop');
    const followed = rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet -f').stdout);
    expect(followed.slice(0, 10)).toEqual(rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet -n 10').stdout));
    // a crash loop writes on for ever: an hour of entries, restarts among them
    expect(followed.length).toBeGreaterThan(20);
    expect(rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet -f -n 3').stdout).slice(0, 3)).toEqual(rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet -n 3').stdout));
    const since = rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet -f --since "1 min ago"').stdout);
    expect(since.slice(0, rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet --since "1 min ago"').stdout).length)).toEqual(rows(runCommandAt(crash, 120_000, 'journalctl -u kubelet --since "1 min ago"').stdout));
  });

  it("journalctl's own refusals: -f with -r, and -f with -n +N", () => {
    const del = load('delete');
    expect(runCommandAt(del, 38_000, 'journalctl -u kubelet -f -r')).toEqual({ stdout: '', stderr: 'Please specify either --reverse or --follow, not both.\n', exitCode: 1 });
    expect(runCommandAt(del, 38_000, 'journalctl -u kubelet -f -n +3')).toEqual({ stdout: '', stderr: '--lines=+N is unsupported when --reverse or --follow is specified.\n', exitCode: 1 });
  });

  it('a recorded run: the follow stops where the run shown ends; no future: the journal so far and a note', () => {
    const run = runScenario(load('delete'));
    const ended = execute('journalctl -u kubelet -f', { state: run.engine.stateAt(38_000), future: () => futureOf(run.engine, undefined, 40_700) });
    expect(ended.stderr).toBe('podlife: the run shown ends at 40.7s: journalctl -f stops there (it would go on following)\n');
    // the entry there at 38 s, and the four the delete wrote by 40.7 s
    expect(rows(ended.stdout)).toHaveLength(5);
    const none = execute('journalctl -u kubelet -f', { state: run.engine.stateAt(38_000) });
    expect(rows(none.stdout)).toHaveLength(1);
    expect(none.stderr).toMatch(/^podlife: following \(-f\) needs the cluster's future/);
  });
});
