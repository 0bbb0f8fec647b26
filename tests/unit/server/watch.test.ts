// Watches as virtual time passes: `kubectl get pods -w` prints every state the pod goes through, as
// podlife's model has them; a raw watch honours resourceVersion, selectors (an object that starts or
// stops matching is ADDED or DELETED), timeoutSeconds and server-side tables.

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import { createEngine, scenarioToEngineConfig, type Pod } from '../../../src/sim/index.ts';
import { execute } from '../../../src/sim/commands/execute.ts';
import { printPod } from '../../../src/sim/render/table.ts';
import { KUBECTL, SKIP_REASON, type Typed, advance, kubectlAvailable, kubectlEnv, loadScenario, podlifeAt, shell, startPaused, watchesOpen } from './helpers.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every row `kubectl get pods` would print for `name`, stepping podlife's own run 1 ms at a time. */
function everyRow(scenarioName: string, name: string, until: number): string[][] {
  const scenario = loadScenario(scenarioName);
  const engine = createEngine(scenarioToEngineConfig(scenario), { seed: scenario.seed ?? 1 });
  const ctx = { get state() { return engine.state(); }, apply: (a: Parameters<typeof engine.apply>[0]) => engine.apply(a) };
  const steps = [...scenario.timeline].sort((a, b) => a.at - b.at);
  const rows: string[][] = [];
  let last: Pod | undefined;
  for (let t = 0; t <= until; t++) {
    engine.advanceTo(t);
    for (const s of steps.filter((x) => x.at === t && x.run?.startsWith('kubectl run'))) execute(s.run!, ctx);
    const pod = engine.state().pods.find((p) => p.metadata.name === name);
    if (pod && pod !== last) rows.push(printPod(pod, engine.state().epoch + t));
    last = pod;
  }
  return rows;
}

/** Lines kubectl printed, as cells. */
const cells = (text: string): string[][] => text.split('\n').filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s{2,}/));

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!kubectlAvailable)('kubectl get pods -w', () => {
  it('prints every state of nginx-test as virtual time passes, as podlife has them', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    const s = server;
    const child = spawn(KUBECTL, ['--server', s.url, 'get', 'pods', '-w'], { env: kubectlEnv() });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => out.includes('nginx-test'), 'the list');
      await advance(s, '3s');
      const expected = everyRow('nginx-test', 'nginx-test', 3000);
      await waitFor(() => cells(out).length === expected.length + 1, `${expected.length} rows`);
      const printed = cells(out);
      expect(printed[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      expect(printed.slice(1)).toEqual(expected);
      expect(printed.slice(1).map((r) => r[2])).toEqual(expect.arrayContaining(['Pending', 'ContainerCreating', 'Running']));
    } finally {
      child.kill();
    }
  });
});

