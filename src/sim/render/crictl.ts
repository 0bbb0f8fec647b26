// crictl's views of one node's container runtime: `crictl images` (text/tabwriter with minwidth 20) and
// `inspect`/`inspectp` (containerd's verbose status: {"info": ..., "status": ...}, keys sorted because crictl
// round-trips them through Go maps, 2-space indent; an array of them for several IDs; -o yaml), the `pods` table,
// and the verbose listings `pods -v` and `ps -v`; the `ps` table is in crictl-list.ts (re-exported here), so the
// player's first load, which prints only `crictl ps`, leaves this module to the console.
// upstream: cri-tools cmd/crictl/image.go, container.go marshalContainerStatus, util.go outputStatusData (v1.36.0)

import type { CriContainer, CriImage, CriSandbox, NodeRuntime } from '../types.ts';
import { rfc3339NanoLocal, stampNanos } from './localtime.ts';
import { goJson, sortedCopy } from './json.ts';
import { toYaml } from './yaml.ts';
import { CRICTL_TABLE, tabulate } from './tabwriter.ts';
import { SANDBOX_IMAGE } from '../runtime/catalog.ts';
import { CONTAINER_STATE, type CrictlClock, type ListFilter, created, labelled, matches, newestOf, podNamespace, truncatedId } from './crictl-list.ts';
import { goTimeString } from './journal.ts';
import { sandboxAnnotations } from './crictl-proto.ts';

export * from './crictl-list.ts';

export interface PodsFilter extends ListFilter {
  state?: 'ready' | 'notready';
}

export function listSandboxes(rt: NodeRuntime, f: PodsFilter): CriSandbox[] {
  const list = rt.sandboxes.filter(
    (s) =>
      (!f.id || s.id.startsWith(f.id)) &&
      (!f.state || (f.state === 'ready') === (s.state === 'SANDBOX_READY')) &&
      labelled(f.labels, s.labels) &&
      matches(f.name, s.name) &&
      matches(f.namespace, s.namespace),
  );
  return newestOf(list, f);
}

/** `crictl pods` */
export function crictlPods(rt: NodeRuntime, f: PodsFilter, clock: CrictlClock): string {
  const list = listSandboxes(rt, f);
  if (f.quiet) return list.map((s) => `${s.id}\n`).join('');
  const rows = [['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']];
  for (const s of list) {
    rows.push([
      f.noTrunc ? s.id : truncatedId(s.id),
      created(clock, s.createdAt),
      s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady',
      s.name,
      s.namespace,
      String(s.attempt),
      s.runtimeHandler || '(default)',
    ]);
  }
  return tabulate(rows, CRICTL_TABLE);
}

/** go-units HumanSizeWithPrecision(size, 3): decimal units, 3 significant digits. */
export function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  let size = bytes;
  let i = 0;
  while (size >= 1000 && i < units.length - 1) {
    size /= 1000;
    i++;
  }
  return `${Number(size.toPrecision(3))}${units[i]}`;
}

/**
 * crictl's image order (imageByRef): by first tag when both have one, else by first digest, else by ID. Mixed
 * tagged and untagged images can make this no total order; Go's sort and this one agree wherever it is one.
 */
function imageLess(a: CriImage, b: CriImage): boolean {
  if (a.repoTags.length > 0 && b.repoTags.length > 0) return a.repoTags[0] < b.repoTags[0];
  if (a.repoDigests.length > 0 && b.repoDigests.length > 0) return a.repoDigests[0] < b.repoDigests[0];
  return a.id < b.id;
}

/**
 * `crictl images` (also `-q`, `--no-trunc`, `--digests`, `--pinned`): the images in crictl's order, a row per tag (an
 * untagged image shows its digest's repository with the tag <none>). containerd pins its sandbox image.
 */
// upstream: cri-tools cmd/crictl/image.go listImageCommand, normalizeRepoDigest, normalizeRepoTagPair (v1.36.0)
export function crictlImages(rt: NodeRuntime, opts: { quiet?: boolean; noTrunc?: boolean; digests?: boolean; pinned?: boolean } = {}): string {
  const sorted = [...rt.images].sort((a, b) => (imageLess(a, b) ? -1 : imageLess(b, a) ? 1 : 0));
  if (opts.quiet) return sorted.map((i) => `${i.id}\n`).join('');
  const rows = [['IMAGE', 'TAG', ...(opts.digests ? ['DIGEST'] : []), 'IMAGE ID', 'SIZE', ...(opts.pinned ? ['PINNED'] : [])]];
  for (const img of sorted) {
    const at = img.repoDigests[0]?.split('@');
    const [name, digest] = !at ? ['<none>', '<none>'] : at.length !== 2 ? ['errorName', 'errorRepoDigest'] : at;
    const id = opts.noTrunc ? img.id : truncatedId(img.id, 'sha256:');
    const pairs = img.repoTags.length === 0 ? [[name, '<none>']] : img.repoTags.map((ref) => {
      const colon = ref.lastIndexOf(':');
      if (colon < 0) return ['errorRepoTag', 'errorRepoTag'];
      const repo = ref.slice(0, colon);
      return [repo === '<none>' ? name : repo, ref.slice(colon + 1)];
    });
    for (const [repo, tag] of pairs) {
      rows.push([
        repo, tag, ...(opts.digests ? [opts.noTrunc ? digest : truncatedId(digest, 'sha256:')] : []), id, humanSize(img.size),
        ...(opts.pinned ? [String(img.id === SANDBOX_IMAGE.id)] : []),
      ]);
    }
  }
  return tabulate(rows, CRICTL_TABLE);
}

