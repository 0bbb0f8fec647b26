// `podlife serve` as a user runs it: a subprocess that prints the kubectl command and a kubeconfig,
// serves the real kubectl, replays the scenario as time moves, and stops cleanly on SIGTERM and SIGINT;
// bad options fail with a clear message and no stack trace.

import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBECTL, kubectlAvailable } from './helpers.ts';

const NODE = 'node_modules/.bin/node';
const CLI = 'scripts/podlife.mjs';

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function serve(args: string[]): Promise<Served> {
  const child = spawn(NODE, [CLI, 'serve', ...args], { cwd: process.cwd() });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Serving the simulated cluster at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exit });
      }
    }, 20);
    void exit.then((code) => {
      clearInterval(timer);
      reject(new Error(`podlife serve exited (${code}) before serving:\n${out}${err}`));
    });
  });
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(NODE, [CLI, 'serve', ...args], { timeout: 30_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr }),
    );
  });
}

function kubectlVia(kubeconfig: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, ['--request-timeout=20s', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: path.dirname(kubeconfig), KUBECONFIG: kubeconfig },
    }, (e, stdout, stderr) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr }));
  });
}

describe('podlife serve (the command)', () => {
  it('prints how to use it, serves the kubeconfig it prints, replays the timeline, and stops on SIGTERM', async () => {
    const s = await serve(['stuck-finalizer', '--paused', '--port', '0']);
    try {
      expect(s.stdout()).toContain(`  kubectl --server ${s.url} get pods\n`);
      expect(s.stdout()).toContain('virtual time is paused at 0s');
      expect(s.stderr()).toContain('[0s] timeline: apply pod/guarded created');
      const time = await (await fetch(`${s.url}/podlife/time`)).json();
      // --paused shows the scenario's own timestamps, as podlife simulate does.
      expect(time).toMatchObject({ now: '0s', paused: true, wallTime: '2026-08-04T03:00:00Z' });
      await fetch(`${s.url}/podlife/advance?to=45s`, { method: 'POST' });
      // the child writes its timeline log after answering: give a loaded machine time to flush it
      const line = '[30s] timeline: $ kubectl delete pod guarded --wait=false → pod "guarded" deleted from default namespace';
      for (let i = 0; i < 100 && !s.stderr().includes(line); i++) await new Promise((r) => setTimeout(r, 50));
      expect(s.stderr()).toContain(line);
      if (kubectlAvailable) {
        // The kubeconfig snippet, saved as printed, is all kubectl needs.
        const snippet = /(apiVersion: v1\nkind: Config\n[\s\S]*?user: \{\}\n)/.exec(s.stdout())![1];
        const dir = mkdtempSync(path.join(tmpdir(), 'podlife-kubeconfig-'));
        const kubeconfig = path.join(dir, 'podlife.kubeconfig');
        writeFileSync(kubeconfig, snippet);
        const r = await kubectlVia(kubeconfig, ['get', 'pod', 'guarded']);
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE\nguarded +1\/1 +Terminating +0 +45s\n$/);
      }
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exit).toBe(0);
    expect(s.stderr()).toContain('podlife serve: SIGTERM, stopping at virtual time 45s');
  });

  it('stops on SIGINT (Ctrl-C) with an open watch', async () => {
    const s = await serve(['--paused', '--port', '0']);
    const res = await fetch(`${s.url}/api/v1/namespaces/default/pods?watch=true`);
    expect(res.status).toBe(200);
    s.child.kill('SIGINT');
    expect(await s.exit).toBe(0);
    expect(await res.text()).toBe('');
    expect(s.stderr()).toContain('SIGINT, stopping');
  });

  it('without --paused, virtual time runs with the real clock from (about) now', async () => {
    const s = await serve(['--port', '0', '--speed', '10']);
    try {
      expect(s.stdout()).toContain('virtual time runs at 10x');
      await new Promise((r) => setTimeout(r, 1300));
      const t = (await (await fetch(`${s.url}/podlife/time`)).json()) as { nowMs: number; wallTime: string };
      expect(t.nowMs).toBeGreaterThan(0);
      // --start now (the default when the clock runs): the cluster's wall clock is this machine's.
      expect(Math.abs(Date.parse(t.wallTime) - t.nowMs - Date.now())).toBeLessThan(5000);
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exit).toBe(0);
  });

  it.each([
    [['--speed', '0'], /^podlife: --speed "0": expected a positive number\n {2}hint: e\.g\. --speed 1, 10 or 60\n$/],
    [['--port', 'http'], /^podlife: --port "http": expected a port number/],
    [['no-such-scenario'], /^podlife: no scenario "no-such-scenario": no content\/scenarios\/no-such-scenario\.yaml\n {2}hint: known scenarios: ([a-z-]+, )*crash-loop, /],
    [['--start', 'yesterday'], /^podlife: --start "yesterday": expected now, scenario or an RFC 3339 time/],
    [['--verbose'], /^podlife: unknown option --verbose\n {2}hint: see podlife serve --help\n$/],
    [['a', 'b'], /^podlife: unexpected argument "b"\n {2}hint: podlife serve takes one scenario\n$/],
  ])('%j fails with a clear message', async (args, message) => {
    const r = await run([...args, '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('    at ');
  });

  it('a port already in use is said plainly', async () => {
    const busy = http.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await run(['--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`podlife: port ${port} on 127.0.0.1 is already in use\n  hint: choose another with --port N (or --port 0 for any free port)\n`);
    } finally {
      busy.close();
    }
  });

  it('--help', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n {2}podlife serve \[scenario\] \[--port 8001\] \[--speed 1\|10\|60\] \[--paused\]/);
  });
});
