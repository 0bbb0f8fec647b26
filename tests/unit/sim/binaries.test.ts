// A command the image does not have (runtime/binaries.ts): runc's init cannot find it, the container never runs,
// containerd's StartContainer fails, and the kubelet reports RunContainerError, then backs off as for a crash.
import { describe, expect, it } from 'vitest';
import { programFor, startError } from '../../../src/sim/runtime/binaries.ts';
import { parseScenario } from '../../../src/sim/scenario.ts';
import { runCommandAt, runnable } from '../../../src/sim/run.ts';
import { containerStarts, create, engineWith, pod, podManifest } from './helpers.ts';

const PREFIX = 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: ';

describe('startError: what runc finds in the busybox image', () => {
  it.each([
    // exec.LookPath along $PATH for a bare name: every applet is linked into /bin
    ['docker.io/library/busybox:latest', 'sleep', undefined],
    ['docker.io/library/busybox:latest', 'nslookup', undefined],
    ['docker.io/library/busybox:latest', 'getconf', undefined],
    ['docker.io/library/busybox:latest', 'foo', 'exec: "foo": executable file not found in $PATH: unknown'],
    // the image has no bash: `bash` is not an applet of the default configuration
    ['docker.io/library/busybox:latest', 'bash', 'exec: "bash": executable file not found in $PATH: unknown'],
    // a path is stat'ed: /bin has the applets, /usr/bin only env
    ['docker.io/library/busybox:latest', '/bin/sh', undefined],
    ['docker.io/library/busybox:latest', '/usr/bin/env', undefined],
    ['docker.io/library/busybox:latest', '/bin/bash', 'exec: "/bin/bash": stat /bin/bash: no such file or directory: unknown'],
    ['docker.io/library/busybox:latest', '/usr/bin/top', 'exec: "/usr/bin/top": stat /usr/bin/top: no such file or directory: unknown'],
    ['docker.io/library/busybox:latest', './app', 'exec: "./app": stat ./app: no such file or directory: unknown'],
    ['m.daocloud.io/docker.io/busybox@sha256:6eda29e895766588d838a78e0450e9b3445e466334010d933bf501175c2072fd', 'foo', 'exec: "foo": executable file not found in $PATH: unknown'],
    // an image whose file system the model does not know runs what it is told
    ['m.daocloud.io/docker.io/library/nginx:alpine', 'foo', undefined],
    ['docker.io/library/busybox-extras:latest', 'foo', undefined],
    ['registry.example/app:v1', '/app/server', undefined],
  ])('%s, %s', (ref, argv0, want) => {
    expect(startError(ref, argv0)).toBe(want === undefined ? undefined : PREFIX + want);
  });
});

describe('a busybox container whose command is not in the image', () => {
  const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 }, images: ['m.daocloud.io/docker.io/busybox'] }] });
  create(e, podManifest('bad', { image: 'm.daocloud.io/docker.io/busybox', imagePullPolicy: 'IfNotPresent', command: ['foo'] }));
  e.advanceTo(5 * 60_000);
  const message = `${PREFIX}exec: "foo": executable file not found in $PATH: unknown`;

  it('never runs: the last state is StartError, exit code 128, started at the Unix epoch, with containerd\'s message', () => {
    const cs = pod(e, 'bad')!.status.containerStatuses![0];
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 128, reason: 'StartError', message, startedAt: '1970-01-01T00:00:00Z' });
    expect(e.trace.filter((ev) => ev.kind === 'ProcessStarted')).toEqual([]);
    expect(e.state().runtimes[0].containers.every((c) => c.state === 'CONTAINER_EXITED' && c.exitCode === 128)).toBe(true);
  });

  it('is reported as RunContainerError, with a Failed event carrying the message, and restarted with the crash-loop back-off', () => {
    const failed = e.state().events.find((ev) => ev.reason === 'Failed')!;
    expect(failed).toMatchObject({ type: 'Warning', message: `Error: ${message}` });
    expect(failed.count).toBeGreaterThanOrEqual(5);
    expect(e.state().events.some((ev) => ev.reason === 'BackOff')).toBe(true);
    const errors = e.state().kubeletLogs.filter((l) => l.msg === 'Error syncing pod, skipping').map((l) => l.kv[0][1]);
    expect(errors).toContain(JSON.stringify(`failed to "StartContainer" for "bad" with RunContainerError: ${JSON.stringify(message)}`));
    // each attempt creates a container and tries to start it, as for a crash: the first restart at once (doBackOff
    // finds no back-off yet, and starts one), then after 10 s, 20 s, 40 s, 80 s (the pod worker requeues at the
    // back-off's end, jittered by up to half the wait, on the sync loop's 1 s tick)
    const starts = containerStarts(e, 'bad');
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    expect(gaps.length).toBeGreaterThanOrEqual(5);
    expect(gaps[0]).toBeLessThan(3_000);
    for (const [i, backoff] of [10_000, 20_000, 40_000, 80_000].entries()) {
      expect(gaps[i + 1]).toBeGreaterThanOrEqual(backoff);
      expect(gaps[i + 1]).toBeLessThanOrEqual(backoff * 1.5 + 1_000);
    }
  });
});

