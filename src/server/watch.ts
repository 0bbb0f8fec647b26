// Watches: `?watch=true` answers with a chunked stream of JSON lines {"type":"ADDED|MODIFIED|DELETED",
// "object":...} that goes on as virtual time passes. A watch from a resourceVersion (what `kubectl get -w`
// and `kubectl delete`'s wait send after their list) first replays the feed's newer changes; a watch
// without one starts with an ADDED event per current object. With selectors, an object that starts or
// stops matching is ADDED or DELETED for that watcher, as the API server's watch cache does.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go (serveWatch, the JSON framing);
// staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go (convertToWatchEvent: the
// matches-before / matches-now rule)

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Change, ChangeFeed, FeedKind, WatchType } from './feed.ts';

/** Anything a watch can carry: feed objects, and the fixed namespaces. */
export type Watched = { metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

export interface WatchEvent {
  type: WatchType;
  object: unknown;
  /** Virtual time (ms) of the change: a table row's ages are computed at it. */
  t: number;
}

export interface WatchRequest {
  feed: ChangeFeed;
  /** The feed's kind to follow; undefined for objects that never change (namespaces). */
  kind: FeedKind | undefined;
  /** Whether an object belongs to this watch (namespace, name, label and field selectors). */
  selects: (o: Watched) => boolean;
  /** `resourceVersion` query parameter; "" or "0" = start with the current objects. */
  resourceVersion: string;
  /** The current objects (for a watch that starts with them), and the current virtual time. */
  current: () => Watched[];
  now: () => number;
  /** Closes the stream after this many real milliseconds (`timeoutSeconds`). */
  timeoutMs?: number;
  contentType: string;
  /** Turns an event into what goes on the wire (the object, or a one-row Table). */
  encode: (event: WatchEvent, first: boolean) => unknown;
}

/** cacher convertToWatchEvent: what a change means to a watcher with a filter. */
export function eventFor(change: Change, selects: (o: Watched) => boolean): WatchType | undefined {
  const now = change.type !== 'DELETED' && selects(change.object);
  const before = change.previous !== undefined && selects(change.previous);
  if (change.type === 'DELETED') return before ? 'DELETED' : undefined;
  if (now && before) return 'MODIFIED';
  if (now) return 'ADDED';
  if (before) return 'DELETED';
  return undefined;
}

/** Serve one watch until the client goes away, the timeout passes, or the server closes it. */
export function serveWatch(req: IncomingMessage, res: ServerResponse, w: WatchRequest): { close(): void } {
  res.writeHead(200, { 'Content-Type': w.contentType, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  let first = true;
  const send = (event: WatchEvent): void => {
    res.write(`${JSON.stringify({ type: event.type, object: w.encode(event, first) })}\n`);
    first = false;
  };
  const deliver = (changes: readonly Change[]): void => {
    for (const c of changes) {
      if (w.kind === undefined || c.kind !== w.kind) continue;
      const type = eventFor(c, w.selects);
      if (type) send({ type, object: c.object, t: c.t });
    }
  };

  if (w.resourceVersion === '' || w.resourceVersion === '0') {
    const t = w.now();
    for (const o of w.current()) if (w.selects(o)) send({ type: 'ADDED', object: o, t });
  } else {
    deliver(w.feed.since(Number(w.resourceVersion) || 0));
  }

  let closed = false;
  const unsubscribe = w.feed.subscribe(deliver);
  const close = (): void => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearTimeout(timer);
    res.end();
  };
  const timer = w.timeoutMs !== undefined ? setTimeout(close, w.timeoutMs) : undefined;
  req.on('close', close);
  res.on('close', close);
  return { close };
}
