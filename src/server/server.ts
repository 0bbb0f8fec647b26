// `podlife serve`: the simulated cluster as a Kubernetes API server on loopback, for a real kubectl.
// Before every request the cluster catches up with the virtual clock, so what kubectl reads is the cluster
// "now"; a ticker does the same between requests so watches see changes as they happen.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Scenario } from '../sim/index.ts';
import { ResourceApi, parseResourcePath } from './api.ts';
import { LiveCluster } from './cluster.ts';
import { VirtualClock, type RealTime } from './clock.ts';
import { type TimeReport, handleControl, timeReport } from './control.ts';
import {
  AGGREGATED_V2, aggregatedCore, aggregatedGroups, apiGroupList, apiResourceList, apiVersions, versionInfo, wantsAggregated,
} from './discovery.ts';
import { sendJson } from './media.ts';
import { clusterNamespaces } from '../sim/api/namespaces.ts';
import { clusterServices } from '../sim/api/services.ts';
import { rootCAConfigMaps } from '../sim/api/namespaces.ts';
import { HEALTH_PATHS } from '../sim/api/resources.ts';
import { openApiV3CoreV1, openApiV3Index } from './openapi.ts';
import { nodeLease } from '../sim/kubelet/lease.ts';
import { HttpError, badRequest, methodNotAllowed, notModelled, objectNotFound, pathNotFound } from './status.ts';
import { serveExecUpgrade } from './exec.ts';
import type { Duplex } from 'node:stream';

/** Only loopback: the simulated cluster has no authentication. */
export const HOST = '127.0.0.1';

/** The API server's request body limit (3 MiB). */
const MAX_BODY = 3 * 1024 * 1024;

export interface ServeOptions {
  scenario?: Scenario;
  /** 0 = any free port. */
  port?: number;
  /** Virtual seconds per real second (default 1). */
  speed?: number;
  /** Virtual time moves only through /podlife/advance (default false). */
  paused?: boolean;
  seed?: number;
  /** Wall-clock epoch (ms) of virtual time 0; default: the scenario's `start:` (else the engine's default). */
  epoch?: number;
  /** Real instant at which virtual time starts to run (default: when the server starts). */
  startAt?: number;
  /** How often (real ms) a running clock pushes the cluster forward for watchers (default 100). */
  tickMs?: number;
  realTime?: RealTime;
  /** Server log lines (timeline steps, errors). */
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  cluster: LiveCluster;
  clock: VirtualClock;
  /** What GET /podlife/time answers: virtual time, speed, the next timeline step, open watches. */
  time(): TimeReport;
  /** Stop accepting requests, end open watches, stop the clock. */
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 }));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? (() => {});
  const cluster = new LiveCluster({
    ...(opts.scenario ? { scenario: opts.scenario } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.epoch !== undefined ? { epoch: opts.epoch } : {}),
    log,
  });
  const clock = new VirtualClock({
    speed: opts.speed ?? 1,
    paused: opts.paused ?? false,
    ...(opts.startAt !== undefined ? { startAt: opts.startAt } : {}),
    ...(opts.realTime ? { realTime: opts.realTime } : {}),
  });
  const namespaces = clusterNamespaces(cluster.engine.state().nodes);
  const api = new ResourceApi(cluster, namespaces, clusterServices(cluster.engine.state().nodes), rootCAConfigMaps(cluster.engine.state().nodes));

  /** What GET /podlife/time answers (and RunningServer.time). */
  const time = (): TimeReport => timeReport(cluster, clock, api.openWatches);

  /** Bring the cluster up to the clock (the clock never runs behind the cluster). */
  const catchUp = (): void => {
    const target = clock.target();
    if (target > cluster.now) cluster.advanceTo(target);
  };

  let address = HOST;
  const route = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const query = url.searchParams;
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    catchUp();
    if (path.startsWith('/podlife/')) return handleControl(req, res, path, query, cluster, clock, time);
    const rp = parseResourcePath(path);
    if (rp) return api.handle(rp, { req, res, query, body });
    // a namespace's resource quotas and limit ranges, which `kubectl describe namespace` lists: a fresh cluster has none
    const policy = /^\/api\/v1\/namespaces\/([^/]+)\/(resourcequotas|limitranges)$/.exec(path);
    if (policy) {
      if (method !== 'GET') throw methodNotAllowed();
      const ns = decodeURIComponent(policy[1]);
      if (!namespaces.some((n) => n.metadata.name === ns)) throw objectNotFound('namespaces', ns);
      const kind = policy[2] === 'resourcequotas' ? 'ResourceQuotaList' : 'LimitRangeList';
      return sendJson(res, 200, { kind, apiVersion: 'v1', metadata: { resourceVersion: cluster.feed.resourceVersion }, items: [] });
    }
    // the kubelet's node lease, which `kubectl describe node` reads (GET only; the group is not in discovery)
    const lease = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-node-lease\/leases\/([^/]+)$/.exec(path);
    if (lease) {
      if (method !== 'GET') throw methodNotAllowed();
      const name = decodeURIComponent(lease[1]);
      const node = cluster.engine.state().nodes.find((n) => n.metadata.name === name);
      if (!node) throw objectNotFound('leases', name, 'coordination.k8s.io');
      return sendJson(res, 200, nodeLease(node, cluster.epoch + cluster.now));
    }
    if (method !== 'GET') throw path === '/api' || path === '/apis' || path === '/version' ? methodNotAllowed() : pathNotFound();
    switch (path) {
      case '/version':
        return sendJson(res, 200, versionInfo());
      case '/api':
        return wantsAggregated(req.headers.accept)
          ? sendJson(res, 200, aggregatedCore(), AGGREGATED_V2)
          : sendJson(res, 200, apiVersions(address));
      case '/apis':
        return wantsAggregated(req.headers.accept) ? sendJson(res, 200, aggregatedGroups(), AGGREGATED_V2) : sendJson(res, 200, apiGroupList());
      case '/api/v1':
        return sendJson(res, 200, apiResourceList());
      case '/openapi/v3':
        return sendJson(res, 200, openApiV3Index());
      case '/openapi/v3/api/v1':
        return sendJson(res, 200, openApiV3CoreV1());
      default:
        if (!HEALTH_PATHS.includes(path)) throw pathNotFound();
        // ?verbose lists each check, ?exclude=<check> leaves one out: the checks are not modelled (client-go's ?timeout is fine)
        if (query.has('verbose') || query.has('exclude')) throw notModelled(`${path}?${query}: the list of health checks`, `${path} answers "ok"`);
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        return void res.end('ok');
    }
  };

  const server = http.createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError) return sendJson(res, e.status.code, e.status);
      if (e instanceof RangeError) return sendJson(res, 400, badRequest(e.message).status);
      log(`error: ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
      sendJson(res, 500, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'InternalError', code: 500,
        message: `podlife: internal error serving ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}: ${(e as Error).message}`,
      });
    });
  });

  // kubectl exec's WebSocket (and the SPDY request it falls back to)
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex) => {
    try {
      serveExecUpgrade(req, socket, cluster, catchUp);
    } catch (e) {
      log(`error: ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
      socket.destroy();
    }
  });

  let ticker: NodeJS.Timeout | undefined;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8001, HOST, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      address = `${HOST}:${port}`;
      ticker = setInterval(() => {
        try {
          catchUp();
        } catch (e) {
          log(`error: advancing the cluster: ${(e as Error).stack ?? String(e)}`);
        }
      }, opts.tickMs ?? 100);
      resolve({
        url: `http://${address}`,
        port,
        cluster,
        clock,
        time,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(ticker);
            api.closeWatches();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
