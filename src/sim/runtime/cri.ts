// The container runtime of one node (containerd behind the CRI): sandboxes with a pause process and the
// namespaces containers join, containers with 64-hex IDs and CRI states, the image store and pulls, and the
// processes that run inside. Every change is recorded in the history (crictl reads it back at any time).
// upstream: k8s.io/cri-api/pkg/apis/runtime/v1/api.proto (RuntimeService, ImageService)

import { kept } from '../core/kept.ts';
import type { CriContainer, CriImage, CriLinuxResources, CriSandbox, NamespaceRef } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import { sleepFor, type EventLoop, type Proc } from '../core/loop.ts';
import { digestOf } from '../core/rng.ts';
import type { ImageRef } from '../api/imageref.ts';
import { parseImageRef } from '../api/imageref.ts';
import type { ImageBehaviour, NodeConfig } from '../config.ts';
import { Process, programFor, type Program, type ProcessHost, type ProgramContext, type Signal } from './process.ts';
import { parseShell } from './shell.ts';
import { SANDBOX_IMAGE, SERVICES, UNKNOWN_SERVICE, imageDefaults } from './catalog.ts';

export const RUNTIME_VERSION = 'containerd://2.1.4';


export interface SandboxConfig {
  podUid: string;
  name: string;
  namespace: string;
  attempt: number;
  hostNetwork: boolean;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  configSeen?: number;
}