describe('a scripted container (the sim.podlife.dev/process annotation)', () => {
  it('runs its script, whatever command it names', () => {
    const e = engineWith({ nodes: [{ name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 }, images: ['m.daocloud.io/docker.io/busybox'] }] });
    create(e, podManifest('scripted', { image: 'm.daocloud.io/docker.io/busybox', imagePullPolicy: 'IfNotPresent', command: ['my-app'] }, {}, { annotations: { 'sim.podlife.dev/process.scripted': '["sleep 60"]' } }));
    e.advanceTo(10_000);
    expect(pod(e, 'scripted')!.status.containerStatuses![0].state.running).toBeDefined();
  });
});

describe('what a user sees', () => {
  const scenario = runnable(parseScenario([
    'title: t',
    'cluster:',
    '  nodes:',
    '    - {name: worker01, ip: 192.168.114.148, podCIDR: 10.244.5.0/24, capacity: {cpu: "4", memory: 8Gi, pods: 110}, images: [m.daocloud.io/docker.io/busybox]}',
    'timeline:',
    '  - at: 0s',
    '    run: kubectl run typo --image=m.daocloud.io/docker.io/busybox --image-pull-policy=IfNotPresent -- /bin/bash -c "echo hi"',
  ].join('\n'), 't.yaml'));

  it('kubectl get shows RunContainerError; describe the StartError with its 1970 start, in the node\'s zone', () => {
    expect(runCommandAt(scenario, 5_000, 'kubectl get pod typo --no-headers').stdout).toMatch(/^typo\s+0\/1\s+RunContainerError\s+1 \(\ds ago\)\s+5s\n$/);
    const d = runCommandAt(scenario, 5_000, 'kubectl describe pod typo').stdout;
    expect(d).toContain([
      '    Last State:     Terminated',
      '      Reason:       StartError',
      `      Message:      ${PREFIX}exec: "/bin/bash": stat /bin/bash: no such file or directory: unknown`,
      '      Exit Code:    128',
      '      Started:      Thu, 01 Jan 1970 08:00:00 +0800',
    ].join('\n'));
  });

  it('crictl inspect has containerd\'s reason and message, and the zero start time', () => {
    const id = runCommandAt(scenario, 5_000, 'crictl ps -a -q').stdout.trim().split('\n')[0];
    const status = JSON.parse(runCommandAt(scenario, 5_000, `crictl inspect ${id}`).stdout).status;
    expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError', startedAt: '1970-01-01T08:00:00+08:00' });
    expect(status.message).toContain('stat /bin/bash: no such file or directory');
  });
});

