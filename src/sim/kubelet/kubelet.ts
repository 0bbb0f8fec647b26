// The kubelet of one node: the pod manager fed by the API watch, pod workers (one sync at a time per pod, with
// the work queue's requeue and the sync loop's 1 s ticker), the PLEG relist, the status manager, the probe
// workers, housekeeping and container garbage collection. SyncPod itself lives in kuberuntime.ts.
// upstream: pkg/kubelet/kubelet.go (syncLoopIteration, SyncPod, SyncTerminatingPod, SyncTerminatedPod,
//           HandlePodCleanups); pkg/kubelet/pod_workers.go; pkg/kubelet/pleg/generic.go;
//           pkg/kubelet/status/status_manager.go; pkg/kubelet/prober/worker.go

import type * as envModule from './envvars.ts';
import type { VolumeManager } from './volumes.ts';
import type { Container, CriContainer, Node, Pod, PodCondition, PodStatus } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { Rng } from '../core/rng.ts';
import type { Proc } from '../core/loop.ts';
import { formatGoDuration } from '../render/duration.ts';
import type { ApiServer } from '../api/apiserver.ts';
import { parseImageRef } from '../api/imageref.ts';
import type { ContainerRuntime } from '../runtime/cri.ts';
import { RUNTIME_VERSION } from '../runtime/cri.ts';
import type { NodeConfig } from '../config.ts';
import { formatBinarySI, formatMilliCPU, intValue, milliCPU } from '../api/quantity.ts';
import { RuntimeManager, syncResultsError, type SyncResult } from './kuberuntime.ts';
import { generateAPIPodStatus, isKubeletCondition, isResizeCondition, terminatePodStatus, type ReasonCache, type StatusInputs } from './status.ts';
import { toRuntimePodStatus, type RuntimePodStatus } from './podstatus.ts';
import type * as resizeModule from './resize.ts';
import type { ProbeResult } from './podactions.ts';
import type { Prober, ProbeWorker } from './handlers.ts';
import type { NodeEnv } from './env.ts';
import { containerSpec, goTime, handlersOf, KUBELET_START, kobj, kstr, nextTick, podObject, q, recordContainerEvent, recordPodEvent } from './env.ts';
import { deepEqual } from '../core/structural.ts';
import { UNSCHEDULABLE_TAINT } from '../scheduler/framework.ts';

type WorkerState = 'syncing' | 'terminating' | 'terminated' | 'finished';

const isTerminalPhase = (phase: string | undefined): boolean => phase === 'Succeeded' || phase === 'Failed';
const NO_REASONS: ReasonCache = new Map();
const API_SOURCE = q('api');
/** #syncPod's answer for a pod whose status is terminal. */
const TERMINAL = 0;


export interface PodWorker {
  uid: string;
  pod: Pod;
  working: boolean;
  pending: boolean;
  state: WorkerState;
  /** The grace period the termination uses (calculateEffectiveGracePeriod). */
  grace: number;
  deleted: boolean;
  removedFromApi: boolean;
  requeueToken: number;
  observedRunning: boolean;
  /** This pod's own jitter stream. */
  timing: Rng;
  /** The activeDeadlineSeconds a wake-up is scheduled for. */
  deadlineArmed?: number;
  /** When the last sync of any kind returned (podWorkerLoop's lastSyncTime); unset before the first. */
  lastSyncTime?: Stamp;
  /** The status manager's cached status of the pod (podStatuses), unset before the first. */
  status: PodStatus | undefined;
  /** The status object last written to the API server (the status manager's apiStatusVersions). */
  written: PodStatus | undefined;
  /** A terminal status written with the API's phase instead, while the pod could have running containers. */
  heldBack: PodStatus | undefined;
  /** The reason cache's entry of the pod: its containers' last start failures. */
  reasons: ReasonCache | undefined;
  /** Cancels the sync in progress (its context), for a wait that watches it: WaitForAttachAndMount. */
  cancel?: () => void;
}

/**
 * A moment of virtual time. Within one millisecond, `seq` orders what happened (Go's clock has nanoseconds,
 * the model's milliseconds): a relist that runs after a sync returned in the same millisecond is newer.
 * seq 0 is the start of the millisecond, before anything in it.
 */
interface Stamp {
  t: number;
  seq: number;
}

const isAfter = (a: Stamp, b: Stamp): boolean => a.t > b.t || (a.t === b.t && a.seq > b.seq);

/** The PLEG's state of a sandbox or container in a pod's cached status. */
function plegState(seen: RuntimePodStatus | undefined, id: string): PlegState {
  if (seen === undefined) return 'nonexistent';
  const sandboxes = seen.SandboxStatuses;
  for (let i = 0; i < sandboxes.length; i++) if (sandboxes[i].Id === id) return sandboxes[i].State === 'SANDBOX_READY' ? 'running' : 'exited';
  const containers = seen.ContainerStatuses;
  for (let i = 0; i < containers.length; i++) {
    const st = containers[i].State;
    if (containers[i].ID === id) return st === 'running' || st === 'exited' ? st : 'unknown';
  }
  return 'nonexistent';
}

/** The ID of a pod's i-th sandbox or container (sandboxes first), undefined past the last. */
const podID = (s: RuntimePodStatus | undefined, i: number): string | undefined =>
  s && (i < s.SandboxStatuses.length ? s.SandboxStatuses[i].Id : s.ContainerStatuses[i - s.SandboxStatuses.length]?.ID);


const PROBE_TYPES = ['liveness', 'readiness', 'startup'] as const;

type PlegState = 'running' | 'exited' | 'unknown' | 'nonexistent';
type PlegEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerChanged' | 'ContainerRemoved';

/**
 * A container's environment and the kubelet's $(VAR) expansion (kubelet/envvars.ts), passed in: every engine has it but
 * the player's replay of a run whose pods use no `$`.
 */
export type EnvSupport = Pick<typeof envModule, 'expandCommand' | 'processEnv' | 'envBuiltin' | 'arith' | 'missingConfigSource' | 'VolumeManager'>;

export class Kubelet {
  readonly env: NodeEnv;
  readonly rm: RuntimeManager;
  readonly node: NodeConfig;
  readonly #ctx: SimContext;
  readonly #api: ApiServer;
  readonly #runtime: ContainerRuntime;
  readonly #pods = new Map<string, Pod>();
  readonly #workers = new Map<string, PodWorker>();
  readonly #statusInputs: StatusInputs;
  readonly #lastIPs = new Map<string, string[]>();
  readonly #readiness = new Map<string, ProbeResult>();
  readonly #probeWorkers = new Map<string, ProbeWorker>();
  readonly #dirty = new Set<string>();
  /** The pods a relist inspects even when no container changed (RequestReinspect; a resize asks for it). */
  readonly #reinspect = new Set<string>();
  #relistAt = -1;
  /** The pod cache the PLEG fills: each pod's runtime status as the relist that last saw it change read it. */
  // upstream: pkg/kubelet/container/cache.go (cache.pods)
  readonly #podCache = new Map<string, RuntimePodStatus>();
  /** When the last relist the model ran started (the cache's global timestamp, with the implicit relists below). */
  #lastRelist: Stamp = { t: -Infinity, seq: 0 };
  #stampSeq = 0;
  /** Pod workers blocked in GetNewerThan until the next relist. */
  readonly #cacheWaiters: PodWorker[] = [];
  #housekeepingAt = -1;
  #gcAt = -1;
  /** Offset of this kubelet's 1 s tickers from t = 0 (the kubelet started at some earlier time). */
  readonly #phase: number;
  readonly #housekeepingPhase: number;
  /** The PodAdded detail, one string for every pod of this node. */
  readonly #added: string;
  /** The allocation manager's resize handling (kubelet/resize.ts), with the resize support. */
  readonly #allocation: resizeModule.AllocationManager | undefined;
  /** The volume manager's part for ConfigMap and Secret volumes (kubelet/volumes.ts), with the environment module. */
  readonly #volumes: VolumeManager | undefined;

