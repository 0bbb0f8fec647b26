// Content negotiation and writing responses. kubectl asks for server-side tables when it prints
// (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io, ...;v=v1beta1..., application/json`) and for
// plain JSON objects otherwise (-o yaml/json/jsonpath, describe, the wait in delete). The describer also
// offers protobuf first; the server answers the first form it can produce, JSON.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation (NegotiateOutputMediaType);
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go (transformResponseObject, asTable)

import type { ServerResponse } from 'node:http';
import { notAcceptable } from './status.ts';

export type Output = { kind: 'json' } | { kind: 'table'; version: 'v1' | 'v1beta1' };

const JSON_TYPE = 'application/json';

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(accept: string | undefined): MediaRange[] {
  if (!accept || accept.trim() === '') return [{ type: '*/*', params: {} }];
  return accept.split(',').map((part) => {
    const [type, ...rest] = part.split(';').map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
    }
    return { type: type.toLowerCase(), params };
  });
}

/** The first form in the Accept header this server can produce; 406 when there is none. */
export function negotiate(accept: string | undefined, allowTable: boolean): Output {
  for (const r of parseAccept(accept)) {
    const jsonish = r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*';
    if (!jsonish) continue;
    if (r.params.as === undefined) return { kind: 'json' };
    if (allowTable && r.params.as === 'Table' && r.params.g === 'meta.k8s.io' && (r.params.v === 'v1' || r.params.v === 'v1beta1')) {
      return { kind: 'table', version: r.params.v };
    }
  }
  throw notAcceptable([JSON_TYPE, 'application/json;as=Table;v=v1;g=meta.k8s.io']);
}

export function contentTypeOf(out: Output): string {
  return out.kind === 'table' ? `application/json;as=Table;v=${out.version};g=meta.k8s.io` : JSON_TYPE;
}

export function sendJson(res: ServerResponse, code: number, body: unknown, contentType = JSON_TYPE): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
  res.end(text);
}
