// The HTTP surface without kubectl: discovery (aggregated and legacy), the OpenAPI v3 documents kubectl
// apply reads, server-side tables, content negotiation, Status errors for what is not served, pagination,
// DeleteOptions, namespaces, the log subresource, and the control endpoints.

import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/server.ts';
import { startServer } from '../../../src/server/server.ts';
import { AGGREGATED_V2 } from '../../../src/server/discovery.ts';
import { advance, loadScenario, startPaused } from './helpers.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const AGGREGATED_ACCEPT = `${AGGREGATED_V2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;

async function get(path: string, accept?: string): Promise<{ status: number; type: string; body: any }> {
  const res = await fetch(`${server!.url}${path}`, accept ? { headers: { Accept: accept } } : {});
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text.startsWith('{') ? JSON.parse(text) : text };
}

async function send(method: string, path: string, body: string, contentType = 'application/json'): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server!.url}${path}`, { method, headers: { 'Content-Type': contentType }, body });
  return { status: res.status, body: await res.json() };
}

describe('discovery', () => {
  it('aggregated discovery when asked for it (kubectl 1.32 asks first), legacy documents otherwise', async () => {
    server = await startPaused();
    const agg = await get('/api', AGGREGATED_ACCEPT);
    expect(agg.type).toBe(AGGREGATED_V2);
    expect(agg.body.kind).toBe('APIGroupDiscoveryList');
    const resources = agg.body.items[0].versions[0].resources;
    expect(resources.map((r: { resource: string }) => r.resource)).toEqual(['configmaps', 'events', 'namespaces', 'nodes', 'pods', 'secrets', 'services']);
    // the "all" category, as a real cluster's core group has it: pods, then services (kubectl get all expands it)
    expect(resources.filter((r: { categories?: string[] }) => r.categories?.includes('all')).map((r: { resource: string }) => r.resource)).toEqual(['pods', 'services']);
    expect(resources.find((r: { resource: string }) => r.resource === 'services')).toMatchObject({ scope: 'Namespaced', shortNames: ['svc'], verbs: ['get', 'list', 'watch'] });
    expect(resources.find((r: { resource: string }) => r.resource === 'pods')).toMatchObject({
      scope: 'Namespaced', singularResource: 'pod', shortNames: ['po'], responseKind: { group: '', version: 'v1', kind: 'Pod' },
      subresources: [
        { subresource: 'ephemeralcontainers', verbs: ['get', 'patch'] },
        { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
        { subresource: 'log', verbs: ['get'] },
        { subresource: 'resize', verbs: ['get', 'patch'] },
      ],
    });
    expect((await get('/apis', AGGREGATED_ACCEPT)).body.items).toEqual([]);
    const legacy = await get('/api');
    expect(legacy.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    expect(legacy.body.serverAddressByClientCIDRs[0].serverAddress).toBe(server.url.replace('http://', ''));
    expect((await get('/apis')).body).toEqual({ kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    const v1 = await get('/api/v1');
    expect(v1.body.resources.map((r: { name: string }) => r.name)).toEqual([
      'configmaps', 'events', 'namespaces', 'nodes', 'pods', 'pods/ephemeralcontainers', 'pods/eviction', 'pods/log', 'pods/resize', 'secrets', 'services',
    ]);
    // where kubectl drain looks for the Eviction API (drain.CheckEvictionSupport: a group and a version)
    expect(v1.body.resources.find((r: { name: string }) => r.name === 'pods/eviction')).toMatchObject({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    expect((await get('/version')).body.gitVersion).toBe('v1.36.2+podlife');
  });

  it('OpenAPI v3: each kind\'s PATCH operation lists fieldValidation, so kubectl apply validates on the server', async () => {
    server = await startPaused();
    const index = await get('/openapi/v3');
    const url = index.body.paths['api/v1'].serverRelativeURL as string;
    const doc = await get(url);
    const patches = Object.values(doc.body.paths as Record<string, { patch: any }>).map((p) => p.patch);
    const pod = patches.find((p) => p['x-kubernetes-group-version-kind'].kind === 'Pod');
    expect(pod['x-kubernetes-group-version-kind']).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(pod.parameters).toContainEqual(expect.objectContaining({ name: 'fieldValidation', in: 'query' }));
    expect((await get('/openapi/v2')).status).toBe(404);
  });
});

describe('tables and objects', () => {
  it('a pod list as a Table: every column, the wide ones at priority 1, rows from podlife\'s printer', async () => {
    server = await startPaused({ scenario: loadScenario('crash-loop') });
    await advance(server, '8m23s');
    const t = await get('/api/v1/namespaces/default/pods', TABLE);
    expect(t.type).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(t.body.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0', 'Ready:0', 'Status:0', 'Restarts:0', 'Age:0', 'IP:1', 'Node:1', 'Nominated Node:1', 'Readiness Gates:1',
    ]);
    expect(t.body.rows[0].cells.slice(0, 5)).toEqual(['crash-test', '0/1', 'CrashLoopBackOff', '6 (2m46s ago)', '8m23s']);
    expect(t.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'crash-test' } });
    expect(t.body.metadata.resourceVersion).toMatch(/^\d+$/);
    const full = await get('/api/v1/namespaces/default/pods?includeObject=Object', TABLE);
    expect(full.body.rows[0].object.kind).toBe('Pod');
    const none = await get('/api/v1/namespaces/default/pods?includeObject=None', TABLE);
    expect(none.body.rows[0].object).toBeUndefined();
    const list = await get('/api/v1/namespaces/default/pods');
    expect(list.body.kind).toBe('PodList');
    expect(list.body.metadata.resourceVersion).toBe(t.body.metadata.resourceVersion);
  });

  it('a finished pod\'s row carries the Completed condition', async () => {
    server = await startPaused({ scenario: loadScenario('restart-policies') });
    await advance(server, '1m');
    const t = await get('/api/v1/namespaces/default/pods', TABLE);
    const row = (name: string) => t.body.rows.find((r: { cells: string[] }) => r.cells[0] === name);
    // onfailure-ok has Succeeded: its row says so to kubectl; always-ok reads Completed between restarts, but its
    // phase is Running, so its row has no such condition
    expect(row('onfailure-ok').cells[2]).toBe('Completed');
    expect(row('onfailure-ok').conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    expect(row('always-ok').cells[2]).toBe('Completed');
    expect(row('always-ok').conditions).toBeUndefined();
  });

  it('limit and continue page through a list', async () => {
    server = await startPaused({ scenario: loadScenario('restart-policies') });
    await advance(server, '1m');
    const all = (await get('/api/v1/namespaces/default/pods')).body.items.map((p: any) => p.metadata.name);
    expect(all.length).toBeGreaterThan(2);
    const first = (await get('/api/v1/namespaces/default/pods?limit=2')).body;
    expect(first.items.map((p: any) => p.metadata.name)).toEqual(all.slice(0, 2));
    const rest = (await get(`/api/v1/namespaces/default/pods?limit=100&continue=${first.metadata.continue}`)).body;
    expect(rest.items.map((p: any) => p.metadata.name)).toEqual(all.slice(2));
    expect(rest.metadata.continue).toBeUndefined();
  });

  it('namespaces of a kubeadm cluster; a pod cannot be created in one that does not exist', async () => {
    server = await startPaused();
    const ns = await get('/api/v1/namespaces', TABLE);
    expect(ns.body.rows.map((r: { cells: string[] }) => r.cells.slice(0, 3))).toEqual([
      ['default', 'Active', '37d'], ['kube-node-lease', 'Active', '37d'], ['kube-public', 'Active', '37d'], ['kube-system', 'Active', '37d'],
    ]);
    const pod = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"a","image":"nginx"}]}}';
    const r = await send('POST', '/api/v1/namespaces/nope/pods', pod);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('namespaces "nope" not found');
    expect((await send('POST', '/api/v1/namespaces/kube-system/pods', pod)).status).toBe(201);
  });
});

describe('Status errors for what is not served', () => {
  it.each([
    ['GET', '/api/v1/namespaces/default/pods/nope', 404, 'NotFound', 'pods "nope" not found'],
    ['GET', '/api/v1/serviceaccounts', 404, 'NotFound', 'the server could not find the requested resource'],
    ['GET', '/api/v1/namespaces/default/configmaps/nope', 404, 'NotFound', 'configmaps "nope" not found'],
    ['PUT', '/api/v1/nodes/worker01', 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    ['PUT', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt', 400, 'BadRequest', "podlife: kube-root-ca.crt is the root CA publisher's, which puts it back as it was at once; the model does not change it"],
    ['GET', '/api/v1/namespaces/default/nodes', 404, 'NotFound', 'the server could not find the requested resource'],
    ['GET', '/api/v1/namespaces/default/pods/a/exec', 400, 'BadRequest', 'Upgrade request required'],
    ['POST', '/api/v1/namespaces/default/pods/a/portforward', 400, 'BadRequest', 'podlife: the portforward stream (kubectl port-forward) is not supported by this simulation'],
    ['GET', '/api/v1/namespaces/default/pods/a/binding', 404, 'NotFound', 'the server could not find the requested resource'],
    ['PUT', '/api/v1/namespaces/default/pods/a', 404, 'NotFound', 'pods "a" not found'],
    ['PUT', '/api/v1/namespaces/default/events/x', 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    ['POST', '/api/v1/nodes', 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    ['DELETE', '/api/v1/namespaces/default/pods', 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    ['DELETE', '/api/v1/namespaces/default/events/x', 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  ])('%s %s → %d %s', async (method, path, code, reason, message) => {
    server = await startPaused();
    const res = await fetch(`${server.url}${path}`, { method, ...(method === 'GET' ? {} : { body: '{}', headers: { 'Content-Type': 'application/json' } }) });
    expect(res.status).toBe(code);
    expect(await res.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });
  });

  it('protobuf only: 406 NotAcceptable; protobuf first with JSON after (kubectl describe): JSON', async () => {
    server = await startPaused();
    expect((await get('/api/v1/nodes', 'application/vnd.kubernetes.protobuf')).status).toBe(406);
    const r = await get('/api/v1/nodes', 'application/vnd.kubernetes.protobuf,application/json');
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('NodeList');
  });

  it('delete preconditions and options', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    await advance(server, '5s');
    const wrongUid = await send('DELETE', '/api/v1/namespaces/default/pods/nginx-test', '{"preconditions":{"uid":"not-it"}}');
    expect(wrongUid.status).toBe(409);
    expect(wrongUid.body.message).toMatch(/^Operation cannot be fulfilled on pods "nginx-test": Precondition failed: UID in precondition: not-it, UID in object meta: /);
    const badPolicy = await send('DELETE', '/api/v1/namespaces/default/pods/nginx-test', '{"propagationPolicy":"Later"}');
    expect(badPolicy.status).toBe(422);
    expect(server.cluster.engine.state().pods[0].metadata.deletionTimestamp).toBeUndefined();
    const ok = await send('DELETE', '/api/v1/namespaces/default/pods/nginx-test?gracePeriodSeconds=5', '');
    expect(ok.status).toBe(200);
    expect(ok.body.metadata.deletionGracePeriodSeconds).toBe(5);
  });

  it('the log subresource: text, and the kubelet\'s errors as 400', async () => {
    server = await startPaused({ scenario: loadScenario('image-pull-error') });
    await advance(server, '20s');
    const waiting = await get('/api/v1/namespaces/default/pods/app/log');
    expect(waiting.status).toBe(400);
    expect(waiting.body.message).toBe('container "app" in pod "app" is waiting to start: trying and failing to pull image');
    expect((await get('/api/v1/namespaces/default/pods/app/log?tailLines=many')).status).toBe(400);
    expect((await get('/api/v1/namespaces/default/pods/nope/log')).status).toBe(404);
  });
});

describe('the exec stream (kubectl exec over a WebSocket, v5.channel.k8s.io)', () => {
  /** Open the stream as kubectl does and collect its messages: [channel, text] pairs, then how it closed. */
  function exec(path: string, protocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io']): Promise<{ protocol: string; messages: [number, string][]; code: number }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${server!.url.replace('http', 'ws')}${path}`, protocols);
      ws.binaryType = 'arraybuffer';
      const messages: [number, string][] = [];
      ws.onmessage = (m) => {
        const bytes = new Uint8Array(m.data as ArrayBuffer);
        messages.push([bytes[0], new TextDecoder().decode(bytes.subarray(1))]);
      };
      ws.onclose = (c) => resolve({ protocol: ws.protocol, messages, code: c.code });
      ws.onerror = () => reject(new Error(`WebSocket ${path} failed`));
    });
  }
  const at = '/api/v1/namespaces/default/pods/nginx-test/exec?container=nginx-test&stdout=true&stderr=true';

  it('stdout on channel 1, stderr on 2, the final Status on 3 (NonZeroExitCode with the code as its cause), then a normal close', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    await advance(server, '2m');
    const ok = await exec(`${at}&command=hostname`);
    expect(ok).toEqual({ protocol: 'v5.channel.k8s.io', messages: [[1, 'nginx-test\n'], [3, '{"metadata":{},"status":"Success"}']], code: 1000 });
    const failed = await exec(`${at}&command=cat&command=/nope`, ['v4.channel.k8s.io']);
    expect(failed.protocol).toBe('v4.channel.k8s.io');
    expect(failed.messages[0]).toEqual([2, "cat: can't open '/nope': No such file or directory\n"]);
    expect(JSON.parse(failed.messages[1][1])).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '1' }] } });
  });

  it('with stdin, nothing comes before the client has made its streams: the answer follows its stdin close signal', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    await advance(server, '2m');
    const ws = new WebSocket(`${server!.url.replace('http', 'ws')}${at}&stdin=true&command=hostname`, ['v5.channel.k8s.io']);
    ws.binaryType = 'arraybuffer';
    const messages: [number, string][] = [];
    ws.onmessage = (m) => {
      const bytes = new Uint8Array(m.data as ArrayBuffer);
      messages.push([bytes[0], new TextDecoder().decode(bytes.subarray(1))]);
    };
    const closed = new Promise<number>((resolve) => (ws.onclose = (c) => resolve(c.code)));
    await new Promise<void>((resolve) => (ws.onopen = () => resolve()));
    // client-go drops a message for a stream it has not made yet; kubectl sends stdin's close once it has them
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages).toEqual([]);
    ws.send(new Uint8Array([255, 0]));
    expect(await closed).toBe(1000);
    expect(messages).toEqual([[1, 'nginx-test\n'], [3, '{"metadata":{},"status":"Success"}']]);
  });

  it('an error before the stream is the API server\'s Status over HTTP; a client without the channel protocol is refused', async () => {
    server = await startPaused({ scenario: loadScenario('nginx-test') });
    await advance(server, '2m');
    // an upgrade request answered without switching protocols: its status and JSON body
    const upgrade = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(`${server!.url}${path}`, { method: headers.Upgrade === 'websocket' ? 'GET' : 'POST', headers: { Connection: 'Upgrade', ...headers } });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('upgrade', () => reject(new Error('switched protocols')));
        req.on('error', reject);
        req.end();
      });
    const missing = await upgrade('/api/v1/namespaces/default/pods/nope/exec?command=ls&container=x', { Upgrade: 'websocket', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Protocol': 'v5.channel.k8s.io' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'pods "nope" not found' });
    const spdy = await upgrade(`${at}&command=touch&command=/tmp/spdy`, { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' });
    expect(spdy.status).toBe(400);
    expect(spdy.body.message).toBe('podlife: the SPDY exec stream is not supported by this simulation; podlife serve streams exec over a WebSocket (v5.channel.k8s.io, v4.channel.k8s.io)');
    // the refused request ran nothing
    expect((await exec(`${at}&command=ls&command=/tmp/spdy`)).messages[0]).toEqual([2, 'ls: /tmp/spdy: No such file or directory\n']);
  });
});

