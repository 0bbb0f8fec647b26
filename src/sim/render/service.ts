// The Service rows of `kubectl get svc`: the server-side table printer's columns and cells. Kept out of
// render/table.ts, which the player's first load carries: only the console and `podlife serve` print services.

import type { Service } from '../api/services.ts';
import { translateTimestampSince } from './table.ts';
import { formatLabels } from './describe.ts';

export const SERVICE_COLUMNS = ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age'];
export const SERVICE_WIDE_COLUMNS = [...SERVICE_COLUMNS, 'Selector'];

/**
 * A Service's row: the first cluster IP, the external IPs (none for a ClusterIP service: the model has no
 * LoadBalancer or externalIPs), `port/protocol` joined by commas (no node ports: none is a NodePort service), and
 * with -o wide the selector.
 */
// upstream: pkg/printers/internalversion/printers.go printService, makePortString, getServiceExternalIP
export function printService(svc: Service, now: number, wide: boolean): string[] {
  const ports = svc.spec.ports.map((p) => `${p.port}/${p.protocol}`).join(',');
  const row = [svc.metadata.name, svc.spec.type, svc.spec.clusterIPs[0] ?? '<none>', '<none>', ports || '<none>', translateTimestampSince(svc.metadata.creationTimestamp, now)];
  if (wide) row.push(formatLabels(svc.spec.selector));
  return row;
}
