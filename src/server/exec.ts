// The exec stream of pods/{name}/exec, as kubectl (1.30 and later) opens it: a WebSocket with the Kubernetes channel
// protocol (v5.channel.k8s.io, or v4), one binary message per write, its first byte the stream (1 stdout, 2 stderr,
// 3 the final metav1.Status). The command runs in the simulated container when the request arrives, and the whole
// answer is sent once the client has made its streams. An error before the stream (no such pod, no node yet) is the
// API server's HTTP Status, on the WebSocket request and on the SPDY one kubectl falls back to; SPDY itself is not
// spoken.
// upstream: staging/src/k8s.io/apimachinery/pkg/util/remotecommand/constants.go; client-go tools/remotecommand
// (websocket.go, errorDecoderV4); staging/src/k8s.io/apiserver/pkg/util/proxy/streamtranslator.go; RFC 6455

import { createHash } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ExecOutput } from '../sim/types.ts';
import type { LiveCluster } from './cluster.ts';
import { type HttpError, type WireStatus, badRequest, notModelled, toWire } from './status.ts';

const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The pod an exec request names: /api/v1/namespaces/NS/pods/NAME/exec. */
export function execTarget(path: string): { namespace: string; name: string } | undefined {
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(path);
  return m ? { namespace: decodeURIComponent(m[1]), name: decodeURIComponent(m[2]) } : undefined;
}

/** An HTTP response written on the raw socket of an upgrade request that is refused. */
function refuse(socket: Duplex, status: WireStatus): void {
  const body = JSON.stringify(status);
  socket.end(
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** One unmasked binary frame (a server's frames are never masked), or a close frame. */
function frame(payload: Buffer, opcode = 0x2): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65_536 ? Buffer.from([0x80 | opcode, 126, n >> 8, n & 255]) : Buffer.alloc(10);
  if (n >= 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}
const channel = (id: number, data: string | Buffer): Buffer => frame(Buffer.concat([Buffer.from([id]), Buffer.from(data)]));

/** The final Status of an exec, as the API server's stream translator writes it on channel 3. */
function finalStatus(x: ExecOutput): object {
  if (x.error !== undefined || x.refused !== undefined) {
    return { metadata: {}, status: 'Failure', message: x.error ?? x.refused, reason: 'InternalError', details: { causes: [{ message: x.error ?? x.refused }] }, code: 500 };
  }
  if (x.exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: error executing command [exit ${x.exitCode}]`,
    reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(x.exitCode) }] },
  };
}

/**
 * Serve an upgrade request: a WebSocket exec runs the command and answers on the stream; anything else (SPDY, another
 * path) is refused with a Status. `catchUp` brings the cluster to the clock first.
 */
export function serveExecUpgrade(req: IncomingMessage, socket: Duplex, cluster: LiveCluster, catchUp: () => void): void {
  socket.on('error', () => socket.destroy());
  const url = new URL(req.url ?? '/', 'http://localhost');
  const target = execTarget(url.pathname.replace(/\/+$/, ''));
  const websocket = (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
  const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const protocol = PROTOCOLS.find((p) => offered.includes(p));
  const fail = (e: HttpError): void => refuse(socket, e.status);
  if (!target) return fail(notModelled(`an upgrade of ${url.pathname}`, 'only pods/{name}/exec is streamed'));
  const command = url.searchParams.getAll('command');
  const container = url.searchParams.get('container') ?? '';
  if (command.length === 0) return fail(badRequest('you must specify at least 1 command'));
  catchUp();
  const pod = cluster.engine.state().pods.find((p) => p.metadata.namespace === target.namespace && p.metadata.name === target.name);
  // the API server's own defaulting: a pod with one container needs no name (kubectl always sends one)
  const name = container || (pod && pod.spec.containers.length === 1 ? pod.spec.containers[0].name : '');
  if (pod && !name) {
    return fail(badRequest(`a container name must be specified for pod ${target.name}, choose one of: [${pod.spec.containers.map((c) => c.name).join(' ')}]`));
  }
  // a stream this server cannot open gets the API server's answer first (kubectl falls back to SPDY after a
  // WebSocket request the API server refused, and prints what the second one says), and runs nothing
  const stream = websocket && protocol !== undefined;
  const r = cluster.apply({ type: 'exec', namespace: target.namespace, name: target.name, container: name, command, ...(stream ? {} : { checkOnly: true }) });
  if (!r.ok) return refuse(socket, toWire(r.status));
  if (!stream) return fail(notModelled('the SPDY exec stream', `podlife serve streams exec over a WebSocket (${PROTOCOLS.join(', ')})`));
  const accept = createHash('sha1').update(`${req.headers['sec-websocket-key'] ?? ''}${WS_GUID}`).digest('base64');
  const x = r.exec!;
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`,
  );
  // client-go starts reading the connection before it has made its streams, and drops a message for a stream it has
  // not made yet ("Unknown stream id 3, discarding message"). A real command's output comes later than the stream
  // setup; this one's is ready at once, so it waits: for the client's first message where it sends stdin (its data or
  // its close signal, sent after the streams exist), else a moment
  let sent = false;
  const send = (): void => {
    if (sent || socket.destroyed) return;
    sent = true;
    if (x.stdout) socket.write(channel(1, x.stdout));
    if (x.stderr) socket.write(channel(2, x.stderr));
    socket.write(channel(3, JSON.stringify(finalStatus(x))));
    // a normal closure (1000); whatever the client sends from here on is not read
    socket.end(frame(Buffer.from([0x03, 0xe8]), 0x8));
  };
  if (url.searchParams.get('stdin') === 'true') socket.once('data', send);
  setTimeout(send, url.searchParams.get('stdin') === 'true' ? 1000 : 25);
  socket.resume();
}
