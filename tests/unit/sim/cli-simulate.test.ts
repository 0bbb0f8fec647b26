// `npx podlife simulate` as a user runs it: a real subprocess through scripts/podlife.mjs on the
// project's Node 22. Exit codes, the transcript, --json, --at, and errors that name the file and
// line without a stack trace.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStepKey } from '../../../src/sim/steps.ts';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function podlife(...args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/podlife.mjs', ...args], { env: { ...process.env, PODLIFE_DEBUG: '' } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'podlife-cli-'));
function scenarioFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('podlife simulate', () => {
  it('prints the transcript of a named scenario (exactly the golden)', async () => {
    const r = await podlife('simulate', 'nginx');
    expect(r).toEqual({ code: 0, stdout: readFileSync('tests/golden/nginx.txt', 'utf8'), stderr: '' });
  });

  it('takes a file path too, and --seed changes the generated IDs', async () => {
    const a = await podlife('simulate', 'content/scenarios/nginx-test.yaml', '--seed', '7');
    const b = await podlife('simulate', 'nginx-test', '--seed=7');
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(readFileSync('tests/golden/nginx-test.txt', 'utf8'));
  });

  it('--json prints the trace: ordered events, each step key one the book quotes', async () => {
    const r = await podlife('simulate', 'crash-loop', '--json');
    expect(r.code).toBe(0);
    const trace = JSON.parse(r.stdout) as { seq: number; t: number; actor: string; kind: string; key?: string }[];
    expect(trace.length).toBeGreaterThan(100);
    trace.forEach((e, i) => {
      expect(e.seq).toBe(i);
      if (i > 0) expect(e.t).toBeGreaterThanOrEqual(trace[i - 1].t);
      if (e.key !== undefined) expect(isStepKey(e.key), e.key).toBe(true);
    });
    expect(trace.some((e) => e.key === 'doBackOff#1')).toBe(true);
  });

  it('--at runs one more command at that time and prints only its output', async () => {
    const r = await podlife('simulate', 'crash-loop', '--at', '8m23s', '--', 'kubectl', 'get', 'pod', 'crash-test');
    expect(r).toEqual({
      code: 0,
      stdout: 'NAME         READY   STATUS             RESTARTS        AGE\ncrash-test   0/1     CrashLoopBackOff   6 (2m46s ago)   8m23s\n',
      stderr: '',
    });
    const piped = await podlife('simulate', 'nginx-test', '--at', '89.5s', '--', 'kubectl describe pod nginx-test | grep -c Normal');
    expect(piped.stdout).toBe('4\n');
  });

  it('--at: kubectl create|get|delete|apply -f read the files the command names, from the working directory', async () => {
    const manifest = scenarioFile('web.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.27\n');
    const r = await podlife('simulate', 'crash-loop', '--at', '30s', '--', `kubectl create -f ${manifest} && kubectl get -f ${manifest} -o name && kubectl delete -f ${manifest} --wait=false`);
    expect(r).toEqual({ code: 0, stdout: 'pod/web created\npod/web\npod "web" deleted from default namespace\n', stderr: '' });
    // a directory or a missing file is not read (kubectl's message for a path that is not there)
    const missing = await podlife('simulate', 'crash-loop', '--at', '30s', '--', 'kubectl', 'apply', '-f', path.join(dir, 'nope.yaml'));
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `error: the path "${path.join(dir, 'nope.yaml')}" does not exist\n` });
    // the scenario's own timeline reads no files: the same run wherever it is
    const timeline = scenarioFile('reads.yaml', `title: reads\ntimeline:\n  - at: 0s\n    run: kubectl apply -f ${manifest}\n`);
    expect((await podlife('simulate', timeline, '--at', '5s', '--', 'kubectl get pods')).stderr).toBe('No resources found in default namespace.\n');
  });

  it("--at exits with the command's own status and stderr", async () => {
    const r = await podlife('simulate', 'nginx', '--at', '1s', '--', 'kubectl', 'get', 'pod', 'nope');
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n' });
  });

  it('rejects bad arguments with a clear message and exit 2', async () => {
    const unknown = await podlife('simulate', 'no-such-scenario');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^podlife: no scenario "no-such-scenario": no content\/scenarios\/no-such-scenario\.yaml\n  hint: known scenarios: backoff-reset, configmap-update, crash-loop, delete, /);
    // a path is a file, not a name to look up
    expect((await podlife('simulate', 'content/scenarios/nosuch.yaml')).stderr).toMatch(/^podlife: no such file: content\/scenarios\/nosuch\.yaml\n  hint: known scenarios: /);
    expect(await podlife('simulate', 'content/scenarios')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^podlife: content\/scenarios is a directory: give a scenario file \(\.yaml\) or a scenario name\n/) });
    const at = await podlife('simulate', 'nginx', '--at', '8x', '--', 'kubectl', 'get', 'pods');
    expect(at).toMatchObject({ code: 2, stderr: 'podlife: --at "8x": time: unknown unit "x" in duration "8x"\n  hint: use a Go duration such as 90s, 8m23s or 1h\n' });
    expect((await podlife('simulate', 'nginx', '--at', '5s')).stderr).toBe('podlife: --at needs a command after --, e.g. --at 2s -- kubectl get pods\n');
    expect((await podlife('simulate', 'nginx', '--frobnicate')).code).toBe(2);
    expect((await podlife('simulate')).stderr).toMatch(/^podlife: which scenario\? .*\n  hint: known scenarios: backoff-reset, /);
  });

  it('stops quietly when the reader closes the pipe (| head): no EPIPE stack trace', async () => {
    const r = await new Promise<Result>((resolve) => {
      execFile('/bin/sh', ['-c', `"${process.execPath}" scripts/podlife.mjs simulate crash-loop --at 30m -- journalctl -u kubelet | head -1; exit 0`], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
    });
    expect(r.stdout.split('\n').filter(Boolean).length).toBe(1);
    expect(r.stderr).toBe('');
  });

  it('--at writes both streams in the order the command wrote them: a warning before the output', async () => {
    const r = await new Promise<Result>((resolve) => {
      execFile('/bin/sh', ['-c', `"${process.execPath}" scripts/podlife.mjs simulate nginx --at 30s -- kubectl delete pod nginx --force --grace-period=0 2>&1`], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
    });
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.',
      'pod "nginx" force deleted from default namespace',
    ]);
  });

  it('podlife --version, help <command>, and a usage that says what each command does', async () => {
    expect((await podlife('--version')).stdout).toMatch(/^podlife \d+\.\d+\.\d+ \(models Kubernetes v1\.36\.2; Node v22\./);
    expect((await podlife('help', 'simulate')).stdout).toBe((await podlife('simulate', '--help')).stdout);
    const usage = await podlife('--help');
    expect(usage.stdout).toMatch(/\n {2}simulate {2}run a lifecycle scenario and print what kubectl, crictl and journalctl show\n/);
    // --help on the build prints its usage instead of building
    expect(await podlife('build', '--help')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: podlife build /) });
  });

  it('a timeline command with an unknown flag fails with the scenario file and line', async () => {
    const file = scenarioFile('bad-flag.yaml', 'title: t\ntimeline:\n  - at: 0s\n    run: kubectl run x --image=nginx\n  - at: 5s\n    run: kubectl get pods --frobnicate\n');
    const r = await podlife('simulate', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`podlife: ${file}:5:5: timeline command cannot run: error: unknown flag: --frobnicate`);
    expect(r.stderr).not.toMatch(/\n\s+at .*\.ts:\d+/);
  });

  it('a manifest the API server rejects fails with the file and line', async () => {
    const file = scenarioFile('bad-manifest.yaml', 'title: t\ntimeline:\n  - at: 0s\n    apply: |\n      apiVersion: v1\n      kind: Pod\n      metadata:\n        name: x\n      spec:\n        containers:\n        - name: c\n');
    const r = await podlife('simulate', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^podlife: ${file.replaceAll('.', '\\.')}:\\d+(:\\d+)?: .*image`));
    expect(r.stderr).not.toMatch(/\n\s+at .*\.ts:\d+/);
  });

  it('--help', async () => {
    const r = await podlife('simulate', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n  podlife simulate <scenario> \[--seed N\] \[--json\]\n/);
  });
});
