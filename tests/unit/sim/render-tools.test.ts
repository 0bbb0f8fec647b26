// The node tools and the remaining kubectl views, on a hand-built cluster: crictl (v1.36 columns,
// go-units ages, truncated IDs, inspect as sorted JSON), journalctl (short format, klog header,
// --since as systemd parses it, --v filtering), describe's Events with repeat counts, kubectl logs
// and its "waiting to start" errors, get events -o wide, get nodes.

import { describe, expect, it } from 'vitest';
import { execute } from '../../../src/sim/commands/execute.ts';
import { parseJournalTime } from '../../../src/sim/commands/nodetools.ts';
import { describePod } from '../../../src/sim/render/describe.ts';
import { crictlImages } from '../../../src/sim/render/crictl.ts';
import { SANDBOX_IMAGE } from '../../../src/sim/runtime/catalog.ts';
import type { NodeRuntime } from '../../../src/sim/types.ts';
import { kstr } from '../../../src/sim/kubelet/env.ts';
import { EPOCH, event, nginxTestState, pod, ts } from './fixtures.ts';

const run = (line: string, t = 150_000) => execute(line, { state: nginxTestState(t) });

describe('crictl', () => {
  it('pods: minwidth-20 columns, "2 minutes ago", (default) runtime', () => {
    expect(run('sudo crictl pods').stdout).toBe(
      'POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n' +
        '5bf1e11f42767       2 minutes ago       Ready               nginx-test          default             0                   (default)\n',
    );
  });
  it('ps: the image column is the truncated image ID; -q prints full IDs; --state filters', () => {
    expect(run('crictl ps').stdout.split('\n')[1]).toBe(
      '67aca40f558b6       ea51152ef8c48       2 minutes ago       Running             nginx-test          0                   5bf1e11f42767       nginx-test          default',
    );
    expect(run('crictl ps -q').stdout).toBe('67aca40f558b6b47bb0b2841709e96ee98c49d73e68f99fe5e2251d628068be3\n');
    expect(run('crictl ps --state exited').stdout.split('\n').length).toBe(2);
    expect(run('crictl ps --state bogus').stderr).toBe('FATA[0000] --state should be one of created, running, exited or unknown\n');
  });
  it('logs: -t puts the time the runtime wrote each line first; -p reads the attempt before, and says when there is none', () => {
    const plain = run('crictl logs 67aca40f558b6').stdout.split('\n').filter(Boolean);
    const stamped = run('crictl logs -t 67aca40f558b6').stdout.split('\n').filter(Boolean);
    expect(stamped).toHaveLength(plain.length);
    stamped.forEach((line, i) => expect(line).toMatch(new RegExp(`^2026-08-04T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z ${plain[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)));
    expect(run('crictl logs -p 67aca40f558b6')).toEqual({ stdout: '', stderr: 'FATA[0000] previous terminated container nginx-test not found\n', exitCode: 1 });
  });
  it('flags whose output podlife does not print say so instead of being ignored', () => {
    expect(run('crictl inspect -o go-template 67aca40f558b6').stderr).toBe('podlife: crictl inspect -o go-template is not supported (-o json, the default, and -o yaml are; pipe the JSON into jq)\n');
    expect(run('crictl inspect -o json 67aca40f558b6').exitCode).toBe(0);
    expect(run("crictl inspectp --template '{{.status.id}}' 5bf1e11f42767").exitCode).toBe(1);
    expect(run('crictl images -v').stderr).toBe('podlife: crictl images -v is not supported (the table view is; crictl inspect prints JSON)\n');
  });
  // cri-tools v1.36.0 image.go: imageByRef orders the list (-q too); --digests adds DIGEST after TAG, --pinned adds
  // PINNED last; an image without tags shows its digest's repository and <none>
  it('images: crictl\'s order, --digests and --pinned columns, an untagged image under its digest\'s name', () => {
    const digest = (c: string) => `sha256:${c.repeat(64)}`;
    const rt: NodeRuntime = {
      node: 'worker01', runtimeVersion: 'containerd://2.1.4', sandboxes: [], containers: [],
      images: [
        { id: digest('c'), repoTags: ['docker.io/library/nginx:alpine'], repoDigests: [`docker.io/library/nginx@${digest('d')}`], size: 22_600_000 },
        { id: SANDBOX_IMAGE.id, repoTags: [SANDBOX_IMAGE.ref], repoDigests: [SANDBOX_IMAGE.repoDigest], size: SANDBOX_IMAGE.size },
        { id: digest('a'), repoTags: ['docker.io/library/busybox:1.36', 'docker.io/library/busybox:latest'], repoDigests: [`docker.io/library/busybox@${digest('b')}`], size: 2_200_000 },
        { id: digest('e'), repoTags: [], repoDigests: [`docker.io/library/redis@${digest('f')}`], size: 50_000_000 },
      ],
    };
    const rows = (opts: Parameters<typeof crictlImages>[1]) => crictlImages(rt, opts).trimEnd().split('\n').map((r) => r.split(/ {2,}/));
    const plain = rows({});
    expect(plain[0]).toEqual(['IMAGE', 'TAG', 'IMAGE ID', 'SIZE']);
    // tagged images by their first tag (busybox's two tags are two rows); the untagged one against the others by
    // first digest, which puts docker.io/library/redis@… before registry.k8s.io/pause@…
    expect(plain.slice(1).map((r) => r[0].split('/').pop())).toEqual(['busybox', 'busybox', 'nginx', 'redis', 'pause']);
    expect(plain[4]).toEqual(['docker.io/library/redis', '<none>', 'eeeeeeeeeeeee', '50MB']);
    const wide = rows({ digests: true, pinned: true });
    expect(wide[0]).toEqual(['IMAGE', 'TAG', 'DIGEST', 'IMAGE ID', 'SIZE', 'PINNED']);
    expect(wide.slice(1).map((r) => [r[2], r[5]])).toEqual([
      ['bbbbbbbbbbbbb', 'false'], ['bbbbbbbbbbbbb', 'false'], ['ddddddddddddd', 'false'], ['fffffffffffff', 'false'], [SANDBOX_IMAGE.repoDigest.split('@sha256:')[1].slice(0, 13), 'true'],
    ]);
    expect(rows({ digests: true, noTrunc: true })[1].slice(2, 4)).toEqual([digest('b'), digest('a')]);
    expect(crictlImages(rt, { quiet: true })).toBe([digest('a'), digest('c'), digest('e'), SANDBOX_IMAGE.id].map((id) => `${id}\n`).join(''));
  });
  it('images: repository and tag split, decimal sizes', () => {
    expect(run('crictl images').stdout).toBe(
      'IMAGE                                   TAG                 IMAGE ID            SIZE\n' +
        'm.daocloud.io/docker.io/library/nginx   alpine              ea51152ef8c48       22.6MB\n',
    );
  });
  it('inspect: {info, status} with sorted keys, local RFC 3339 times, prefix IDs', () => {
    const out = JSON.parse(run('crictl inspect 67aca').stdout);
    expect(Object.keys(out)).toEqual(['info', 'status']);
    expect(out.status.state).toBe('CONTAINER_RUNNING');
    // the second the kubelet reported (status.containerStatuses[].state.running.startedAt), with the runtime's fraction
    expect(out.status.startedAt).toMatch(/^2026-08-04T11:31:24\.\d{1,9}\+08:00$/);
    expect(out.status.finishedAt).toBe('0001-01-01T00:00:00Z');
    expect(out.info.runtimeSpec.linux.namespaces[1]).toEqual({ path: '/proc/2568950/ns/ipc', type: 'ipc' });
    expect(run('crictl inspect nope').stderr).toBe(
      'FATA[0000] get the status of containers: get container status: rpc error: code = NotFound desc = an error occurred when try to find container "nope": not found\n',
    );
    expect(run('crictl inspectp nope').stderr).toBe(
      'FATA[0000] get the status of pod sandboxes: get pod sandbox status: rpc error: code = NotFound desc = an error occurred when try to find sandbox "nope": not found\n',
    );
    expect(run('crictl frob')).toEqual({ stdout: '', stderr: "No help topic for 'frob'\n", exitCode: 3 });
    // a real crictl command the model does not run is named as such, not answered as if it did not exist
    for (const sub of ['stats', 'info', 'exec', 'rmi']) {
      const r = run(`crictl ${sub}`);
      expect(r.exitCode, sub).toBe(1);
      expect(r.stderr, sub).toMatch(new RegExp(`^podlife: crictl ${sub} is not modelled by this simulation \\(it models pods, ps, `));
    }
  });
});

describe('journalctl -u kubelet', () => {
  it('journald short format around klog lines, in the node\'s local time', () => {
    const out = run('journalctl -u kubelet').stdout.split('\n');
    expect(out[0]).toMatch(/^Aug 04 11:32:03 worker01 kubelet\[2972481\]: I0804 11:32:03\.000\d{3} 2972481 scope\.go:122\] "RemoveContainer" containerID="4e0a84699c70ba4816ab95e88d76f542372267dea2203666ea863c5b0b3759de"$/);
    expect(out[1]).toMatch(/kubelet_volumes\.go:161\] "Cleaned up orphaned pod volumes dir" podUID="67dc4cfb-813d-4188-973e-6c359d435d2c" path="\/var\/lib\/kubelet\/pods\/67dc4cfb-813d-4188-973e-6c359d435d2c\/volumes"$/);
  });
  it('--since, other units, -n, and errors as journalctl prints them', () => {
    expect(run('journalctl -u kubelet --since "109 sec ago"', 150_000).stdout.split('\n').length).toBe(2);
    expect(run('journalctl -u kubelet --since "5 min ago"').stdout.split('\n').length).toBe(3);
    expect(run('journalctl -u containerd')).toEqual({ stdout: '-- No entries --\n', stderr: '', exitCode: 0 });
    expect(run('journalctl -u kubelet -n 1').stdout).toContain('orphaned');
    expect(run('journalctl --since yesterdayish')).toEqual({ stdout: '', stderr: 'Failed to parse timestamp: yesterdayish\n', exitCode: 1 });
  });
  it('-e shows the last 1000 lines (it implies -n1000); -b, -x and --no-pager change nothing', () => {
    const state = nginxTestState(150_000);
    const line = state.kubeletLogs[0];
    state.kubeletLogs = Array.from({ length: 1200 }, (_, i) => ({ ...line, t: line.t + i }));
    const lines = (cmd: string) => execute(cmd, { state }).stdout.split('\n').filter(Boolean).length;
    expect(lines('journalctl -u kubelet')).toBe(1200);
    expect(lines('journalctl -u kubelet -e')).toBe(1000);
    expect(lines('journalctl -u kubelet -e -n 5')).toBe(5);
    expect(run('journalctl -u kubelet -b -x --no-pager')).toEqual(run('journalctl -u kubelet'));
  });
  it('parses systemd timestamps relative to now in the host zone', () => {
    const now = EPOCH + 100_000;
    expect(parseJournalTime('30 sec ago', now, 480)).toBe(now - 30_000);
    expect(parseJournalTime('5 min ago', now, 480)).toBe(now - 300_000);
    expect(parseJournalTime('-1h', now, 480)).toBe(now - 3_600_000);
    expect(parseJournalTime('2026-08-04 11:30:00', now, 480)).toBe(Date.UTC(2026, 7, 4, 3, 30, 0));
    expect(parseJournalTime('today', now, 480)).toBe(Date.UTC(2026, 7, 3, 16, 0, 0));
  });
  it('a value klog writes as a block is one journal entry per line; -n counts entries', () => {
    const state = nginxTestState();
    state.kubeletLogs.push({
      t: 42_000, node: 'worker01', severity: 'I', source: 'prober.go:107', msg: 'Probe failed',
      kv: [['probeType', '"Liveness"'], ['output', kstr("cat: can't open '/tmp/healthy': No such file or directory\n")]],
    });
    const out = execute('journalctl -u kubelet', { state }).stdout.split('\n');
    expect(out[2]).toMatch(/prober\.go:107\] "Probe failed" probeType="Liveness" output=<$/);
    expect(out[3]).toBe("Aug 04 11:32:05 worker01 kubelet[2972481]: \tcat: can't open '/tmp/healthy': No such file or directory");
    expect(out[4]).toBe('Aug 04 11:32:05 worker01 kubelet[2972481]:  >');
    expect(execute('journalctl -u kubelet -n 2', { state }).stdout.split('\n').filter(Boolean).map((l) => l.slice(-1))).toEqual(['y', '>']);
    expect(execute('journalctl -u kubelet | grep -c Probe', { state }).stdout).toBe('1\n');
  });
  // upstream: k8s.io/klog/v2 internal/serialize/keyvalues_test.go (multiLineString), klog_test.go (multiLine)
  it('klog\'s string values: quoted on one line, a block with a line break (writeStringValue)', () => {
    expect(kstr('ready')).toBe('"ready"');
    expect(kstr('Hello world!\n\tStarts with tab.\n  Starts with spaces.\nNo whitespace.')).toBe('<\n\tHello world!\n\t\tStarts with tab.\n\t  Starts with spaces.\n\tNo whitespace.\n >');
    expect(kstr('first value line\nsecond value line')).toBe('<\n\tfirst value line\n\tsecond value line\n >');
    // a value that ends in a line break gets no second one
    expect(kstr('one line\n')).toBe('<\n\tone line\n >');
    expect(kstr('a\n\n')).toBe('<\n\ta\n\t\n >');
  });
  it('drops klog lines above the kubelet\'s --v', () => {
    const state = nginxTestState();
    state.kubeletLogs.push({ t: 42_000, node: 'worker01', severity: 'I', source: 'kuberuntime_container.go:898', msg: 'Killing container with a grace period', kv: [], v: 2 });
    expect(execute('journalctl -u kubelet', { state }).stdout).not.toContain('Killing');
    state.runtimes[0].kubeletVerbosity = 2;
    expect(execute('journalctl -u kubelet', { state }).stdout).toContain('"Killing container with a grace period"');
  });
});

describe('describe: events with repeats and Terminating', () => {
  it('Age shows "<last> (xN over <first>)"; Warning rows align', () => {
    const now = EPOCH + 503_000;
    const p = pod('crash-test');
    const events = [
      event('crash-test', 1, 'Scheduled', 'Successfully assigned default/crash-test to worker01', 0, { component: 'default-scheduler' }),
      event('crash-test', 2, 'BackOff', 'Back-off restarting failed container crash-test in pod crash-test_default(uid)', 480_000, { type: 'Warning', fieldPath: 'spec.containers{crash-test}', count: 12, first: 24_000 }),
    ];
    const text = describePod(p, { now, utcOffsetMinutes: 480, events });
    expect(text.slice(text.indexOf('Events:'))).toBe(
      'Events:\n' +
        '  Type     Reason     Age                   From               Message\n' +
        '  ----     ------     ----                  ----               -------\n' +
        '  Normal   Scheduled  8m23s                 default-scheduler  Successfully assigned default/crash-test to worker01\n' +
        '  Warning  BackOff    23s (x12 over 7m59s)  kubelet            spec.containers{crash-test}: Back-off restarting failed container crash-test in pod crash-test_default(uid)\n',
    );
  });
  it('an events.k8s.io/v1 event (the scheduler\'s): aged from eventTime, a series as (xN over …), its null lastTimestamp first', () => {
    const now = EPOCH + 900_000;
    const v1 = (seq: number, t: number, series?: { count: number; last: number }) => ({
      ...event('big', seq, 'FailedScheduling', '0/1 nodes are available: 1 Insufficient cpu.', t, { type: 'Warning' }),
      source: {}, firstTimestamp: null, lastTimestamp: null, count: undefined, reportingComponent: 'default-scheduler',
      eventTime: new Date(EPOCH + t + 400).toISOString().replace(/Z$/, '000Z'),
      ...(series ? { series: { count: series.count, lastObservedTime: new Date(EPOCH + series.last + 400).toISOString().replace(/Z$/, '000Z') } } : {}),
    });
    const kubeletEvent = event('big', 3, 'Pulled', 'pulled', 100_000);
    const events = [kubeletEvent, v1(1, 0), v1(2, 330_000, { count: 3, last: 630_000 })];
    const text = describePod(pod('big'), { now, utcOffsetMinutes: 480, events });
    // describe sorts by lastTimestamp alone: the scheduler's (none) first, in the order listed
    expect(text.slice(text.indexOf('Events:')).split('\n').slice(3, 6).map((l) => l.replace(/ +/g, ' '))).toEqual([
      ' Warning FailedScheduling 14m default-scheduler 0/1 nodes are available: 1 Insufficient cpu.',
      ' Warning FailedScheduling 4m29s (x3 over 9m29s) default-scheduler 0/1 nodes are available: 1 Insufficient cpu.',
      ' Normal Pulled 13m kubelet pulled',
    ]);
    const state = { ...nginxTestState(900_000), events };
    const rows = execute('kubectl get events -o wide --sort-by=.lastTimestamp', { state }).stdout.split('\n').map((l) => l.replace(/ +/g, ' '));
    expect(rows.slice(1, 4).map((r) => r.split(' ').slice(0, 3).join(' '))).toEqual(['14m Warning FailedScheduling', '4m29s Warning FailedScheduling', '13m Normal Pulled']);
    // COUNT: 1 for a singleton of the new API, the series' count otherwise
    expect(rows[1]).toMatch(/ 14m 1 big\.\S+$/);
    expect(rows[2]).toMatch(/ 9m29s 3 big\.\S+$/);
  });
  it('a deleted pod that is still running reads "Terminating (lasts ...)" with its grace period', () => {
    const p = pod('web', { metadata: { deletionTimestamp: ts(10_000), deletionGracePeriodSeconds: 30 } });
    const text = describePod(p, { now: EPOCH + 25_000, utcOffsetMinutes: 480, events: [] });
    expect(text).toContain('Status:                    Terminating (lasts 15s)\nTermination Grace Period:  30s\n');
    expect(text.endsWith('Events:                      <none>\n')).toBe(true);
  });
});

describe('kubectl logs, get events -o wide, get nodes', () => {
  it('logs of a running container; errors for missing pods and containers', () => {
    expect(run('kubectl logs nginx-test').stdout).toBe('/docker-entrypoint.sh: Configuration complete; ready for start up\n');
    // the runtime's stamp, to the nanosecond (RFC3339Nano drops trailing zeros); the model's clock has the millisecond
    expect(run('kubectl logs nginx-test --timestamps').stdout).toMatch(/^2026-08-04T03:31:24\.100\d{0,6}Z \/docker-entrypoint\.sh: Configuration complete; ready for start up\n$/);
    // logs.go wraps the builder's NotFound with the namespace (v0.36.2)
    expect(run('kubectl logs nope').stderr).toBe('error: error from server (NotFound): pods "nope" not found in namespace "default"\n');
    expect(run('kubectl logs nginx-test -c other').stderr).toBe('error: container other is not valid for pod nginx-test out of: nginx-test\n'); // v1.36: kubectl checks first (logsforobject.go)
    expect(run('kubectl logs nginx-test -p').stderr).toBe('Error from server (BadRequest): previous terminated container "nginx-test" in pod "nginx-test" not found\n');
  });
  it('events -o wide adds SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME', () => {
    const lines = run('kubectl get events -o wide').stdout.split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +SUBOBJECT +SOURCE +MESSAGE +FIRST SEEN +COUNT +NAME$/);
    expect(lines[2]).toMatch(/pod\/nginx-test +spec\.containers\{nginx-test\} +kubelet, worker01 +Container image/);
  });
  it('nodes', () => {
    expect(run('kubectl get nodes').stdout).toBe('NAME       STATUS   ROLES    AGE   VERSION\nworker01   Ready    <none>   34d   v1.36.2\n');
  });
});

describe('log timestamps, as the runtime writes them', () => {
  it('each line has its own nanoseconds, in the order written even within a millisecond; kubectl and crictl agree, whatever --tail keeps', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseScenario } = await import('../../../src/sim/scenario.ts');
    const { runCommandAt, runnable } = await import('../../../src/sim/run.ts');
    const nginx = runnable(parseScenario(readFileSync('content/scenarios/nginx.yaml', 'utf8'), 'nginx.yaml'));
    const at = (cmd: string) => runCommandAt(nginx, 60_000, cmd).stdout.trimEnd().split('\n');
    const lines = at('kubectl logs nginx --timestamps');
    expect(lines.length).toBeGreaterThan(10);
    const stamps = lines.map((l) => l.slice(0, l.indexOf(' ')));
    for (const s of stamps) expect(s).toMatch(/^2026-08-04T\d{2}:\d{2}:\d{2}\.\d{1,9}Z$/);
    // as instants: strictly increasing, to the nanosecond
    const nanos = stamps.map((s) => BigInt(Date.parse(s.replace(/\.\d+Z$/, 'Z'))) * 1_000_000n + BigInt(s.slice(20, -1).padEnd(9, '0')));
    for (let i = 1; i < nanos.length; i++) expect(nanos[i] > nanos[i - 1]).toBe(true);
    // more lines than milliseconds: several share one, and still differ
    expect(new Set(stamps.map((s) => s.slice(0, 23))).size).toBeLessThan(stamps.length);
    expect(at('kubectl logs nginx --timestamps --tail=3')).toEqual(lines.slice(-3));
    const id = runCommandAt(nginx, 60_000, 'sudo crictl ps -q --name nginx').stdout.trim();
    const crictl = runCommandAt(nginx, 60_000, `sudo crictl logs -t ${id}`);
    expect(`${crictl.stdout}${crictl.stderr}`.trimEnd().split('\n').sort()).toEqual([...lines].sort());
  });
});