describe('stress: memory beyond the container\'s limit', () => {
  const cfg = (argv: string[], memory?: string) => ({ argv, memory }) as unknown as Parameters<typeof programFor>[0];
  it.each([
    // the docs' memory-demo-2: 250M is 250 × 1024² bytes, over 100Mi
    [['stress', '--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'], '100Mi', true, 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd'],
    // memory-demo: 150M under 200Mi
    [['stress', '--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1'], '200Mi', false, 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd'],
    // two workers of 40M each (--opt=value form) over 64Mi; 256M by default per worker
    [['/usr/bin/stress', '-c', '2', '--vm', '2', '--vm-bytes=40M'], '64Mi', true, 'stress: info: [1] dispatching hogs: 2 cpu, 0 io, 2 vm, 0 hdd'],
    [['stress', '-m', '1'], '200Mi', true, 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd'],
    [['stress', '-m', '1'], '300Mi', false, 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd'],
    // no limit: the node has the memory
    [['stress', '--vm', '4', '--vm-bytes', '1g'], undefined, false, 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 4 vm, 0 hdd'],
  ])('%j with a limit of %s: OOM %s', (argv, memory, oom, line) => {
    const p = programFor(cfg(argv, memory));
    expect(p).toMatchObject({ kind: 'service', spec: { name: 'stress', startLogs: [{ stream: 'stdout', text: line }], stopsOn: {} } });
    expect(p!.kind === 'service' && p!.spec.oomAfter !== undefined).toBe(oom);
  });

  it('leaves every other program to the process model', () => {
    expect(programFor(cfg(['sleep', '10']))).toBeUndefined();
    expect(programFor(cfg(['stress-ng', '--vm', '1']))).toBeUndefined();
  });

  const node = { name: 'worker01', ip: '192.168.114.148', podCIDR: '10.244.5.0/24', capacity: { cpu: '4', memory: '8Gi', pods: 110 }, images: ['polinux/stress'] };
  const stressPod = (name: string, args: string[], limit: string) =>
    podManifest(name, { image: 'polinux/stress', imagePullPolicy: 'IfNotPresent', command: ['stress'], args, resources: { limits: { memory: limit } } });

  it('is killed by the OOM killer: 137, OOMKilled, no event; restarted with the back-off; what it printed is kept', () => {
    const e = engineWith({ nodes: [node] });
    create(e, stressPod('hog', ['--vm', '1', '--vm-bytes', '250M'], '100Mi'));
    create(e, stressPod('fits', ['--vm', '1', '--vm-bytes', '150M'], '200Mi'));
    e.advanceTo(60_000);
    const hog = pod(e, 'hog')!.status.containerStatuses![0];
    expect(hog.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect(hog.restartCount).toBeGreaterThanOrEqual(2);
    expect(e.state().events.filter((ev) => ev.involvedObject.name === 'hog' && ev.type === 'Warning').map((ev) => ev.reason)).toEqual(['BackOff']);
    const fits = pod(e, 'fits')!.status;
    expect(fits.phase).toBe('Running');
    expect(fits.containerStatuses![0].restartCount).toBe(0);
    const hogID = hog.lastState.terminated!.containerID!.replace('containerd://', '');
    expect(e.state().containerLogs.filter((l) => l.containerId === hogID).map((l) => l.text)).toEqual(['stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd']);
  });

  it('with --timeout, ends on its own and says so; as PID 1 it ignores SIGTERM, so a delete takes the grace period', () => {
    const e = engineWith({ nodes: [node] });
    create(e, podManifest('timed', { image: 'polinux/stress', imagePullPolicy: 'IfNotPresent', command: ['stress', '--cpu', '1', '--timeout', '20s'] }, { restartPolicy: 'Never' }));
    create(e, stressPod('held', ['--vm', '1', '--vm-bytes', '16M'], '100Mi'));
    e.advanceTo(30_000);
    expect(pod(e, 'timed')!.status.containerStatuses![0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const timedID = pod(e, 'timed')!.status.containerStatuses![0].containerID!.replace('containerd://', '');
    expect(e.state().containerLogs.filter((l) => l.containerId === timedID).map((l) => l.text)).toEqual([
      'stress: info: [1] dispatching hogs: 1 cpu, 0 io, 0 vm, 0 hdd',
      'stress: info: [1] successful run completed in 20s',
    ]);
    e.apply({ type: 'delete', kind: 'Pod', namespace: 'default', name: 'held' });
    e.advanceTo(75_000);
    // the stop signal is ignored; SIGKILL comes when the 30 s grace period is over
    const killed = e.trace.filter((ev) => ev.kind === 'SIGKILL' && ev.detail.startsWith('held '));
    expect(killed).toHaveLength(1);
    expect(killed[0].detail).toContain('137');
    expect(killed[0].t - 30_000).toBeGreaterThanOrEqual(30_000);
  });
});