  /** `resize`: the in-place resize support (kubelet/resize.ts), when the engine has it; `env`: the containers' environment. */
  constructor(ctx: SimContext, api: ApiServer, runtime: ContainerRuntime, node: NodeConfig, resize?: typeof resizeModule, env?: EnvSupport) {
    this.#ctx = ctx;
    this.#api = api;
    this.#runtime = runtime;
    this.#terminationMessage = ctx.files?.terminationMessages(runtime, ctx.containerLogs);
    this.node = node;
    this.#added = `SyncLoop ADD: the pod is bound to ${node.name}`;
    const timing = ctx.timingRng(`node/${node.name}`);
    this.#phase = timing.int(0, 999);
    // the housekeeping ticker starts with the sync loop, later than the PLEG's relist loop
    this.#housekeepingPhase = timing.int(0, 1999);
    const verbosity = node.kubeletVerbosity ?? 0;
    this.env = {
      ctx, api, runtime, nodeName: node.name, nodeIP: node.ip, verbosity,
      // klog.V(n): a line above the kubelet's --v is never written (journalctl could not show it)
      klog: (severity, source, msg, kv, v = 0) => {
        if (v <= verbosity) ctx.kubeletLog({ t: ctx.now, node: node.name, severity, source, msg, kv, v, pid: runtime.kubeletPid });
      },
    };
    this.rm = new RuntimeManager(this.env);
    this.#volumes = env && new env.VolumeManager(this.env, this.#phase);
    this.rm.resize = resize;
    this.#allocation = resize && new resize.AllocationManager({
      env: this.env, resized: this.rm.resized, activePods: () => this.#activePods(), node: () => this.#node(),
      sync: (pod) => this.#updatePod(this.#workers.get(pod.metadata.uid)!),
    });
    this.#statusInputs = { readiness: this.#readiness, startup: this.rm.probeResults.startup, hostIP: node.ip, rfc3339: (t) => ctx.rfc3339(t) };
    this.rm.onPodSandboxReady = (pod) => this.#onPodSandboxReady(pod);
    this.rm.requestPodReinspect = (uid) => {
      this.#reinspect.add(uid);
      this.#markDirty(uid);
    };
    runtime.onPodChange = (uid) => this.#markDirty(uid);
    // what makeMounts gives a container: the hosts file with the ready sandbox's IP
    // (a container's own: when it was made, for its environment and its subPath files)
    const madeAt = (uid: string, id?: string) => id === undefined ? id : runtime.podContainers(uid).find((x) => x.id === id)?.createdAt;
    runtime.podFiles = (uid, name, id) => {
      const w = this.#workers.get(uid);
      const pod = w?.pod;
      const sandbox = runtime.podSandboxes(uid).find((s) => s.state === 'SANDBOX_READY');
      const written = { volumeAt: (v: string) => w && this.#volumes?.writtenAt(w, v), containerAt: madeAt(uid, id) };
      return pod && ctx.files?.containerFiles(ctx, pod, containerSpec(pod, name), sandbox?.ip ? [sandbox.ip] : [], written);
    };
    runtime.podEnv = (uid, name, id) => {
      const pod = this.#workers.get(uid)?.pod;
      const c = pod && containerSpec(pod, name);
      return c && env?.processEnv(pod, c, { podIP: runtime.podSandboxes(uid).find((s) => s.state === 'SANDBOX_READY')?.ip, hostIP: node.ip }, ctx, madeAt(uid, id));
    };
    this.rm.envSupport = env;
    api.addNode(this.#nodeObject());
    api.watchPods((type, pod) => this.#onPod(type, pod), { nodeName: node.name });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Node registration. upstream: pkg/kubelet/kubelet_node_status.go initialNode, setNodeStatus
  #nodeObject(): Node {
    const ctx = this.#ctx;
    const cap = this.node.capacity ?? {};
    const memoryKi = Math.floor(intValue(cap.memory ?? '8Gi') / 1024);
    const storageKi = Math.floor(intValue(cap['ephemeral-storage'] ?? '100Gi') / 1024);
    const cpu = milliCPU(cap.cpu ?? '4');
    const pods = intValue(cap.pods ?? 110);
    const created = ctx.rfc3339(-37 * 86_400_000);
    const cpuStr = formatMilliCPU(cpu);
    // a node registered cordoned has had the node lifecycle controller's unschedulable taint since it registered
    const taints = this.node.unschedulable ? [...(this.node.taints ?? []), { ...UNSCHEDULABLE_TAINT, timeAdded: created }] : this.node.taints;
    const cond = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
      type, status, lastHeartbeatTime: ctx.rfc3339(KUBELET_START), lastTransitionTime: created, reason, message,
    });
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: this.node.name,
        uid: ctx.rng.uuid(),
        resourceVersion: '',
        creationTimestamp: created,
        labels: {
          'beta.kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': this.node.name,
          'kubernetes.io/os': 'linux',
          ...(this.node.labels ?? {}),
        },
        annotations: {
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
      },
      spec: {
        podCIDR: this.node.podCIDR,
        podCIDRs: [this.node.podCIDR],
        ...(taints?.length ? { taints } : {}),
        ...(this.node.unschedulable ? { unschedulable: true } : {}),
      },
      status: {
        // cAdvisor's sizes in whole KiB, as BinarySI quantities (the API serves them canonical: 8388608Ki is 8Gi);
        // allocatable keeps back the default hard eviction thresholds, memory.available<100Mi and nodefs.available<10%
        capacity: {
          cpu: cpuStr, 'ephemeral-storage': formatBinarySI(storageKi * 1024), 'hugepages-1Gi': '0', 'hugepages-2Mi': '0',
          memory: formatBinarySI(memoryKi * 1024), pods: String(pods),
        },
        allocatable: {
          cpu: cpuStr, 'ephemeral-storage': formatBinarySI(storageKi * 1024 - Math.trunc(storageKi * 1024 * 0.1)), 'hugepages-1Gi': '0', 'hugepages-2Mi': '0',
          memory: formatBinarySI((memoryKi - 102400) * 1024), pods: String(pods),
        },
        addresses: [{ type: 'InternalIP', address: this.node.ip }, { type: 'Hostname', address: this.node.name }],
        conditions: [
          cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
          cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
          cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
          cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
        ],
        nodeInfo: {
          kubeletVersion: 'v1.36.2',
          containerRuntimeVersion: RUNTIME_VERSION,
          kernelVersion: '6.8.0-60-generic',
          osImage: 'Ubuntu 24.04.2 LTS',
          operatingSystem: 'linux',
          architecture: 'amd64',
          machineID: ctx.rng.hex(32),
          systemUUID: ctx.rng.uuid(),
          bootID: ctx.rng.uuid(),
        },
      },
    };
  }

  /** The next tick of a periodic loop of this kubelet at or after t. */
  #tick(t: number, period: number, phase = this.#phase): number {
    return nextTick(t, period, phase);
  }

  #jitter(w: PodWorker, d: number): number {
    return d + w.timing.float() * this.#ctx.timings.jitter * d;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Pod config from the API server. upstream: kubelet.go HandlePodAdditions / HandlePodUpdates / HandlePodRemoves
  #onPod(type: string, pod: Pod): void {
    if (pod.spec.nodeName !== this.node.name) return;
    const uid = pod.metadata.uid;
    const known = this.#pods.get(uid);
    if (type === 'DELETED') {
      if (!known && !this.#workers.has(uid)) return;
      if (this.env.verbosity >= 2) this.env.klog('I', 'kubelet.go:2478', 'SyncLoop REMOVE', [['source', API_SOURCE], ['pods', `[${kobj(pod)}]`]], 2);
      this.#pods.delete(uid);
      const w = this.#workers.get(uid);
      if (w) {
        w.pod = pod;
        w.deleted = true;
        w.removedFromApi = true;
        this.#updatePod(w);
      }
      this.#scheduleHousekeeping();
      return;
    }
    if (!known) {
      if (this.#workers.get(uid)?.state === 'finished') return;
      if (this.env.verbosity >= 2) this.env.klog('I', 'kubelet.go:2462', 'SyncLoop ADD', [['source', API_SOURCE], ['pods', `[${kobj(pod)}]`]], 2);
      this.#pods.set(uid, pod);
      this.rm.seen.set(uid, this.#ctx.now);
      const w: PodWorker = {
        uid, pod, working: false, pending: false, state: 'syncing', grace: 0, deleted: false, removedFromApi: false, requeueToken: 0, observedRunning: false,
        status: undefined, written: undefined, heldBack: undefined, reasons: undefined, timing: this.#ctx.timingRng(`pod/${pod.metadata.namespace}/${pod.metadata.name}`),
      };
      this.#workers.set(uid, w);
      this.#ctx.emit('kubelet', 'PodAdded', podObject(pod), this.#added);
      this.#updatePod(w);
      return;
    }
    this.#pods.set(uid, pod);
    const w = this.#workers.get(uid);
    if (!w) return;
    const prev = w.pod;
    w.pod = pod;
    if (pod.metadata.deletionTimestamp && !known.metadata.deletionTimestamp) {
      if (this.env.verbosity >= 2) this.env.klog('I', 'kubelet.go:2475', 'SyncLoop DELETE', [['source', API_SOURCE], ['pods', `[${kobj(pod)}]`]], 2);
      this.#updatePod(w);
    } else if (
      pod.metadata.generation !== known.metadata.generation || pod.metadata.deletionGracePeriodSeconds !== known.metadata.deletionGracePeriodSeconds ||
      // upstream: pkg/kubelet/config/config.go podsDifferSemantically: the labels and annotations too (a status
      // update keeps the same objects: compared in depth only when they are new ones)
      (pod.metadata.labels !== known.metadata.labels && !deepEqual(pod.metadata.labels, known.metadata.labels)) ||
      (pod.metadata.annotations !== known.metadata.annotations && !deepEqual(pod.metadata.annotations, known.metadata.annotations))
    ) {
      if (this.env.verbosity >= 2) this.env.klog('I', 'kubelet.go:2469', 'SyncLoop UPDATE', [['source', API_SOURCE], ['pods', `[${kobj(pod)}]`]], 2);
      if (this.#allocation && w.state === 'syncing' && pod.metadata.generation !== known.metadata.generation) this.#allocation.handlePodResourcesResize(pod, prev);
      this.#updatePod(w);
    }
  }

  /** GetActivePods: the pods admitted here and not yet terminated. */
  #activePods(): Pod[] {
    const out: Pod[] = [];
    for (const o of this.#workers.values()) if (o.state === 'syncing' || o.state === 'terminating') out.push(o.pod);
    return out;
  }

  #node(): Node {
    return this.#api.nodes.get(this.node.name)!;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Pod workers. upstream: pkg/kubelet/pod_workers.go (*podWorkers).UpdatePod, podWorkerLoop, completeWork

  // upstream: pod_workers.go calculateEffectiveGracePeriod
  #effectiveGrace(w: PodWorker, pod: Pod): number {
    let grace = w.grace;
    const dgps = pod.metadata.deletionGracePeriodSeconds;
    if (dgps !== undefined && (grace === 0 || dgps < grace)) grace = dgps;
    if (grace === 0) grace = pod.spec.terminationGracePeriodSeconds ?? 0;
    if (grace < 1) grace = 1;
    return grace;
  }

  #updatePod(w: PodWorker): void {
    if (w.state === 'finished') return;
    if ((w.pod.metadata.deletionTimestamp || w.removedFromApi) && w.state === 'syncing') {
      w.deleted = true;
      w.state = 'terminating';
      w.grace = this.#effectiveGrace(w, w.pod);
      w.cancel?.();
    } else if (w.state === 'terminating' && (w.pod.metadata.deletionTimestamp || w.removedFromApi)) {
      w.grace = this.#effectiveGrace(w, w.pod);
    }
    if (w.working) {
      w.pending = true;
      return;
    }
    w.working = true;
    this.#podWorkerLoop(w, false);
  }

  /**
   * The pod worker's goroutine, as a plain call: it syncs while nothing waits, and where a sync waits it returns,
   * to be called again by what it waits for (the next relist: #resumeWorker; the sync's goroutine: its done).
   * `resumed`: after a wait for the cache, where the updates that came in the meantime still count as pending.
   */
  // upstream: pkg/kubelet/pod_workers.go (*podWorkers).podWorkerLoop
  #podWorkerLoop(w: PodWorker, resumed: boolean): void {
    for (;;) {
      if (!resumed) w.pending = false;
      resumed = false;
      // Every sync works from the PLEG's pod cache, and only once the cache is newer than the previous sync:
      // what a container did since (exited, say) reaches the kubelet through a relist, never directly.
      const podStatus = this.#getNewerThan(w);
      if (podStatus === undefined) {
        this.#cacheWaiters.push(w);
        return;
      }
      if (w.state === 'syncing') {
        const r = this.#syncPod(w, podStatus);
        if (r === TERMINAL) {
          w.state = 'terminating';
          w.grace = w.pod.spec.terminationGracePeriodSeconds ?? 30;
          if (this.#syncDone(w, true, undefined, undefined)) continue;
        } else if (Array.isArray(r)) {
          if (this.#syncPodDone(w, r)) continue;
        } else {
          this.#ctx.loop.spawn(r, (results) => {
            if (this.#syncPodDone(w, results)) this.#podWorkerLoop(w, false);
          });
        }
        return;
      }
      if (w.state === 'terminating') {
        const kill = this.#syncTerminatingPod(w, podStatus);
        if (Array.isArray(kill)) {
          if (this.#syncTerminatingPodDone(w)) continue;
        } else {
          this.#ctx.loop.spawn(kill, () => {
            if (this.#syncTerminatingPodDone(w)) this.#podWorkerLoop(w, false);
          });
        }
        return;
      }
      if (w.state === 'terminated') {
        this.#syncTerminatedPod(w, podStatus);
        w.state = 'finished';
      }
      w.working = false;
      return;
    }
  }

  readonly #resumeWorker = (w: PodWorker): void => this.#podWorkerLoop(w, true);

  /** After a sync returned: requeue the pod; true when the worker goes on with the next sync at once. */
  #syncDone(w: PodWorker, phaseTransition: boolean, err: string | undefined, backoffUntil: number | undefined): boolean {
    w.lastSyncTime = this.#stamp();
    if (err !== undefined) {
      this.env.klog('E', 'pod_workers.go:1301', 'Error syncing pod, skipping', [['err', q(err)], ['pod', kobj(w.pod)], ['podUID', q(w.uid)]]);
    }
    this.#completeWork(w, phaseTransition, err, backoffUntil);
    if (phaseTransition || w.pending) return true;
    w.working = false;
    return false;
  }

  // upstream: pod_workers.go (*podWorkers).completeWork
  #completeWork(w: PodWorker, phaseTransition: boolean, err: string | undefined, backoffUntil: number | undefined): void {
    if (phaseTransition) return;
    const t = this.#ctx.timings;
    let delay: number;
    if (err === undefined) delay = this.#jitter(w, t.resync);
    else {
      let backoff = t.podWorkerBackOff;
      if (backoffUntil !== undefined) backoff = backoffUntil - this.#ctx.now;
      backoff = Math.min(Math.max(backoff, 0), t.resync);
      delay = this.#jitter(w, backoff);
    }
    const token = ++w.requeueToken;
    // the work queue entry becomes due; the sync loop's ticker picks it up
    const due = this.#tick(this.#ctx.now + Math.round(delay), t.syncTick);
    this.#ctx.loop.at(due, () => {
      if (w.requeueToken === token && w.state !== 'finished') this.#updatePod(w);
    });
  }

  /** An exited container's termination message, when the engine has the files module (the kubelet mounts the file). */
  readonly #terminationMessage: ((c: CriContainer) => string | undefined) | undefined;

  // ---------------------------------------------------------------------------------------------------------
  /** GetPodStatus: the pod's sandboxes and containers as the runtime has them now. */
  #runtimePodStatus(
    uid: string, name: string, namespace: string,
    sandboxes = this.#runtime.podSandboxes(uid), containers = this.#runtime.podContainers(uid),
  ): RuntimePodStatus {
    const last = this.#lastIPs.get(uid);
    const rs = toRuntimePodStatus(uid, name, namespace, this.node.ip, sandboxes, containers, this.#imageOf, last ?? [], this.#terminationMessage);
    if (rs.IPs.length && rs.IPs !== last) this.#lastIPs.set(uid, rs.IPs);
    return rs;
  }

  readonly #imageOf = (c: CriContainer): { image: string; imageRef: string } => {
    const ref = parseImageRef(c.image);
    const img = this.#runtime.images.get(ref.normalized);
    return { image: ref.normalized, imageRef: img?.repoDigests[0] ?? '' };
  };

  #generate(w: PodWorker, pod: Pod, rs: RuntimePodStatus, terminal: boolean): PodStatus {
    const old = w.status ?? pod.status;
    const reasons = w.reasons ?? NO_REASONS;
    const st = this.rm.resized.size ? this.rm.resized.get(pod.metadata.uid) : undefined;
    // a resized pod's statuses show its allocation and what the runtime applied
    // upstream: kubelet_pods.go generateAPIPodStatus, podSyncHandler.ShouldEvict (the active deadline handler)
    const evict = pod.spec.activeDeadlineSeconds === undefined ? undefined : handlersOf(this.#ctx).activeDeadlineEviction(this.env, pod, old);
    let status = st
      ? generateAPIPodStatus(this.rm.resize!.updatePodFromAllocation(pod, st.allocated), rs, old, terminal, reasons, this.#statusInputs, st.actuated, evict)
      : generateAPIPodStatus(pod, rs, old, terminal, reasons, this.#statusInputs, undefined, evict);
    if (st) status = this.rm.resize!.resizeStatus(status, st, terminal);
    return status;
  }

  /**
   * Kubelet.SyncPod: write the status, then let the runtime manager converge the pod. TERMINAL when the status is
   * terminal; else SyncPod's results, or the goroutine that yields them.
   */
  // upstream: pkg/kubelet/kubelet.go (*Kubelet).SyncPod (v1.36.2 L2019)
  #syncPod(w: PodWorker, rs: RuntimePodStatus): typeof TERMINAL | SyncResult[] | Proc<SyncResult[] | string> {
    // a resized pod: the resources the kubelet allocated, and whether the resize in progress is done
    let pod = w.pod;
    const st = this.rm.resized.size ? this.rm.resized.get(w.uid) : undefined;
    if (st) {
      const r = this.rm.resize!.allocatedPod(this.env, st, pod, rs);
      pod = r[0];
      if (r[1]) this.#ctx.emit('kubelet', 'ResizeCompleted', podObject(pod), r[1]);
    }
    const status = this.#generate(w, pod, rs, false);
    this.#setPodStatus(w, status);
    if (isTerminalPhase(status.phase)) return TERMINAL;
    if (pod.spec.activeDeadlineSeconds !== undefined) {
      handlersOf(this.#ctx).watchActiveDeadline(this.env, w, w.status ?? status, (t) => this.#tick(t, this.#ctx.timings.syncTick), () => this.#updatePod(w));
    }
    this.#observeStartup(w, status);
    const rest = () => (this.#addProbes(pod), this.rm.SyncPod(pod, rs));
    // WaitForAttachAndMount: a pod whose volumes did not mount waits, and its sync fails, or goes on once they
    // mount (the worker's cancellation ends the wait early)
    return this.#volumes?.wait(w, rest) ?? rest();
  }

  /** The end of SyncPod: its start failures go to the reason cache, its errors to the worker. */
  #syncPodDone(w: PodWorker, results: SyncResult[] | string): boolean {
    if (typeof results === 'string') return this.#syncDone(w, false, results, undefined);
    // upstream: pkg/kubelet/util/... ReasonCache.Update
    let reasons = w.reasons;
    let backoffUntil: number | undefined;
    for (const r of results) {
      if (r.backoffUntil !== undefined && !(backoffUntil! <= r.backoffUntil)) backoffUntil = r.backoffUntil;
      if (r.action !== 'StartContainer') continue;
      if (r.error) {
        if (!reasons) w.reasons = reasons = new Map();
        reasons.set(r.target, { err: r.error, message: r.message ?? '' });
      } else reasons?.delete(r.target);
    }
    return this.#syncDone(w, false, syncResultsError(results), backoffUntil);
  }

  /**
   * SyncTerminatingPod: stop every container within the grace period (what it waits for is the goroutine it
   * returns), then record the final status (#syncTerminatingPodDone).
   */
  // upstream: pkg/kubelet/kubelet.go (*Kubelet).SyncTerminatingPod
  #syncTerminatingPod(w: PodWorker, rs: RuntimePodStatus): SyncResult[] | Proc<SyncResult[]> {
    const pod = w.pod;
    this.#setPodStatus(w, this.#generate(w, pod, rs, false));
    this.#stopProbes(w.uid, ['liveness', 'startup']);
    this.#ctx.emit('kubelet', 'TerminatingPod', podObject(pod), `SyncTerminatingPod: kill the pod with a grace period of ${w.grace}s`);
    return this.rm.killPodWithSyncResult(pod, rs, w.grace);
  }

  #syncTerminatingPodDone(w: PodWorker): boolean {
    this.#stopProbes(w.uid, ['readiness']);
    // the one place the kubelet reads the runtime directly: the final status after KillPod
    const after = this.#runtimePodStatus(w.uid, w.pod.metadata.name, w.pod.metadata.namespace!);
    this.#setPodStatus(w, this.#generate(w, w.pod, after, true));
    w.state = 'terminated';
    if (this.rm.resized.size) this.#allocation!.retryPendingResizes('pod_terminated');
    return this.#syncDone(w, true, undefined, undefined);
  }

  /** SyncTerminatedPod: the pod's containers are stopped; volumes are torn down and the status is final. */
  // upstream: pkg/kubelet/kubelet.go (*Kubelet).SyncTerminatedPod
  #syncTerminatedPod(w: PodWorker, rs: RuntimePodStatus): void {
    this.#setPodStatus(w, this.#generate(w, w.pod, rs, true));
    this.#setPodStatus(w, terminatePodStatus(w.pod, w.status ?? w.pod.status), true);
    this.#ctx.emit('kubelet', 'TerminatedPod', podObject(w.pod), 'SyncTerminatedPod: containers stopped, volumes unmounted');
    this.#scheduleHousekeeping();
    this.#scheduleGC();
  }

  /**
   * The sandbox is up: PodReadyToStartContainers becomes True now, in the status manager's copy of the status,
   * without waiting for the next sync (which would come only after the image pulls and container starts).
   */
  // upstream: pkg/kubelet/kubelet.go (*Kubelet).OnPodSandboxReady (v1.36, kubernetes/kubernetes#134660)
  #onPodSandboxReady(pod: Pod): void {
    const w = this.#workers.get(pod.metadata.uid);
    if (!w) return;
    const existing = w.status ?? pod.status;
    const ready: PodCondition = { type: 'PodReadyToStartContainers', status: 'True' } as PodCondition;
    const conditions = (existing.conditions ?? []).slice();
    let i = 0;
    while (i < conditions.length && conditions[i].type !== ready.type) i++;
    conditions[i] = ready; // in its place, or appended
    const status = copyFields({} as PodStatus, existing);
    status.conditions = conditions;
    this.#setPodStatus(w, status);
    if (this.env.verbosity >= 3) this.env.klog('I', 'kubelet.go:3571', 'Successfully updated PodReadyToStartContainers condition after sandbox creation', [['pod', kobj(pod)], ['podUID', q(w.uid)]], 3);
  }

  /** The pod startup latency tracker's log line, once, when the pod is first seen Running. */
  // upstream: pkg/kubelet/util/pod_startup_latency_tracker.go ObservedPodOnWatch (the v1.36 field set, with
  // image pull sessions: kubernetes/kubernetes#131950), calculateImagePullingTime, isStatefulPod
  #observeStartup(w: PodWorker, status: PodStatus): void {
    if (w.observedRunning || status.phase !== 'Running') return;
    w.observedRunning = true;
    const track = this.rm.startup.get(w.uid);
    if (track) track.done = true;
    const created = Date.parse(w.pod.metadata.creationTimestamp) - this.#ctx.epoch;
    const now = this.#ctx.now;
    const pulling = track ? imagePullingTime(track.sessions) : 0;
    const init = track?.initTotal ?? 0;
    // `when`: the kubelet's watch sees the status it wrote; the end-to-end duration runs from creation to then
    const when = now + this.#ctx.timings.statusUpdate;
    const e2e = when - created;
    // the times the tracker took from time.Now() carry Go's monotonic reading (String() appends m=+seconds since the
    // kubelet started); the creation timestamp came from the API and has none
    const epoch = this.#ctx.epoch;
    this.env.klog('I', 'pod_startup_latency_tracker.go:148', 'Observed pod startup duration', [
      ['pod', kobj(w.pod)],
      ['podStartSLOduration', String(durationSeconds(e2e - pulling - init))],
      ['podStartE2EDuration', q(formatGoDuration(e2e))],
      ['totalImagesPullingTime', q(formatGoDuration(pulling))],
      ['totalInitContainerRuntime', q(formatGoDuration(init))],
      ['isStatefulPod', String(isStatefulPod(w.pod))],
      ['podCreationTimestamp', q(goTime(epoch, created, false))],
      ['imagePullSessionsCount', String(track ? track.sessions.length / 2 : 0)],
      ['imagePullSessionsStartsCount', String(track ? track.starts.length : 0)],
      ['observedRunningTime', q(goTime(epoch, now, true))],
      ['watchObservedRunningTime', q(goTime(epoch, when, true))],
    ]);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Status manager. upstream: pkg/kubelet/status/status_manager.go SetPodStatus, updateStatusInternal, syncPod

  #setPodStatus(w: PodWorker, status: PodStatus, final = false): void {
    const pod = w.pod;
    const prev = w.status;
    const old = prev ?? pod.status;
    // pods are not allowed to transition out of terminal phases
    if (isTerminalPhase(old.phase) && status.phase !== old.phase) {
      this.env.klog('E', 'status_manager.go:727', 'Pod attempted illegal phase transition', [['pod', kobj(pod)], ['originalStatusPhase', q(old.phase)], ['apiStatusPhase', q(status.phase)]]);
      status = { ...status, phase: old.phase };
    }
    const now = this.#ctx.rfc3339();
    const generation = pod.metadata.generation ?? 1;
    const previous = old.conditions ?? [];
    const generated = status.conditions ?? [];
    // A kubelet condition the cache already has (same status, reason, message and generation) stays that object,
    // and the cache's list stays when every condition does: the versions of the status share them. (The cache's
    // kubelet conditions were all made below, with their keys in one order.) A new list is made at the first
    // condition that differs, exactly as long as it ends up (a list grown by push keeps spare room, in every
    // version of the status).
    let same = prev !== undefined && generated.length === previous.length;
    let conditions = same ? previous : generated.slice();
    for (let i = 0; i < generated.length; i++) {
      const c = generated[i];
      let p: PodCondition | undefined;
      for (let j = 0; j < previous.length; j++) if (previous[j].type === c.type) p = previous[j];
      const kubelet = isKubeletCondition(c.type);
      let out: PodCondition;
      // a resize condition comes with its own generation and times (the status manager's, kept as they are)
      if (isResizeCondition(c.type)) out = c;
      else if (
        prev !== undefined && p !== undefined && kubelet && p.status === c.status && p.reason === c.reason && p.message === c.message &&
        p.lastProbeTime === null && p.observedGeneration === generation
      ) out = p;
      else {
        out = copyFields(plain<PodCondition>(), c);
        out.lastProbeTime = null;
        out.lastTransitionTime = p && p.status === c.status ? p.lastTransitionTime : now;
        if (kubelet) out.observedGeneration = generation;
      }
      if (same && out !== previous[i]) {
        same = false;
        conditions = previous.slice();
      }
      if (!same) conditions[i] = out;
    }
    const next = plain<PodStatus>();
    next.observedGeneration = generation;
    copyFields(next, status);
    next.conditions = conditions;
    next.startTime = old.startTime ?? now;
    const changed = prev === undefined || !deepEqual(prev, next);
    if (changed) {
      w.status = next;
      this.#ctx.emit('kubelet', 'StatusUpdated', podObject(pod), statusUpdated(next.phase, old.phase));
    }
    if (!changed && !final) return;
    const write = final ? this.#writeFinal : this.#write;
    const delay = this.#ctx.timings.statusUpdate;
    if (delay > 0) this.#ctx.loop.after(delay, write, w);
    else write(w);
  }

  // the status manager's syncPod, after the status update latency: one task for every pod (a pod's name and
  // namespace never change, so the worker tells it which)
  readonly #write = (w: PodWorker): void => this.#syncStatus(w, false);
  readonly #writeFinal = (w: PodWorker): void => this.#syncStatus(w, true);

  #syncStatus(w: PodWorker, final: boolean): void {
    const uid = w.uid;
    const ns = w.pod.metadata.namespace!;
    const name = w.pod.metadata.name;
    const cur = this.#api.getPod(ns, name);
    if (!cur || cur.metadata.uid !== uid) return;
    const cached = w.status;
    if (cached && cached !== w.written) {
      // mergePodStatus: a pod is not reported terminal while it could still have running containers (its worker has
      // not finished terminating it): its phase, reason and message stay the API's until then (written once per
      // status), and the status itself is written once the worker is done (SyncTerminatedPod's final write)
      // upstream: pkg/kubelet/status/status_manager.go mergePodStatus, podWorkers.CouldHaveRunningContainers
      const api = cur.status;
      if (isTerminalPhase(cached.phase) && !isTerminalPhase(api.phase) && (w.state === 'syncing' || w.state === 'terminating')) {
        if (cached !== w.heldBack) {
          w.heldBack = cached;
          const held = copyFields({} as PodStatus, cached);
          held.phase = api.phase;
          if (api.reason === undefined) delete held.reason;
          else held.reason = api.reason;
          if (api.message === undefined) delete held.message;
          else held.message = api.message;
          this.#api.updatePodStatus(ns, name, uid, held);
        }
      } else {
        w.written = cached;
        this.#api.updatePodStatus(ns, name, uid, cached);
      }
    }
    // upstream: status_manager.go canBeDeleted → Delete with grace 0 and a UID precondition
    if (final && cur.metadata.deletionTimestamp) {
      const r = this.#api.deletePod(ns, name, { gracePeriodSeconds: 0, uid });
      if (r.ok) this.env.klog('I', 'status_manager.go:912', 'Pod fully terminated and removed from etcd', [['pod', kobj(w.pod)]], 3);
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // PLEG and the pod cache. upstream: pkg/kubelet/pleg/generic.go (*GenericPLEG).Relist, generateEvents;
  // pkg/kubelet/container/cache.go (GetNewerThan, getIfNewerThan, UpdateTime)
  //
  // The relist runs every plegRelist on this kubelet's ticker. The model runs a relist only when someone can tell
  // (a pod changed in the runtime, or a pod worker waits for the cache); the others are implicit: they would find
  // nothing new, but they still move the cache's global timestamp, which #cacheTimestamp accounts for.
  // With plegRelist 0 (ZERO_LATENCY_TIMINGS) the relist runs in the millisecond of every change, right after it.

  #stamp(): Stamp {
    return { t: this.#ctx.now, seq: ++this.#stampSeq };
  }

  #scheduleRelist(): void {
    if (this.#relistAt >= this.#ctx.now) return;
    const period = this.#ctx.timings.plegRelist;
    const at = this.#tick(this.#ctx.now + (period > 0 ? 1 : 0), period);
    this.#relistAt = at;
    this.#ctx.loop.at(at, () => this.#relist());
  }

  #markDirty(uid: string): void {
    this.#dirty.add(uid);
    this.#scheduleRelist();
  }

  /** The cache's global timestamp: the start of the newest relist, run or implicit. */
  #cacheTimestamp(): Stamp {
    const now = this.#ctx.now;
    const period = this.#ctx.timings.plegRelist;
    let implicit = now;
    if (period > 0) {
      const tick = this.#tick(now - period + 1, period);
      // a relist due at that tick that has not run yet: the cache is only as new as the tick before
      implicit = this.#relistAt === tick ? tick - period : tick;
    }
    const stamp = { t: implicit, seq: 0 };
    return isAfter(this.#lastRelist, stamp) ? this.#lastRelist : stamp;
  }

  /**
   * The pod's status from the cache, once the cache is newer than the worker's last sync (at once for a first
   * sync); a pod the runtime has nothing of gets an empty status. Until then undefined: a relist is scheduled and
   * the worker waits for it (#cacheWaiters) and asks again. A plain call, as most syncs do not wait.
   */
  // upstream: pkg/kubelet/container/cache.go (*cache).GetNewerThan
  #getNewerThan(w: PodWorker): RuntimePodStatus | undefined {
    if (w.lastSyncTime !== undefined && !isAfter(this.#cacheTimestamp(), w.lastSyncTime)) {
      this.#scheduleRelist();
      return undefined;
    }
    return this.#podCache.get(w.uid) ?? toRuntimePodStatus(w.uid, w.pod.metadata.name, w.pod.metadata.namespace!, this.node.ip, [], [], this.#imageOf, []);
  }

  // a relist's events for one pod (reused from pod to pod: the relist never runs inside itself)
  readonly #plegTypes: PlegEventType[] = [];
  readonly #plegIds: string[] = [];

  // upstream: pkg/kubelet/pleg/generic.go (*GenericPLEG).Relist
  #relist(): void {
    this.#relistAt = -1;
    this.#lastRelist = this.#stamp();
    const dirty = [...this.#dirty];
    this.#dirty.clear();
    const types = this.#plegTypes;
    const eventIds = this.#plegIds;
    // the pod's events are the first n entries of types and eventIds; seen is the pod as the previous relist saw it
    // (the cache entry it left: the PLEG's podRecords old), now as this one does
    let n = 0;
    let seen: RuntimePodStatus | undefined;
    // generateEvents: the event of a sandbox or container now in state st, none when the cache has it so
    const event = (id: string, st: PlegState): void => {
      if (plegState(seen, id) === st) return;
      types[n] = st === 'running' ? 'ContainerStarted' : st === 'exited' ? 'ContainerDied' : st === 'unknown' ? 'ContainerChanged' : 'ContainerRemoved';
      eventIds[n++] = id;
    };
    // indexed loops (the allocation profile showed an array iterator per for-of here)
    for (let d = 0; d < dirty.length; d++) {
      const uid = dirty[d];
      const w = this.#workers.get(uid);
      seen = this.#podCache.get(uid);
      n = 0;
      const sandboxes = this.#runtime.podSandboxes(uid);
      const containers = this.#runtime.podContainers(uid);
      let now: RuntimePodStatus | undefined;
      if (sandboxes.length + containers.length) {
        const meta = w?.pod.metadata ?? { name: sandboxes[0]?.name ?? containers[0].podName, namespace: sandboxes[0]?.namespace ?? containers[0].podNamespace };
        now = this.#runtimePodStatus(uid, meta.name, meta.namespace!, sandboxes, containers);
      }
      let id;
      for (let i = 0; (id = podID(now, i)); i++) event(id, plegState(now, id));
      // one the runtime no longer has: it died first unless it had exited, then it is removed
      for (let i = 0; (id = podID(seen, i)); i++) {
        if (plegState(now, id) !== 'nonexistent') continue;
        event(id, 'exited');
        event(id, 'nonexistent');
      }
      // updateCache: the pod's status as of this relist (a pod gone from the runtime leaves the cache)
      if (now) this.#podCache.set(uid, now);
      else this.#podCache.delete(uid);
      if (!w) continue;
      // upstream: generic.go reconcilePodRecord: a pod reinspected with no event gets PodSync, which syncs it
      if (n === 0) {
        if (this.#reinspect.delete(uid) && this.#pods.has(uid) && w.state !== 'finished') this.#podSync(w);
        continue;
      }
      this.#reinspect.delete(uid);
      // ContainerChanged is not sent ("not reliable and no other components use yet"); ContainerRemoved is
      // sent but not sync-worthy (isSyncPodWorthy)
      let worthy = 0;
      const list: string[] = new Array(n);
      for (let i = 0; i < n; i++) {
        if (types[i] === 'ContainerStarted' || types[i] === 'ContainerDied') worthy++;
        list[i] = `${types[i]} ${eventIds[i].slice(0, 13)}`;
      }
      const known = this.#pods.has(uid);
      // one flat string (joined, not concatenated): the trace keeps it for the whole run
      list[0] = `relist: ${list[0]}`;
      if (!worthy || !known) list[list.length - 1] += ' (cache updated; nothing to sync)';
      this.#ctx.emit('kubelet', 'PLEGEvents', podObject(w.pod), list.join(', '));
      if (known) {
        for (let i = 0; i < n; i++) {
          if ((types[i] !== 'ContainerStarted' && types[i] !== 'ContainerDied') || this.env.verbosity < 2) continue;
          this.env.klog('I', 'kubelet.go:2517', 'SyncLoop (PLEG): event for pod', [
            ['pod', kobj(w.pod)], ['event', JSON.stringify({ ID: uid, Type: types[i], Data: eventIds[i] })],
          ], 2);
        }
        if (worthy && w.state !== 'finished') this.#updatePod(w);
      }
      // upstream: kubelet.go cleanUpContainersInPod, once per ContainerDied, with the cached status
      for (let i = 0; i < n; i++) {
        if (types[i] === 'ContainerDied') this.#cleanUpContainersInPod(w, eventIds[i]);
      }
    }
    // cache.UpdateTime: wake the pod workers waiting for a newer cache
    // (each resumes in a fresh event at the current time, never inside the relist)
    for (const w of this.#cacheWaiters.splice(0)) this.#ctx.loop.after(0, this.#resumeWorker, w);
  }

  /** A PodSync event of the relist: "Make sure we always trigger a PodSync after a full reinspection." */
  // upstream: pkg/kubelet/pleg/generic.go reconcilePodRecord; kubelet.go syncLoopIteration (isSyncPodWorthy)
  #podSync(w: PodWorker): void {
    this.#ctx.emit('kubelet', 'PLEGEvents', podObject(w.pod), 'relist: PodSync (the pod reinspected)');
    if (this.env.verbosity >= 2) {
      this.env.klog('I', 'kubelet.go:2517', 'SyncLoop (PLEG): event for pod', [['pod', kobj(w.pod)], ['event', JSON.stringify({ ID: w.uid, Type: 'PodSync', Data: null })]], 2);
    }
    this.#updatePod(w);
  }

  /**
   * The pod's dead containers to remove: everything once the pod is deleted and terminated (removeAll);
   * otherwise the dead instances of the exited container beyond the newest one (containersToKeep = 1).
   */
  // upstream: pkg/kubelet/kubelet.go cleanUpContainersInPod; pkg/kubelet/pod_container_deletor.go
  //           deleteContainersInPod, getContainersToDeleteInPod
  #cleanUpContainersInPod(w: PodWorker, exitedId: string): void {
    const status = this.#podCache.get(w.uid);
    if (!status) return;
    const removeAll = w.deleted && (w.state === 'finished' || w.state === 'terminated');
    let name: string | undefined; // only the instances of this container (every container's with removeAll)
    let keep = 0;
    if (!removeAll) {
      const matched = status.ContainerStatuses.find((c) => c.ID === exitedId);
      if (!matched) {
        // a sandbox's death reaches here too (the PLEG counts sandboxes as containers), and it is no container
        this.env.klog('I', 'pod_container_deletor.go:80', "Container not found in pod's containers", [['containerID', q(exitedId)]]);
        return;
      }
      name = matched.Name;
      keep = 1;
    }
    // the exited candidates newest first (containerStatusbyCreatedList), beyond the `keep` newest
    for (const c of status.ContainerStatuses) {
      if (c.State !== 'exited' || (name !== undefined && c.Name !== name)) continue;
      if (keep > 0) keep--;
      else this.#enqueueDeletion(c.ID);
    }
  }

  // upstream: pkg/kubelet/pod_container_deletor.go newPodContainerDeletor: one goroutine reads the requests
  // from a channel and removes the containers one after the other.
  #enqueueDeletion(id: string): void {
    this.#deletorFree = Math.max(this.#deletorFree, this.#ctx.now) + this.#ctx.timings.containerRemove;
    this.#ctx.loop.at(this.#deletorFree, this.#removeContainer, id);
  }

  /**
   * DeleteContainer: the topology manager's PostStopContainer logs "RemoveContainer" first; then the log
   * cleanup asks the runtime for the container's status. A container already removed (two ContainerDied
   * events of one relist each ask for it) fails there: the CRI client logs the NotFound, the deletor logs the error.
   */
  // upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go removeContainer, removeContainerLog;
  //           pkg/kubelet/cm/topologymanager/scope.go RemoveContainer; pkg/kubelet/logs/container_log_manager.go
  //           Clean; pkg/kubelet/pod_container_deletor.go ("DeleteContainer returned error")
  readonly #removeContainer = (id: string): void => {
    this.env.klog('I', 'scope.go:122', 'RemoveContainer', [['containerID', q(id)]]);
    if (this.#runtime.containers.has(id)) {
      this.#runtime.removeContainer(id);
      return;
    }
    const rpc = `rpc error: code = NotFound desc = an error occurred when try to find container ${q(id)}: not found`;
    this.env.klog('E', 'log.go:32', 'ContainerStatus from runtime service failed', [['err', q(rpc)], ['containerID', q(id)]]);
    this.env.klog('I', 'pod_container_deletor.go:53', 'DeleteContainer returned error', [
      ['containerID', `{"Type":"containerd","ID":"${id}"}`], ['err', q(`failed to get container status ${q(id)}: ${rpc}`)],
    ]);
  };
  #deletorFree = 0;

  // ---------------------------------------------------------------------------------------------------------
  // Housekeeping and container GC. upstream: kubelet_pods.go HandlePodCleanups, kubelet_volumes.go
  // cleanupOrphanedPodDirs; pkg/kubelet/kuberuntime/kuberuntime_gc.go

  #scheduleHousekeeping(): void {
    if (this.#housekeepingAt >= this.#ctx.now) return;
    const at = this.#tick(this.#ctx.now + 1, this.#ctx.timings.housekeeping, this.#housekeepingPhase);
    this.#housekeepingAt = at;
    this.#ctx.loop.at(at, () => {
      this.#housekeepingAt = -1;
      this.#handlePodCleanups();
    });
  }

  #handlePodCleanups(): void {
    // deleting the current entry while iterating a Map is safe: the iteration goes on with the next one
    for (const w of this.#workers.values()) {
      const uid = w.uid;
      if (w.state !== 'finished' || this.#api.getPod(w.pod.metadata.namespace!, w.pod.metadata.name)?.metadata.uid === uid) continue;
      this.env.klog('I', 'kubelet_volumes.go:161', 'Cleaned up orphaned pod volumes dir', [
        ['podUID', q(uid)], ['path', q(`/var/lib/kubelet/pods/${uid}/volumes`)],
      ]);
      this.#workers.delete(uid);
      this.#lastIPs.delete(uid);
      this.#pods.delete(uid);
      this.rm.startup.delete(uid);
      this.rm.seen.delete(uid);
      this.rm.resized.delete(uid);
      this.#ctx.emit('kubelet', 'PodCleanedUp', podObject(w.pod), 'HandlePodCleanups: orphaned pod volumes dir removed');
    }
  }

  #scheduleGC(): void {
    if (this.#gcAt >= this.#ctx.now) return;
    const at = this.#tick(this.#ctx.now + 1, 60_000);
    this.#gcAt = at;
    this.#ctx.loop.at(at, () => {
      this.#gcAt = -1;
      this.#garbageCollect();
    });
  }

  // upstream: kuberuntime_gc.go (*containerGC).GarbageCollect: evictContainers, evictSandboxes for deleted pods
  #garbageCollect(): void {
    // a pod the API server still has: looked up by its name (a UID names one pod), not by listing every pod
    const live = (ns: string, name: string, uid: string): boolean => this.#api.getPod(ns, name)?.metadata.uid === uid;
    for (const c of [...this.#runtime.containers.values()]) {
      if (c.state === 'CONTAINER_EXITED' && !live(c.podNamespace, c.podName, c.podUid)) {
        this.env.klog('I', 'scope.go:122', 'RemoveContainer', [['containerID', q(c.id)]]);
        this.#runtime.removeContainer(c.id);
      }
    }
    for (const s of [...this.#runtime.sandboxes.values()]) {
      if (s.state === 'SANDBOX_NOTREADY' && !live(s.namespace, s.name, s.podUid) && !this.#runtime.podContainers(s.podUid).length) {
        this.#runtime.removePodSandbox(s.id);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Probes. upstream: pkg/kubelet/prober/prober_manager.go AddPod; pkg/kubelet/prober/worker.go doProbe

  #addProbes(pod: Pod): void {
    const inits = pod.spec.initContainers ?? [];
    // the sidecars (restartable init containers), then the regular containers (no list made: this is every sync)
    for (let i = 0; i < inits.length + pod.spec.containers.length; i++) {
      const c = inits[i] ?? pod.spec.containers[i - inits.length];
      if (i < inits.length && c.restartPolicy !== 'Always') continue;
      for (const type of PROBE_TYPES) {
        const probe = type === 'liveness' ? c.livenessProbe : type === 'readiness' ? c.readinessProbe : c.startupProbe;
        if (!probe) continue;
        const key = `${pod.metadata.uid}/${c.name}/${type}`;
        if (this.#probeWorkers.has(key)) continue;
        const w: ProbeWorker = { pod, container: c, type, containerID: '', resultRun: 0, onHold: false, runs: 0, stopped: false };
        this.#probeWorkers.set(key, w);
        this.#ctx.loop.spawn(handlersOf(this.#ctx).probeLoop(this.env, this.#prober, w, probe.periodSeconds * 1000));
      }
    }
  }

  #stopProbes(uid: string, types: string[]): void {
    for (const [k, w] of this.#probeWorkers) {
      if (k.startsWith(`${uid}/`) && types.includes(w.type)) {
        w.stopped = true;
        this.#probeWorkers.delete(k);
      }
    }
  }

  #probeCache(type: ProbeWorker['type']): Map<string, ProbeResult> {
    return type === 'readiness' ? this.#readiness : type === 'liveness' ? this.rm.probeResults.liveness : this.rm.probeResults.startup;
  }

  /** What a probe worker (kubelet/handlers.ts probeLoop) reads of the kubelet, and the result it hands back. */
  readonly #prober: Prober = {
    status: (uid) => this.#workers.get(uid)?.status,
    pod: (uid, pod) => this.#pods.get(uid) ?? pod,
    apiStatus: (pod) => this.#api.getPod(pod.metadata.namespace!, pod.metadata.name)?.status ?? pod.status,
    cache: (type) => this.#probeCache(type),
    set: (w, result) => this.#setProbeResult(w, result),
    done: (w) => this.#probeWorkers.delete(`${w.pod.metadata.uid}/${w.container.name}/${w.type}`),
  };

  // upstream: pkg/kubelet/prober/results/results_manager.go Set; kubelet.go syncLoopIteration (probe updates)
  #setProbeResult(w: ProbeWorker, result: ProbeResult): void {
    const cache = this.#probeCache(w.type);
    if (cache.get(w.containerID) === result) return;
    cache.set(w.containerID, result);
    const worker = this.#workers.get(w.pod.metadata.uid);
    if (!worker) return;
    const status = w.type === 'readiness' ? (result === 'Success' ? 'ready' : 'not ready') : result === 'Success' ? 'healthy' : result === 'Failure' ? 'unhealthy' : 'unknown';
    this.env.klog('I', 'kubelet.go:2601', 'SyncLoop (probe)', [['probe', q(w.type)], ['status', q(status)], ['pod', kobj(worker.pod)]], 1);
    this.#updatePod(worker);
  }
}