describe.skipIf(!kubectlAvailable)("podlife's kubectl get -w prints what the real one prints on the same cluster", () => {
  it('table (aligned as the tab writer remembers widths), wide with --output-watch-events, -o name|jsonpath, --watch-only, -l, --no-headers, events, and a name', async () => {
    server = await startPaused();
    const s = server;
    const typed: Typed[] = [
      { at: 0, run: 'kubectl run db --image=redis:7' },
      { at: 0, run: 'kubectl run cache --image=redis:7 --labels=app=cache' },
      // after the watches start at 10 s
      { at: 10_500, run: 'kubectl run web --image=nginx:1.27' },
      { at: 40_000, run: 'kubectl delete pod web --wait=false' },
    ];
    expect((await shell(s, typed[0].run)).code).toBe(0);
    expect((await shell(s, typed[1].run)).code).toBe(0);
    await advance(s, '10s');
    const dir = mkdtempSync(path.join(tmpdir(), 'podlife-watch-'));
    const files = new Map<string, string>();
    const file = (name: string, text: string): string => {
      writeFileSync(path.join(dir, name), text);
      files.set(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const pod = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n`;
    const watches = [
      'kubectl get pods -w', 'kubectl get pods -o wide -w --output-watch-events', 'kubectl get pods -w -o name', "kubectl get pods -w -o jsonpath='{.status.phase}{\"\\n\"}'",
      'kubectl get pods --watch-only', 'kubectl get pods -w -l run=web', 'kubectl get pods -w --no-headers', 'kubectl get events -w', 'kubectl get pod db -w',
      'kubectl get pod web -w', 'kubectl get pods,nodes -w', 'kubectl get pods db db -w',
      'kubectl get pods -w -o custom-columns=NAME:.metadata.name,PHASE:.status.phase,RESTARTS:.status.containerStatuses[*].restartCount',
      'kubectl get pods -w -o custom-columns=NAME:.metadata.name,IP:.status.podIP --no-headers',
      // -f: one file of one pod is that pod's watch; several objects or several files are refused after the objects
      `kubectl get -f ${file('db.yaml', pod('db'))} -w`, `kubectl get -f ${file('db2.yaml', pod('db'))} -w -o name`,
      `kubectl get -f ${file('both.yaml', `${pod('db')}---\n${pod('cache')}`)} -w`,
      `kubectl get -f ${path.join(dir, 'db.yaml')} -f ${file('cache.yaml', pod('cache'))} -w`, `kubectl get -f ${file('nope.yaml', pod('nope'))} -w`,
    ];
    // the real watches end after 8 s of real time (their own --request-timeout); virtual time is moved once each
    // watch that podlife runs has started on the server (the others are refused before watching)
    const ours = watches.map((w) => podlifeAt(undefined, 10_000, w, { typed, readFile: (f) => files.get(f) }));
    const real = watches.map((w) => shell(s, `${w.replace('kubectl ', 'kubectl --request-timeout=8s ')}`));
    await watchesOpen(s, ours.filter((r) => r.code === 0).length);
    await advance(s, '10500ms');
    expect((await shell(s, typed[2].run)).code).toBe(0);
    for (const t of ['11s', '12s', '13s', '15s', '40s']) await advance(s, t);
    expect((await shell(s, typed[3].run)).code).toBe(0);
    for (const t of ['41s', '43s', '75s']) await advance(s, t);
    const got = await Promise.all(real);
    for (const [i, w] of watches.entries()) {
      expect(ours[i].stdout, w).toBe(got[i].stdout);
      expect(ours[i].code, w).toBe(got[i].code);
      // podlife says where and why its watch stopped (kubectl's would go on); an error is the same error
      if (got[i].code === 0) expect(ours[i].stderr, w).toMatch(/^podlife: nothing this watch shows changed from .* to .*: it stops there/);
      else expect(ours[i].stderr, w).toBe(got[i].stderr);
    }
    expect(got[0].stdout).toContain('ContainerCreating   0          0s');
  }, 30_000);

  it('kubectl events -w: the events so far, then each new or repeated one, in the forms kubectl prints them', async () => {
    server = await startPaused({ scenario: loadScenario('crash-loop') });
    const s = server;
    await advance(s, '30s');
    const watches = [
      'kubectl events -w', 'kubectl events -w -A --no-headers', 'kubectl events -w --for pod/crash-test --types=Warning',
      'kubectl events -w -o name', 'kubectl events -w --for=pod/crash-test -o json', 'kubectl events -w -o yaml --types Warning',
    ];
    const real = watches.map((w) => shell(s, `${w.replace('kubectl ', 'kubectl --request-timeout=6s ')}`));
    await watchesOpen(s, watches.length);
    for (const t of ['40s', '60s', '90s', '2m']) await advance(s, t);
    const got = await Promise.all(real);
    // the table's LAST SEEN is the real kubectl's own clock against podlife's paused one: compared without it (the
    // rows' other cells, and their order); every other form exactly
    const rows = (text: string, first: number): string[][] => text.split('\n').filter((l) => l !== '').map((l) => l.split(/ {2,}/).filter((c, i) => i !== first));
    for (const [i, w] of watches.entries()) {
      const ours = podlifeAt(loadScenario('crash-loop'), 30_000, w.replace('-w', '-w --request-timeout=90s'));
      expect(ours.code, w).toBe(got[i].code);
      if (w.includes(' -o ')) expect(ours.stdout, w).toBe(got[i].stdout);
      else expect(rows(ours.stdout, w.includes('-A') ? 1 : 0), w).toEqual(rows(got[i].stdout, w.includes('-A') ? 1 : 0));
      expect(got[i].stdout.length, w).toBeGreaterThan(0);
    }
    // the repeats arrive as rows of their own, their count grown
    expect(got[0].stdout).toMatch(/\(x4 over [^)]*\) +Normal +Pulling/);
  }, 30_000);
});

describe('watch over HTTP', () => {
  /** Read a watch stream's events until `count` have arrived. */
  async function events(url: string, count: number, headers: Record<string, string> = {}): Promise<{ type: string; object: any }[]> {
    const res = await fetch(url, { headers });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const got: { type: string; object: any }[] = [];
    let buf = '';
    while (got.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        got.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    }
    await reader.cancel();
    // A chunk may carry more events than asked for: the first `count` are the ones under test.
    return got.slice(0, count);
  }

  it('from a list\'s resourceVersion: only the changes after it, in order', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    const list = (await (await fetch(`${server.url}/api/v1/namespaces/default/pods`)).json()) as { metadata: { resourceVersion: string }; items: Pod[] };
    expect(list.items.map((p) => p.metadata.name)).toEqual(['nginx-test']);
    // Four changes in the first 3 s, the sandbox-ready condition (PodReadyToStartContainers) among them.
    const watching = events(`${server.url}/api/v1/namespaces/default/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}`, 4);
    await advance(server, '3s');
    const got = await watching;
    expect(got.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
    const versions = got.map((e) => Number(e.object.metadata.resourceVersion));
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions[0]).toBeGreaterThan(Number(list.metadata.resourceVersion));
    expect(got[got.length - 1].object.status.phase).toBe('Running');
  });

  it('a field selector: the pod is ADDED when it starts to match and DELETED when it stops', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    const watching = events(`${server.url}/api/v1/namespaces/default/pods?watch=1&fieldSelector=status.phase%3DRunning`, 2);
    await advance(server, '3s');
    const deleted = await fetch(`${server.url}/api/v1/namespaces/default/pods/nginx-test`, {
      method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: '{"gracePeriodSeconds":0}',
    });
    expect(deleted.status).toBe(200);
    const got = await watching;
    expect(got.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'nginx-test'], ['DELETED', 'nginx-test']]);
  });

  it('without a resourceVersion: the current objects first, as ADDED', async () => {
    server = await startPaused({ scenario: loadScenario('crash-loop') });
    await advance(server, '1m');
    const got = await events(`${server.url}/api/v1/nodes?watch=true`, 1);
    expect(got).toHaveLength(1);
    expect(got[0].type).toBe('ADDED');
    expect(got[0].object.metadata.name).toBe('worker01');
  });

  it('as Table rows (kubectl get -w asks for them): column definitions in the first event only', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const watching = events(`${server.url}/api/v1/namespaces/default/pods?watch=true`, 3, { Accept: accept });
    await advance(server, '1s');
    const got = await watching;
    expect(got.map((e) => e.object.kind)).toEqual(['Table', 'Table', 'Table']);
    expect(got[0].object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates',
    ]);
    expect(got[1].object.columnDefinitions).toBeNull();
    expect(got[0].object.rows[0].cells.slice(0, 3)).toEqual(['nginx-test', '0/1', 'Pending']);
    expect(got[0].object.rows[0].object.kind).toBe('PartialObjectMetadata');
  });

  it('timeoutSeconds ends the stream', async () => {
    server = await startPaused();
    const started = Date.now();
    const res = await fetch(`${server.url}/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1`);
    expect(await res.text()).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

it.runIf(!kubectlAvailable)(SKIP_REASON, () => {
  expect(kubectlAvailable).toBe(false);
});