/**
 * A proto map as crictl's verbose listing prints it: "Labels:" and one tab-indented `key -> value` per entry, keys
 * sorted (util.go getSortedKeys). An empty map arrives over gRPC as nil, and nil prints nothing.
 */
function verboseMap(title: string, m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length ? `${title}:\n${keys.map((k) => `\t${k} -> ${m![k]}\n`).join('')}` : '';
}

/**
 * `crictl pods -v`: one block per sandbox instead of the table, each ending with a blank line. Created is Go's
 * time.Time printed with %v (time.Unix(0, createdAt) in the node's zone), the annotations those of -o json; the runtime handler's line is titled
 * with the table's column name in title case.
 */
// upstream: cri-tools cmd/crictl/sandbox.go OutputPodSandboxes (v1.36.0)
export function crictlPodsVerbose(list: CriSandbox[], clock: CrictlClock): string {
  let out = '';
  for (const s of list) {
    out += `ID: ${s.id}\n`;
    if (s.name) out += `Name: ${s.name}\n`;
    if (s.podUid) out += `UID: ${s.podUid}\n`;
    if (s.namespace) out += `Namespace: ${s.namespace}\n`;
    if (s.attempt !== 0) out += `Attempt: ${s.attempt}\n`;
    out += `Status: ${s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady'}\n`;
    out += `Created: ${goTimeString(clock.epoch + s.createdAt, clock.utcOffsetMinutes, stampNanos(`${s.id}/created`))}\n`;
    out += verboseMap('Labels', s.labels) + verboseMap('Annotations', sandboxAnnotations(s, clock));
    out += `Runtime: ${s.runtimeHandler || '(default)'}\n\n`;
  }
  return out;
}

/**
 * `crictl ps -v`: one block per container instead of the table, each ending with a blank line. The image is the
 * container's ImageSpec as the kubelet sent it (the image ID), Created the table's "… ago".
 */
// upstream: cri-tools cmd/crictl/container.go OutputContainers (v1.36.0)
export function crictlPsVerbose(list: CriContainer[], clock: CrictlClock): string {
  let out = '';
  for (const c of list) {
    out += `ID: ${c.id}\nPodID: ${c.sandboxId}\nNamespace: ${podNamespace(c)}\n`;
    if (c.name) out += `Name: ${c.name}\n`;
    out += `Attempt: ${c.attempt}\nState: ${CONTAINER_STATE[c.state]}\nImage: ${c.imageId}\nCreated: ${created(clock, c.createdAt)}\n`;
    out += `${verboseMap('Labels', c.labels)}${verboseMap('Annotations', c.annotations)}\n`;
  }
  return out;
}

/** Find a container or sandbox by ID or unique ID prefix (containerd's truncindex). */
export function findById<T extends { id: string }>(items: T[], id: string): T | undefined {
  const exact = items.find((x) => x.id === id);
  if (exact) return exact;
  const prefixed = items.filter((x) => x.id.startsWith(id));
  return id.length > 0 && prefixed.length === 1 ? prefixed[0] : undefined;
}

const ZERO = '0001-01-01T00:00:00Z';

function imageOf(rt: NodeRuntime, c: CriContainer): CriImage | undefined {
  return rt.images.find((i) => i.id === c.imageId);
}