/**
 * `{ ...target, ...src }` for plain objects, as a for-in copy: the statuses and conditions the status manager copies
 * come in several shapes, where an object spread falls back to its slow generic path.
 */
// A plain object (Object.prototype) made by a constructor, so that V8 sizes these objects by the fields they end up
// with: the fields of a literal beyond its own go to a separate property array, regrown as they are added.
function Plain(): void {}
Plain.prototype = Object.prototype;
const plain = <T>(): T => new (Plain as unknown as new () => T)();

function copyFields<T extends object>(target: T, src: object): T {
  for (const k in src) (target as Record<string, unknown>)[k] = (src as Record<string, unknown>)[k];
  return target;
}

/** The StatusUpdated detail: one string per pair of phases, shared by every pod's trace. */
function statusUpdated(phase: PodStatus['phase'], was: PodStatus['phase']): string {
  // looked up by phase, then by the phase before (a key joined from both would be a new string per call)
  let byWas = statusDetails.get(phase);
  if (byWas === undefined) statusDetails.set(phase, (byWas = new Map()));
  let detail = byWas.get(was);
  if (detail === undefined) byWas.set(was, (detail = `status: phase ${phase}${phase !== was ? ` (was ${was})` : ''}`));
  return detail;
}
const statusDetails = new Map<PodStatus['phase'], Map<PodStatus['phase'], string>>();