describe('control endpoints', () => {
  it('time, advance (to and by), and what cannot be done', async () => {
    server = await startPaused({ scenario: loadScenario('stuck-finalizer') });
    const t0 = (await get('/podlife/time')).body;
    expect(t0).toMatchObject({ now: '0s', nowMs: 0, speed: 1, paused: true, next: { at: '30s', what: 'kubectl delete pod guarded --wait=false' }, watches: 0 });
    // an open watch is counted while it lasts (a script can wait for its kubectl get -w to have started)
    const stop = new AbortController();
    const watch = await fetch(`${server.url}/api/v1/namespaces/default/pods?watch=true`, { signal: stop.signal });
    expect(watch.status).toBe(200);
    expect((await get('/podlife/time')).body.watches).toBe(1);
    stop.abort();
    await watch.body?.cancel().catch(() => undefined);
    let watches = 1;
    for (let i = 0; i < 200 && watches !== 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      watches = (await get('/podlife/time')).body.watches as number;
    }
    expect(watches).toBe(0);
    expect((await send('POST', '/podlife/advance?to=45s', '')).body).toMatchObject({ now: '45s', next: { at: '5m10s' } });
    expect(server.cluster.engine.state().pods[0].metadata.deletionTimestamp).toBeDefined();
    expect((await send('POST', '/podlife/advance?by=1m30s', '')).body.now).toBe('2m15s');
    const back = await send('POST', '/podlife/advance?to=10s', '');
    expect(back.status).toBe(400);
    expect(back.body.message).toContain('cannot go back');
    expect((await send('POST', '/podlife/advance?to=1m&by=1s', '')).status).toBe(400);
    expect((await send('POST', '/podlife/advance?by=soon', '')).body.message).toContain('Go duration');
    expect((await get('/podlife/advance?by=1s')).status).toBe(405);
    expect((await get('/podlife/nothing')).status).toBe(404);
  });

  it('a running clock moves the cluster on its own; pause and resume', async () => {
    let real = 5_000_000;
    server = await startServer({ port: 0, speed: 60, realTime: () => real, tickMs: 10 });
    real += 1000;
    // No request: the ticker alone moves the cluster (watchers depend on it).
    for (let i = 0; i < 200 && server.cluster.now < 60_000; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.cluster.now).toBe(60_000);
    expect((await send('POST', '/podlife/pause', '')).body).toMatchObject({ paused: true, now: '1m0s' });
    real += 1000;
    await new Promise((r) => setTimeout(r, 60));
    expect(server.cluster.now).toBe(60_000);
    await send('POST', '/podlife/resume', '');
    real += 500;
    expect((await get('/podlife/time')).body.now).toBe('1m30s');
    expect((await send('POST', '/podlife/speed?to=1', '')).body).toMatchObject({ speed: 1, now: '1m30s' });
    real += 2000;
    expect((await get('/podlife/time')).body.now).toBe('1m32s');
    expect((await send('POST', '/podlife/speed?to=0', '')).status).toBe(400);
  });
});