/** `crictl inspect <id>`: containerd's verbose ContainerStatus, as {info, status}. */
export function crictlInspect(rt: NodeRuntime, c: CriContainer, clock: CrictlClock): { info: object; status: object } {
  const sandbox = rt.sandboxes.find((s) => s.id === c.sandboxId);
  // the Unix epoch itself (the start time of a container that never started) has no nanoseconds
  const local = (t: number, stamp: string) => rfc3339NanoLocal(clock.epoch + t, clock.utcOffsetMinutes, clock.epoch + t === 0 ? 0 : stampNanos(`${c.id}/${stamp}`));
  const image = imageOf(rt, c);
  const status = {
    annotations: c.annotations,
    createdAt: local(c.createdAt, 'created'),
    exitCode: c.exitCode ?? 0,
    finishedAt: c.state === 'CONTAINER_EXITED' && c.finishedAt !== undefined ? local(c.finishedAt, 'finished') : ZERO,
    id: c.id,
    image: { annotations: {}, image: c.image, runtimeHandler: '', userSpecified: c.image },
    imageId: '',
    imageRef: image?.repoDigests[0] ?? c.imageId,
    labels: c.labels,
    logPath: c.logPath,
    message: c.message ?? '',
    metadata: { attempt: c.attempt, name: c.name },
    mounts: [],
    reason: c.reason ?? '',
    // what UpdateContainerResources last set (containerd reports more fields: swap, cpuset, oom_score_adj, unified)
    resources: c.resources ? { linux: c.resources } : null,
    startedAt: c.state !== 'CONTAINER_CREATED' && c.startedAt !== undefined ? local(c.startedAt, 'started') : ZERO,
    state: c.state,
    stopSignal: 'SIGTERM',
    user: { linux: { gid: '0', supplementalGroups: ['0', '1', '2', '3', '4', '6', '10', '11', '20', '26', '27'], uid: '0' } },
  };
  const info = {
    config: {
      annotations: c.annotations,
      image: { image: c.imageId, user_specified_image: c.image },
      labels: c.labels,
      log_path: `${c.name}/${c.attempt}.log`,
      metadata: { attempt: c.attempt, name: c.name },
    },
    pid: c.state === 'CONTAINER_RUNNING' ? (c.pid ?? 0) : 0,
    removing: false,
    runtimeOptions: { systemd_cgroup: true },
    runtimeSpec: {
      annotations: {
        'io.kubernetes.cri.container-name': c.name,
        'io.kubernetes.cri.container-type': 'container',
        'io.kubernetes.cri.image-name': c.image,
        'io.kubernetes.cri.sandbox-id': c.sandboxId,
        'io.kubernetes.cri.sandbox-name': sandbox?.name ?? c.podName,
        'io.kubernetes.cri.sandbox-namespace': sandbox?.namespace ?? c.podNamespace,
        'io.kubernetes.cri.sandbox-uid': c.podUid,
      },
      linux: {
        cgroupsPath: `kubepods-besteffort-pod${c.podUid.replaceAll('-', '_')}.slice:cri-containerd:${c.id}`,
        maskedPaths: [
          '/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
          '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap',
        ],
        namespaces: c.namespaces.map((n) => (n.path ? { type: n.type, path: n.path } : { type: n.type })),
        readonlyPaths: ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'],
      },
      ociVersion: '1.2.1',
      process: { cwd: '/', oomScoreAdj: 1000, user: { gid: 0, uid: 0 } },
      root: { path: 'rootfs' },
    },
    runtimeType: 'io.containerd.runc.v2',
    sandboxID: c.sandboxId,
    snapshotKey: c.id,
    snapshotter: 'overlayfs',
  };
  return { info, status };
}

/** `crictl inspectp <id>`: containerd's verbose PodSandboxStatus, as {info, status}. */
export function crictlInspectp(s: CriSandbox, clock: CrictlClock): { info: object; status: object } {
  const status = {
    annotations: sandboxAnnotations(s, clock),
    createdAt: rfc3339NanoLocal(clock.epoch + s.createdAt, clock.utcOffsetMinutes, stampNanos(`${s.id}/created`)),
    id: s.id,
    labels: s.labels,
    linux: {
      namespaces: { options: { ipc: 'POD', network: 'POD', pid: 'CONTAINER', targetId: '', usernsOptions: null } },
    },
    metadata: { attempt: s.attempt, name: s.name, namespace: s.namespace, uid: s.podUid },
    network: { additionalIps: [], ip: s.ip },
    runtimeHandler: s.runtimeHandler,
    state: s.state,
  };
  const info = {
    image: SANDBOX_IMAGE.ref,
    pid: s.state === 'SANDBOX_READY' ? s.pausePid : 0,
    processStatus: s.state === 'SANDBOX_READY' ? 'running' : 'stopped',
    runtimeHandler: s.runtimeHandler,
    runtimeType: 'io.containerd.runc.v2',
    sandboxID: s.id,
    snapshotter: 'overlayfs',
  };
  return { info, status };
}

/**
 * What `crictl inspect`/`inspectp` print for the statuses of all the IDs asked (crictl's outputStatusData): one
 * object, or an array of them for several IDs; `-q` asks for a status without the verbose info. The JSON is
 * json.Marshal of Go maps (keys sorted) through json.Indent; YAML is that JSON through JSONToYAML.
 */
export function crictlStatusOutput(statuses: { info: object; status: object }[], output: 'json' | 'yaml', quiet: boolean): string {
  const shown = statuses.map((x) => (quiet ? { status: x.status } : x));
  const value = sortedCopy(shown.length === 1 ? shown[0] : shown);
  return output === 'json' ? `${goJson(value, '  ')}\n` : `${toYaml(value)}\n`;
}