export interface ContainerConfig {
  podUid: string;
  podName: string;
  podNamespace: string;
  name: string;
  attempt: number;
  image: string;
  imageRef: string;
  argv: string[];
  /** A shell script that replaces what argv would run (the sim.podlife.dev/process annotation). */
  script?: string;
  stdin: boolean;
  /** The running container whose pid namespace this one joins (an ephemeral container's targetContainerName). */
  target?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Set by the kubelet for the containers of a pod resized in place (others are created with the spec's). */
  resources?: CriLinuxResources;
  /** The container's memory limit as its spec writes it (the cgroup's memory.max, for the programs that use memory). */
  memory?: string;
}

export interface PullResult {
  imageRef?: string;
  size?: number;
  error?: string;
}

/** CIDR → the usable host addresses' integer range, skipping the network, the gateway (.1) and broadcast. */
function cidrRange(cidr: string): { first: number; last: number } {
  const [ip, bits] = cidr.split('/');
  const base = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  const net = base - (base % size);
  return { first: net + 2, last: net + size - 2 };
}

interface PodIndex {
  sandboxes: CriSandbox[];
  containers: CriContainer[];
}

function indexOfId(list: { id: string }[], id: string): number {
  for (let i = 0; i < list.length; i++) if (list[i].id === id) return i;
  return -1;
}

/** Replace the object with the same ID, or append a new one. */
function putById<T extends { id: string }>(list: T[], obj: T): void {
  const at = indexOfId(list, obj.id);
  if (at >= 0) list[at] = obj;
  else list.push(obj);
}

function newestFirst<T extends { createdAt: number; attempt: number }>(list: T[]): T[] {
  return list.length < 2 ? list : list.sort(byNewest);
}

function byNewest(a: { createdAt: number; attempt: number }, b: { createdAt: number; attempt: number }): number {
  return b.createdAt - a.createdAt || b.attempt - a.attempt;
}

function intToIp(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

// What a process may consult, by whether its stdin is open: the same two objects for every container.

// The namespaces a container does not share with its sandbox: read-only, so every container's list shares them.
const PID_NS: NamespaceRef = { type: 'pid' };
const MOUNT_NS: NamespaceRef = { type: 'mount' };
const CGROUP_NS: NamespaceRef = { type: 'cgroup' };

/**
 * What the runtime keeps of one container besides its CRI object (the config it was created with, its stop signal,
 * its process and files, who waits for its exit), in one record; it is also the host its process runs on.
 */
class ContainerRecord implements ProcessHost {
  readonly #rt: ContainerRuntime;
  readonly #ctx: SimContext;
  readonly loop: EventLoop;
  readonly id: string;
  readonly cfg: ContainerConfig;
  readonly stopSignal: Signal;
  proc: Process | undefined = undefined;
  #fs: Set<string> | undefined = undefined;
  exitWaiters: (() => void)[] | undefined = undefined;

  constructor(rt: ContainerRuntime, ctx: SimContext, id: string, cfg: ContainerConfig, stopSignal: Signal) {
    this.#rt = rt;
    this.#ctx = ctx;
    this.loop = ctx.loop;
    this.id = id;
    this.cfg = cfg;
    this.stopSignal = stopSignal;
  }

  /** The container's files, made on first use (most processes never touch one). */
  get fs(): Set<string> {
    return (this.#fs ??= new Set());
  }

  #data: Map<string, string> | undefined = undefined;
  /** What its commands wrote into those files, made on first use. */
  get data(): Map<string, string> {
    return (this.#data ??= new Map());
  }

  log(stream: 'stdout' | 'stderr', text: string): void {
    this.#ctx.containerLog(this.id, stream, text);
  }

  /** The pod's name: the hostname the kubelet gives its sandbox. */
  get hostname(): string {
    return this.cfg.podName;
  }

  /** The process's environment, for the shell's $VAR (made when a script first expands one). */
  get env(): Map<string, string> | undefined {
    return this.#rt.podEnv?.(this.cfg.podUid, this.cfg.name, this.id);
  }

  /** The contents of a file the kubelet or the runtime wrote for the pod (/etc/hosts, ...), when the model knows them. */
  read(path: string): string | undefined {
    return this.#rt.podFiles?.(this.cfg.podUid, this.cfg.name, this.id)?.get(path);
  }

  wallclock(t: number): Date {
    return new Date(this.#ctx.epoch + t);
  }

  exited(exitCode: number, signal?: number, reason?: string): void {
    this.#rt.containerExited(this.id, exitCode, signal, reason);
  }
}

export class ContainerRuntime {
  readonly node: NodeConfig;
  readonly #ctx: SimContext;
  readonly #images: Record<string, ImageBehaviour>;
  readonly #cSand: number;
  readonly #cCont: number;
  readonly #cImg: number;
  /** Sandboxes and containers by ID: the history's live collections of this node, which every change goes through. */
  readonly sandboxes: Map<string, CriSandbox>;
  readonly containers: Map<string, CriContainer>;
  readonly images = new Map<string, CriImage>();
  /** Per container: config, stop signal, process, files and exit waiters (removed with the container). */
  readonly #records = new Map<string, ContainerRecord>();
  readonly #ipRange: { first: number; last: number };
  #lastIp: number;
  readonly #usedIps = new Set<number>();
  #nextPid: number;
  readonly kubeletPid: number;
  /** Called whenever a pod's sandboxes or containers change (the PLEG's view). */
  onPodChange: (podUid: string) => void = () => {};
  /**
   * The files the kubelet and the runtime write for a pod's container, and its volumes', by path, as the container
   * `id` has them (set by the node's kubelet).
   */
  podFiles: ((podUid: string, container: string, id?: string) => Map<string, string> | undefined) | undefined = undefined;
  /** A container's process environment, the one it was made with when `id` names it (set by the node's kubelet). */
  podEnv: ((podUid: string, container: string, id?: string) => Map<string, string> | undefined) | undefined = undefined;

  /** What a container's command may run: the known servers, and the redirections where the engine has them. */
  readonly programs: ProgramContext;
  readonly #programsStdin: ProgramContext;

  constructor(ctx: SimContext, node: NodeConfig, images: Record<string, ImageBehaviour>) {
    this.#ctx = ctx;
    this.programs = { services: SERVICES, unknownService: UNKNOWN_SERVICE, stdin: false, redirect: ctx.redirect, envBuiltin: ctx.envBuiltin, arith: ctx.arith };
    this.#programsStdin = { ...this.programs, stdin: true };
    this.node = node;
    this.#images = images;
    this.#cSand = ctx.history.collection(`sandboxes/${node.name}`);
    this.#cCont = ctx.history.collection(`containers/${node.name}`);
    this.#cImg = ctx.history.collection(`images/${node.name}`);
    this.sandboxes = ctx.history.live[this.#cSand] as Map<string, CriSandbox>;
    this.containers = ctx.history.live[this.#cCont] as Map<string, CriContainer>;
    this.#ipRange = cidrRange(node.podCIDR);
    this.#lastIp = this.#ipRange.first - 1;
    this.#nextPid = ctx.rng.int(2_400_000, 2_600_000);
    this.kubeletPid = ctx.rng.int(2_900_000, 3_000_000);
    for (const ref of node.images ?? []) this.#addImage(parseImageRef(ref));
  }

  #pid(): number {
    this.#nextPid += this.#ctx.rng.int(3, 60);
    return this.#nextPid;
  }

  behaviour(ref: ImageRef): ImageBehaviour {
    return this.#images[ref.normalized] ?? {};
  }

  #addImage(ref: ImageRef): CriImage {
    const existing = this.images.get(ref.normalized);
    if (existing) return existing;
    const b = this.behaviour(ref);
    const pause = ref.normalized === SANDBOX_IMAGE.ref;
    const img: CriImage = {
      id: pause ? SANDBOX_IMAGE.id : `sha256:${digestOf(`image-id:${ref.normalized}`)}`,
      repoTags: ref.tag || !ref.digest ? [ref.normalized] : [],
      repoDigests: [pause ? SANDBOX_IMAGE.repoDigest : `${ref.repository}@sha256:${digestOf(`image-digest:${ref.normalized}`)}`],
      size: b.size ?? (pause ? SANDBOX_IMAGE.size : 20_000_000 + (parseInt(digestOf(ref.normalized).slice(0, 6), 16) % 60_000_000)),
    };
    this.images.set(ref.normalized, img);
    this.#ctx.history.put(this.#ctx.now, this.#cImg, img.id, img);
    return img;
  }

  /** ImageStatus: the image if present (by normalised reference). */
  imageStatus(ref: ImageRef): CriImage | undefined {
    return this.images.get(ref.normalized);
  }

  /** The image's pull time (its behaviour's, else `defaultPull`). */
  pullTime(ref: ImageRef, defaultPull: number): number {
    return this.behaviour(ref).pull ?? defaultPull;
  }

  /** PullImage: takes `took` (pullTime); fails with the image's configured registry error. */
  *pullImage(ref: ImageRef, took: number): Proc<PullResult> {
    const b = this.behaviour(ref);
    yield sleepFor(took);
    if (b.error !== undefined) {
      const e = b.error;
      if (e.startsWith('rpc error:')) return { error: e };
      if (e === 'not found') {
        return {
          error: `rpc error: code = NotFound desc = failed to pull and unpack image "${ref.normalized}": failed to resolve reference "${ref.normalized}": ${ref.normalized}: not found`,
        };
      }
      return { error: `rpc error: code = Unknown desc = failed to pull and unpack image "${ref.normalized}": ${e}` };
    }
    const img = this.#addImage(ref);
    return { imageRef: img.id, size: img.size };
  }

  /**
   * RunPodSandbox: the pause process, its namespaces, and a pod IP from the node's CIDR (host-local IPAM). The call
   * takes timings.sandboxCreate: the caller sleeps that long, then calls (a plain call, no goroutine per CRI call).
   */
  runPodSandbox(cfg: SandboxConfig): CriSandbox {
    // the CRI plugin ensures its sandbox image first (a pull the first time, within sandboxCreate)
    this.#addImage(parseImageRef(SANDBOX_IMAGE.ref));
    const sb: CriSandbox = {
      id: this.#ctx.rng.hex(64),
      podUid: cfg.podUid,
      name: cfg.name,
      namespace: cfg.namespace,
      attempt: cfg.attempt,
      state: 'SANDBOX_READY',
      createdAt: this.#ctx.now,
      ip: cfg.hostNetwork ? this.node.ip : this.#allocateIp(),
      pausePid: this.#pid(),
      runtimeHandler: '',
      labels: cfg.labels,
      annotations: cfg.annotations,
      configSeen: cfg.configSeen,
    };
    this.#putSandbox(sb);
    return sb;
  }

  // host-local IPAM: hand out the next free address after the last one reserved, wrapping around
  #allocateIp(): string {
    const { first, last } = this.#ipRange;
    for (let i = 0; i <= last - first; i++) {
      let cand = this.#lastIp + 1 + i;
      if (cand > last) cand = first + (cand - last - 1);
      if (!this.#usedIps.has(cand)) {
        this.#usedIps.add(cand);
        this.#lastIp = cand;
        return intToIp(cand);
      }
    }
    return '';
  }

  /**
   * The current sandboxes and containers of each pod by UID, in creation order (ListPodSandbox / ListContainers
   * with a pod filter): every change goes through #putSandbox, #putContainer and the removals, which keep it in step
   * with the live collections. A pod has a sandbox or two and a few containers: arrays, searched by ID.
   */
  readonly #byPod = new Map<string, PodIndex>();

  #index(podUid: string): PodIndex {
    let i = this.#byPod.get(podUid);
    if (!i) {
      i = { sandboxes: [], containers: [] };
      this.#byPod.set(podUid, i);
    }
    return i;
  }

  #unindex(podUid: string, kind: 'sandboxes' | 'containers', id: string): void {
    const i = this.#byPod.get(podUid);
    if (!i) return;
    const list: { id: string }[] = i[kind];
    const at = indexOfId(list, id);
    if (at >= 0) list.splice(at, 1);
    if (i.sandboxes.length === 0 && i.containers.length === 0) this.#byPod.delete(podUid);
  }

  #putSandbox(sb: CriSandbox): void {
    putById(this.#index(sb.podUid).sandboxes, sb);
    this.#ctx.history.put(this.#ctx.now, this.#cSand, sb.id, sb);
    this.onPodChange(sb.podUid);
  }

  #putContainer(c: CriContainer): void {
    putById(this.#index(c.podUid).containers, c);
    this.#ctx.history.put(this.#ctx.now, this.#cCont, c.id, c);
    this.onPodChange(c.podUid);
  }

  /** StopPodSandbox: CNI DEL (the IP is released) and the pause process stops. */
  *stopPodSandbox(id: string): Proc {
    const sb = this.sandboxes.get(id);
    if (!sb || sb.state === 'SANDBOX_NOTREADY') return;
    yield sleepFor(this.#ctx.timings.sandboxStop);
    const cur = this.sandboxes.get(id);
    if (!cur || cur.state === 'SANDBOX_NOTREADY') return;
    if (cur.ip && cur.ip !== this.node.ip) this.#usedIps.delete(cur.ip.split('.').reduce((a, o) => a * 256 + Number(o), 0));
    this.#putSandbox({ ...cur, state: 'SANDBOX_NOTREADY' });
  }

  /**
   * StopPodSandbox as a CRI client (crictl stopp) calls it: containerd first stops every container of the sandbox
   * forcibly (a timeout of 0: SIGKILL, no stop signal), then tears the sandbox down.
   */
  // upstream: containerd internal/cri/server/sandbox_stop.go stopPodSandbox ("Stop all containers inside the
  //           sandbox. This terminates the container forcibly")
  requestStopPodSandbox(sb: CriSandbox): void {
    for (const c of this.podContainers(sb.podUid)) {
      if (c.sandboxId === sb.id && c.state === 'CONTAINER_RUNNING') this.#records.get(c.id)?.proc?.signal('SIGKILL');
    }
    this.#ctx.loop.spawn(this.stopPodSandbox(sb.id));
  }

  /** A sandbox by ID or unique ID prefix (containerd's truncindex). */
  findSandbox(idOrPrefix: string): CriSandbox | undefined {
    const matches = [...this.sandboxes.values()].filter((s) => idOrPrefix.length > 0 && s.id.startsWith(idOrPrefix));
    return matches.find((s) => s.id === idOrPrefix) ?? (matches.length === 1 ? matches[0] : undefined);
  }

  removePodSandbox(id: string): void {
    const sb = this.sandboxes.get(id);
    if (!sb) return;
    this.#unindex(sb.podUid, 'sandboxes', id);
    this.#ctx.history.put(this.#ctx.now, this.#cSand, id, undefined);
    this.onPodChange(sb.podUid);
  }

  /** CreateContainer: the container joins the pause process's ipc, uts and network namespaces (after timings.containerCreate). */
  createContainer(sandboxId: string, cfg: ContainerConfig): CriContainer | { error: string } {
    const sb = this.sandboxes.get(sandboxId);
    if (!sb || sb.state !== 'SANDBOX_READY') return { error: `failed to get sandbox container task: no running task found: task ${sandboxId} not found` };
    const nsDir = kept`/proc/${sb.pausePid}/ns/`;
    const img = this.images.get(cfg.imageRef);
    const target = this.containers.get(cfg.target!)?.pid;
    const c: CriContainer = {
      id: this.#ctx.rng.hex(64),
      sandboxId,
      podUid: cfg.podUid,
      podName: cfg.podName,
      podNamespace: cfg.podNamespace,
      name: cfg.name,
      attempt: cfg.attempt,
      image: cfg.image,
      imageId: img?.id ?? '',
      state: 'CONTAINER_CREATED',
      createdAt: this.#ctx.now,
      namespaces: [target ? { type: 'pid', path: `/proc/${target}/ns/pid` } : PID_NS, { type: 'ipc', path: `${nsDir}ipc` }, { type: 'uts', path: `${nsDir}uts` }, { type: 'network', path: `${nsDir}net` }, MOUNT_NS, CGROUP_NS],
      // one flat string (kept for the run), not a tree of concatenations
      logPath: kept`/var/log/pods/${cfg.podNamespace}_${cfg.podName}_${cfg.podUid}/${cfg.name}/${cfg.attempt}.log`,
      labels: cfg.labels,
      annotations: cfg.annotations,
    };
    if (cfg.resources) c.resources = cfg.resources;
    this.#putContainer(c);
    const stopSignal = imageDefaults(parseImageRef(cfg.imageRef).repository).stopSignal;
    this.#records.set(c.id, new ContainerRecord(this, this.#ctx, c.id, cfg, stopSignal));
    return c;
  }

  /** StartContainer: the process starts; what it does is the process model's business (after timings.containerStart). */
  startContainer(id: string): { error?: string } {
    const c = this.containers.get(id);
    const rec = this.#records.get(id);
    if (!c || !rec || c.state !== 'CONTAINER_CREATED') return { error: `container ${id} is not in created state` };
    const cfg = rec.cfg;
    // runc's init looks the command up first: one the image lacks never runs (exit code 128, reason StartError);
    // a scripted container (the sim.podlife.dev/process annotation) runs its script instead
    const error = cfg.script === undefined ? this.#ctx.binaries?.startError(cfg.imageRef, cfg.argv[0]) : undefined;
    if (error) {
      this.#putContainer({ ...c, state: 'CONTAINER_EXITED', startedAt: -this.#ctx.epoch, finishedAt: this.#ctx.now, exitCode: 128, reason: 'StartError', message: error });
      return { error };
    }
    let program: Program;
    const ctx = cfg.stdin ? this.#programsStdin : this.programs;
    if (cfg.script !== undefined) program = { kind: 'shell', stmts: parseShell(cfg.script, ctx.redirect) };
    else program = this.#ctx.binaries?.programFor(cfg) ?? programFor(cfg.argv, ctx);
    const proc = new Process(rec, program, ctx);
    rec.proc = proc;
    this.#putContainer({ ...c, state: 'CONTAINER_RUNNING', startedAt: this.#ctx.now, pid: this.#pid() });
    proc.start();
    return {};
  }

  /** UpdateContainerResources: new cgroup limits for a created or running container, in place (false: it failed). */
  updateContainerResources(id: string, resources: CriLinuxResources): boolean {
    const c = this.containers.get(id);
    if (!c || c.state === 'CONTAINER_EXITED' || c.state === 'CONTAINER_UNKNOWN') return false;
    this.#putContainer({ ...c, resources });
    return true;
  }

  /** The process of a container ended (its host's `exited`); `reason` is the runtime's when it knows more (OOMKilled). */
  containerExited(id: string, exitCode: number, _signal?: number, reason?: string): void {
    const c = this.containers.get(id);
    if (!c) return;
    this.#putContainer({
      ...c,
      state: 'CONTAINER_EXITED',
      finishedAt: this.#ctx.now,
      exitCode,
      reason: reason ?? (exitCode === 0 ? 'Completed' : 'Error'),
    });
    const rec = this.#records.get(id);
    const waiters = rec?.exitWaiters;
    if (waiters === undefined) return;
    rec!.exitWaiters = undefined;
    for (const w of waiters) w();
  }

  /** The running process of a container (probes and hooks consult it). */
  process(id: string): Process | undefined {
    return this.#records.get(id)?.proc;
  }

  files(id: string): Set<string> | undefined {
    const rec = this.#records.get(id);
    return rec?.proc ? rec.fs : undefined;
  }

  /** What a container's commands wrote into its files, by path (kept after it exits, until it is removed). */
  fileData(id: string): Map<string, string> | undefined {
    const rec = this.#records.get(id);
    return rec?.proc ? rec.data : undefined;
  }

  /** StopContainer: the image's stop signal (SIGTERM unless STOPSIGNAL says otherwise), SIGKILL after the timeout. */
  *stopContainer(id: string, timeoutSeconds: number): Proc<{ signalled: Signal; killed: boolean }> {
    const rec = this.#records.get(id);
    const sig = rec?.stopSignal ?? 'SIGTERM';
    const c = this.containers.get(id);
    if (!c || c.state !== 'CONTAINER_RUNNING') return { signalled: sig, killed: false };
    const proc = rec!.proc!;
    proc.signal(sig);
    // wait for the exit (a handler may have exited at once), at most the timeout
    if (this.containers.get(id)?.state === 'CONTAINER_RUNNING') {
      yield { wait: (wake) => (rec!.exitWaiters ??= []).push(wake), timeout: timeoutSeconds * 1000 };
    }
    if (this.containers.get(id)?.state === 'CONTAINER_RUNNING') {
      proc.signal('SIGKILL');
      return { signalled: sig, killed: true };
    }
    return { signalled: sig, killed: false };
  }

  /** Signal a container's PID 1 directly (used by `nginx -s quit` style hooks). */
  signal(id: string, sig: Signal): void {
    this.#records.get(id)?.proc?.signal(sig);
  }

  removeContainer(id: string): void {
    const c = this.containers.get(id);
    if (!c) return;
    this.#unindex(c.podUid, 'containers', id);
    this.#records.delete(id);
    this.#ctx.history.put(this.#ctx.now, this.#cCont, id, undefined);
    this.onPodChange(c.podUid);
  }

  /** ListPodSandbox for one pod, newest first (as kubecontainer.PodStatus orders them). */
  podSandboxes(podUid: string): CriSandbox[] {
    const i = this.#byPod.get(podUid);
    return i ? newestFirst(i.sandboxes.slice()) : [];
  }

  /** ListContainers for one pod, newest first. */
  podContainers(podUid: string): CriContainer[] {
    const i = this.#byPod.get(podUid);
    return i ? newestFirst(i.containers.slice()) : [];
  }
}
