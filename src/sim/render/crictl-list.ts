// crictl's list view of one node's containers, `crictl ps` (a table through text/tabwriter with minwidth 20 and
// "2 minutes ago" from go-units), and what the other tables share. The player's containers panel prints
// `crictl ps` on its first load; `pods`, `images`, `inspect` and `inspectp` (render/crictl.ts) come with the console.
// upstream: cri-tools cmd/crictl/sandbox.go OutputPodSandboxes, container.go OutputContainers, util.go
// getTruncatedID (v1.36.0)

import type { CriContainer, NodeRuntime } from '../types.ts';
import { unitsHumanDuration } from './duration.ts';
import { CRICTL_TABLE, tabulate } from './tabwriter.ts';

const TRUNCATED_ID_LEN = 13;

export function truncatedId(id: string, prefix = ''): string {
  const s = id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return s.length > TRUNCATED_ID_LEN ? s.slice(0, TRUNCATED_ID_LEN) : s;
}

export interface CrictlClock {
  /** Wall-clock ms of virtual time 0. */
  epoch: number;
  /** Wall-clock ms of now. */
  now: number;
  utcOffsetMinutes: number;
}

/** The table's CREATED: go-units' HumanDuration of the age, and " ago". */
export const created = (clock: CrictlClock, t: number) => `${unitsHumanDuration(clock.now - (clock.epoch + t))} ago`;
const newestFirst = <T extends { createdAt: number }>(a: T, b: T) => b.createdAt - a.createdAt;
export const matches = (pattern: string | undefined, s: string) => !pattern || new RegExp(pattern).test(s);
// the runtime's label selector: every key=value given (containerd filterCRISandboxes / filterCRIContainers)
export const labelled = (want: Record<string, string> | undefined, labels: Record<string, string>) =>
  !want || Object.keys(want).every((k) => labels[k] === want[k]);

/** The flags `crictl pods` and `crictl ps` share. */
export interface ListFilter {
  name?: string;
  namespace?: string;
  id?: string;
  labels?: Record<string, string>;
  latest?: boolean;
  last?: number;
  quiet?: boolean;
  noTrunc?: boolean;
}

/** The list newest first, cut to --last N or --latest. */
export function newestOf<T extends { createdAt: number }>(list: T[], f: ListFilter): T[] {
  const sorted = [...list].sort(newestFirst);
  const n = f.last && f.last > 0 ? f.last : f.latest ? 1 : sorted.length;
  return sorted.slice(0, n);
}

export interface PsFilter extends ListFilter {
  all?: boolean;
  podId?: string;
  state?: 'created' | 'running' | 'exited' | 'unknown';
  image?: string;
}

const STATE_NAMES: Record<string, CriContainer['state']> = {
  created: 'CONTAINER_CREATED',
  running: 'CONTAINER_RUNNING',
  exited: 'CONTAINER_EXITED',
  unknown: 'CONTAINER_UNKNOWN',
};

export function listContainers(rt: NodeRuntime, f: PsFilter): CriContainer[] {
  let state: CriContainer['state'] | undefined = f.state ? STATE_NAMES[f.state] : f.all ? undefined : 'CONTAINER_RUNNING';
  if (f.latest || (f.last ?? 0) > 0) state = undefined;
  const list = rt.containers.filter(
    (c) =>
      (!f.id || c.id.startsWith(f.id)) &&
      (!f.podId || c.sandboxId.startsWith(f.podId)) &&
      (!state || c.state === state) &&
      labelled(f.labels, c.labels) &&
      (!f.image || c.image === f.image || c.imageId === f.image) &&
      matches(f.name, c.name) &&
      matches(f.namespace, podNamespace(c)),
  );
  return newestOf(list, f);
}

const podName = (c: CriContainer) => c.labels['io.kubernetes.pod.name'] ?? c.podName ?? 'unknown';
export const podNamespace = (c: CriContainer) => c.labels['io.kubernetes.pod.namespace'] ?? c.podNamespace ?? 'unknown';

export const CONTAINER_STATE: Record<CriContainer['state'], string> = {
  CONTAINER_CREATED: 'Created',
  CONTAINER_RUNNING: 'Running',
  CONTAINER_EXITED: 'Exited',
  CONTAINER_UNKNOWN: 'Unknown',
};

/** `crictl ps` */
export function crictlPs(rt: NodeRuntime, f: PsFilter, clock: CrictlClock): string {
  const list = listContainers(rt, f);
  if (f.quiet) return list.map((c) => `${c.id}\n`).join('');
  const rows = [['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE']];
  for (const c of list) {
    // The kubelet stores the image ID (sha256:...) as the container's image.
    const image = f.noTrunc ? c.imageId : truncatedId(c.imageId, 'sha256:');
    rows.push([
      f.noTrunc ? c.id : truncatedId(c.id),
      image,
      created(clock, c.createdAt),
      CONTAINER_STATE[c.state],
      c.name,
      String(c.attempt),
      f.noTrunc ? c.sandboxId : truncatedId(c.sandboxId),
      podName(c),
      podNamespace(c),
    ]);
  }
  return tabulate(rows, CRICTL_TABLE);
}