/** Go's Duration.Seconds(): whole seconds plus the nanoseconds over 1e9, which can differ from ms / 1000 in the last digit. */
function durationSeconds(ms: number): number {
  const sec = Math.trunc(ms / 1000);
  return sec + ((ms - sec * 1000) * 1e6) / 1e9;
}

/** The time spent pulling, overlapping sessions counted once. upstream: pod_startup_latency_tracker.go calculateImagePullingTime */
function imagePullingTime(sessions: number[]): number {
  let total = 0;
  let end = 0;
  for (let i = 0; i < sessions.length; i += 2) {
    const s = sessions[i];
    const e = sessions[i + 1];
    if (i === 0 || s > end) total += e - s;
    else if (e > end) total += e - end;
    else continue; // inside the sessions before it
    end = e;
  }
  return total;
}

// volume sources that keep no state: a pod that mounts only these is not stateful for the startup SLI
const STATELESS_SOURCES = ['secret', 'configMap', 'downwardAPI', 'emptyDir', 'projected', 'gitRepo', 'image', 'ephemeral'];

/** upstream: pod_startup_latency_tracker.go isStatefulPod */
function isStatefulPod(pod: Pod): boolean {
  for (const v of pod.spec.volumes ?? []) {
    const src = v as unknown as Record<string, unknown>;
    if (STATELESS_SOURCES.some((k) => src[k] != null)) continue;
    const csi = src.csi as { volumeAttributes?: Record<string, string> } | undefined;
    if (csi?.volumeAttributes?.['csi.storage.k8s.io/ephemeral'] === 'true') continue;
    return true;
  }
  return false;
}
