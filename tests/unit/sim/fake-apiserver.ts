// A minimal read-only API server for the printer parity tests: the real kubectl reads a fixed set of objects from
// it (discovery, GET of a list or of one object in a namespace, a field selector on events), and podlife prints the
// same objects; the two outputs must agree. Not podlife serve: that one serves the simulation itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeResource {
  /** The plural (`pods`), its singular and kind, and its short names. */
  name: string;
  singularName: string;
  kind: string;
  shortNames?: string[];
  /** The objects served, across namespaces. */
  items: { metadata: { name: string; namespace?: string } }[];
  /** A list's filter by the request's query (a field selector), when the resource has one. */
  select?: (items: FakeResource['items'], query: URLSearchParams) => FakeResource['items'];
}

export interface FakeApiServer {
  url: string;
  close(): Promise<void>;
}

export function fakeApiServer(resources: FakeResource[]): Promise<FakeApiServer> {
  const json = (res: http.ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const p = u.pathname;
    if (p === '/api') return json(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] });
    if (p === '/apis') return json(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    if (p === '/api/v1') {
      return json(res, 200, {
        kind: 'APIResourceList', groupVersion: 'v1',
        resources: resources.map((r) => ({ name: r.name, singularName: r.singularName, namespaced: true, kind: r.kind, verbs: ['get', 'list'], ...(r.shortNames ? { shortNames: r.shortNames } : {}) })),
      });
    }
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/.exec(p);
    const r = m && resources.find((x) => x.name === m[2]);
    if (!m || !r) return json(res, 404, {});
    const [, ns, resource, name] = m;
    const inNamespace = r.items.filter((o) => (o.metadata.namespace ?? 'default') === ns);
    if (name === undefined) {
      return json(res, 200, { kind: `${r.kind}List`, apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: r.select ? r.select(inNamespace, u.searchParams) : inNamespace });
    }
    const found = inNamespace.find((o) => o.metadata.name === name);
    return found ? json(res, 200, found) : json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `${resource} "${name}" not found`, reason: 'NotFound', code: 404 });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}
