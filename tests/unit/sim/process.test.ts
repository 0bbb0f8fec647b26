// The process model: what a container's command does over virtual time, and how PID 1 takes signals.
import { describe, expect, it } from 'vitest';
import { EventLoop } from '../../../src/sim/core/loop.ts';
import { Process, programFor, type Signal } from '../../../src/sim/runtime/process.ts';
import { SERVICES, UNKNOWN_SERVICE, containerArgv, imageDefaults } from '../../../src/sim/runtime/catalog.ts';
import { parseShell, ShellSyntaxError } from '../../../src/sim/runtime/shell.ts';

function runArgv(argv: string[], signals: [number, Signal][] = [], until = 100_000) {
  const loop = new EventLoop();
  const logs: string[] = [];
  let exit: { code: number; t: number } | undefined;
  const ctx = { services: SERVICES, unknownService: UNKNOWN_SERVICE, stdin: false };
  const p = new Process(
    { loop, log: (_s, text) => logs.push(text), fs: new Set(), wallclock: (t) => new Date(t), exited: (code) => (exit = { code, t: loop.now }) },
    programFor(argv, ctx),
    ctx,
  );
  p.start();
  for (const [t, sig] of signals) loop.at(t, () => p.signal(sig));
  loop.runUntil(until);
  return { exit, logs };
}

describe('commands', () => {
  it('sh -c "exit 1" exits 1 at once', () => expect(runArgv(['sh', '-c', 'exit 1']).exit).toEqual({ code: 1, t: 0 }));
  it('sleep, sequences and &&', () => {
    expect(runArgv(['sh', '-c', 'sleep 5; echo done']).exit).toEqual({ code: 0, t: 5000 });
    expect(runArgv(['sh', '-c', 'false && echo no; echo yes'])).toEqual({ exit: { code: 0, t: 0 }, logs: ['yes'] });
    expect(runArgv(['sh', '-c', 'false || exit 3']).exit!.code).toBe(3);
    expect(runArgv(['sh', '-c', 'touch /tmp/x && cat /tmp/x && echo ok']).logs).toEqual(['ok']);
  });
  it('busybox and alpine run sh by default: with no stdin it exits 0 at once', () => {
    expect(runArgv(containerArgv(imageDefaults('docker.io/library/busybox'), undefined, undefined)).exit).toEqual({ code: 0, t: 0 });
    expect(runArgv(containerArgv(imageDefaults('docker.io/library/alpine'), undefined, undefined)).exit).toEqual({ code: 0, t: 0 });
  });
  it('an unknown command: "sh: x: not found", exit 127', () => {
    expect(runArgv(['sh', '-c', '/crash/missing'])).toEqual({ exit: { code: 127, t: 0 }, logs: ['sh: /crash/missing: not found'] });
  });
  it('Kubernetes command replaces ENTRYPOINT and args replace CMD', () => {
    const nginx = imageDefaults('m.daocloud.io/docker.io/library/nginx');
    expect(containerArgv(nginx, undefined, undefined)).toEqual(['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;']);
    expect(containerArgv(nginx, ['sleep'], ['10'])).toEqual(['sleep', '10']);
    expect(containerArgv(nginx, undefined, ['nginx-debug'])).toEqual(['/docker-entrypoint.sh', 'nginx-debug']);
  });
  it('the shell parser rejects what it cannot model, with a message', () => {
    expect(() => parseShell('echo "unterminated')).toThrow(ShellSyntaxError);
    expect(() => parseShell('while [ -f x ]; do sleep 1; done')).toThrow('only "while true" loops are modelled');
  });
});

describe('signals to PID 1', () => {
  it('sleep as PID 1 ignores SIGTERM; only SIGKILL ends it (137)', () => {
    expect(runArgv(['sleep', '3600'], [[1000, 'SIGTERM'], [31_000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 31_000 });
  });
  it('sh without a trap ignores SIGTERM too', () => {
    expect(runArgv(['sh', '-c', 'sleep 3600'], [[1000, 'SIGTERM'], [3000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 3000 });
  });
  it('a trap runs when the foreground command returns', () => {
    expect(runArgv(['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'], [[1500, 'SIGTERM']]).exit).toEqual({ code: 0, t: 2000 });
    // sleep 1800 in the foreground: the trap waits for it, so SIGKILL comes first
    expect(runArgv(['sh', '-c', "trap 'exit 0' TERM; sleep 1800"], [[1000, 'SIGTERM'], [3000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 3000 });
  });
  it('`wait` is interrupted by a trapped signal at once; the trap decides the exit code', () => {
    expect(runArgv(['sh', '-c', "trap 'exit 143' TERM; sleep 1800 & wait"], [[1000, 'SIGTERM']]).exit).toEqual({ code: 143, t: 1000 });
  });
  it('servers stop on their stop signal with exit 0 (nginx: SIGQUIT, graceful)', () => {
    const r = runArgv(['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'], [[1000, 'SIGQUIT']]);
    expect(r.exit).toEqual({ code: 0, t: 1060 });
    expect(r.logs).toContain('1970/01/01 00:00:01 [notice] 1#1: signal 3 (SIGQUIT) received, shutting down');
    expect(runArgv(['/usr/local/bin/myapp'], [[1000, 'SIGTERM']]).exit).toEqual({ code: 0, t: 1100 });
  });
  it('a server started from a shell (no exec) never sees SIGTERM: sh keeps ignoring it', () => {
    expect(runArgv(['sh', '-c', "nginx -g 'daemon off;'"], [[1000, 'SIGTERM'], [30_000, 'SIGKILL']]).exit).toEqual({ code: 137, t: 30_000 });
    expect(runArgv(['sh', '-c', "exec nginx -g 'daemon off;'"], [[1000, 'SIGTERM']]).exit).toEqual({ code: 0, t: 1030 });
  });
});
