// The engine: wires the API server, the scheduler, and one container runtime + kubelet per node onto one
// virtual clock, and answers state() / stateAt(t) from the change history. What only some runs need (patches, the
// validation, the containers' environment, the shell's redirections, hooks and probes) comes in as EngineModules, so
// the player's first load can leave it out: engine.ts's createEngine is this with all of them.

import type { ApplyResult, ClusterAction, ConfigAction, ConfigObject, NodePatchAction, ClusterState, CriContainer, CriImage, CriSandbox, Engine, KubeEvent, Node, NodeRuntime, Pod, TraceEvent } from './types.ts';
import { EventLoop } from './core/loop.ts';
import { History, type Collection } from './core/history.ts';
import { SimContext, type BinariesModule } from './core/context.ts';
import { DEFAULT_TIMINGS, type Timings } from './core/timings.ts';
import { ApiServer, NAMESPACE_NAMES, noSupport, type Patches, type Validation } from './api/apiserver.ts';
import { parseImageRef } from './api/imageref.ts';
import { mergePatch } from './api/merge-patch.ts';
import { Scheduler } from './scheduler/scheduler.ts';
import { tolerates } from './scheduler/framework.ts';
import { ContainerRuntime, RUNTIME_VERSION } from './runtime/cri.ts';
import { Kubelet, type EnvSupport } from './kubelet/kubelet.ts';
import type { RedirectModule } from './runtime/shell.ts';
import type { FilesModule, HandlersModule } from './kubelet/env.ts';
import { DEFAULT_EPOCH, DEFAULT_NODE, type EngineConfig, type ImageBehaviour } from './config.ts';

export interface EngineOptions {
  seed?: number;
}

function upperBoundByT(list: { t: number }[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class SimEngine implements Engine {
  readonly #ctx: SimContext;
  readonly #api: ApiServer;
  readonly #nodes: string[];
  readonly #verbosity: (number | undefined)[];
  readonly #runtimes: ContainerRuntime[];
  readonly #kubelets: Kubelet[];
  readonly #coll: { pods: number; events: number; nodes: number; sandboxes: number[]; containers: number[]; images: number[] };
  #cache: { key: string; state: ClusterState } | undefined;
  readonly #patches: Patches | undefined;

  constructor(config: EngineConfig, opts: EngineOptions, { patches, validation, env, redirect, handlers, files, binaries, configs }: EngineModules) {
    const timings: Timings = { ...DEFAULT_TIMINGS, ...(config.timings ?? {}) };
    const images: Record<string, ImageBehaviour> = {};
    for (const [ref, b] of Object.entries(config.images ?? {})) images[parseImageRef(ref).normalized] = b;
    const history = new History();
    this.#ctx = new SimContext(new EventLoop(), opts.seed ?? 1, history, config.start ?? DEFAULT_EPOCH, timings);
    this.#ctx.redirect = redirect;
    this.#ctx.envBuiltin = env?.envBuiltin;
    this.#ctx.arith = env?.arith;
    this.#ctx.handlers = handlers;
    this.#ctx.files = files;
    this.#ctx.binaries = binaries;
    this.#api = new ApiServer(this.#ctx, patches, validation);
    configs?.addConfigStore(this.#ctx, this.#api, NAMESPACE_NAMES, { ...patches, mergePatch });
    this.#patches = patches;
    // nodes change only through patches, so the controllers that react to a node update come with them. The node
    // lifecycle controller watches nodes before the scheduler, so a retry after a cordon or uncordon sees its taint.
    if (patches?.NodeLifecycleController) new patches.NodeLifecycleController(this.#ctx, this.#api);
    if (patches?.TaintEvictionController) new patches.TaintEvictionController(this.#ctx, this.#api, tolerates);
    new Scheduler(this.#ctx, this.#api);
    const nodes = config.nodes?.length ? config.nodes : [DEFAULT_NODE];
    this.#nodes = nodes.map((n) => n.name);
    this.#verbosity = nodes.map((n) => n.kubeletVerbosity);
    this.#runtimes = [];
    this.#kubelets = [];
    for (const n of nodes) {
      const rt = new ContainerRuntime(this.#ctx, n, images);
      this.#runtimes.push(rt);
      this.#kubelets.push(new Kubelet(this.#ctx, this.#api, rt, n, patches?.resize?.kubelet, env));
      patches?.watchNodeSchedulable?.(this.#ctx, this.#api, n.name, n.unschedulable === true);
    }
    this.#coll = {
      pods: history.collection('pods'),
      events: history.collection('events'),
      nodes: history.collection('nodes'),
      sandboxes: this.#nodes.map((n) => history.collection(`sandboxes/${n}`)),
      containers: this.#nodes.map((n) => history.collection(`containers/${n}`)),
      images: this.#nodes.map((n) => history.collection(`images/${n}`)),
    };
  }

  get now(): number {
    return this.#ctx.loop.now;
  }

  get trace(): readonly TraceEvent[] {
    return this.#ctx.trace;
  }

  advanceTo(t: number): void {
    if (!(t >= this.now)) throw new RangeError(`advanceTo(${t}): time cannot go backwards (now is ${this.now} ms)`);
    this.#ctx.loop.runUntil(t);
  }

  apply(action: NodePatchAction): ApplyResult<Node>;
  apply(action: ConfigAction): ApplyResult<ConfigObject>;
  apply(action: Exclude<ClusterAction, NodePatchAction | ConfigAction>): ApplyResult;
  apply(action: ClusterAction): ApplyResult<Pod | Node | ConfigObject>;
  apply(action: ClusterAction): ApplyResult<Pod | Node | ConfigObject> {
    const api = this.#api;
    switch (action.type) {
      case 'create':
        return api.createPod(action.namespace, action.obj, action.fieldValidation);
      case 'delete':
        return api.deletePod(action.namespace, action.name, { gracePeriodSeconds: action.gracePeriodSeconds, force: action.force });
      case 'patch':
        if (action.kind === 'Node') return api.patchNode(action.name, action.patchType, action.patch, 'apiserver', action.fieldValidation);
        return api.patchPod(action.namespace, action.name, action.patchType, action.patch, action.subresource, action.fieldValidation);
      case 'createWhenGone': {
        const create = this.#patches?.createWhenGone;
        return create ? create(this.#ctx, api, action) : noSupport('kubectl replace --force');
      }
      case 'evict': {
        const evict = this.#patches?.evictPod;
        if (!evict) return noSupport('the Eviction API');
        return evict(this.#ctx, api, action.namespace, action.name, action.gracePeriodSeconds);
      }
      case 'stopPodSandbox': {
        const stop = this.#patches?.stopPodSandbox;
        if (!stop) return noSupport('crictl stopp');
        return stop(this.#ctx, api, this.#runtimes[this.#nodes.indexOf(action.node)], action.node, action.id);
      }
      case 'config':
        return this.#ctx.configs?.apply(action) ?? noSupport('ConfigMaps and Secrets');
      case 'exec': {
        const exec = this.#patches?.execInContainer;
        if (!exec) return noSupport('kubectl exec');
        return exec(this.#ctx, api, (node) => this.#runtimes[this.#nodes.indexOf(node)], action);
      }
    }
  }

  /**
   * A ClusterState whose arrays are built on first read (each once): reading `pods` alone does not copy logs.
   * The result is a plain object with enumerable properties (JSON.stringify and spreading see every field).
   */
  #build(t: number, count: number, logsUpTo: number, kubeletLogsUpTo: number): ClusterState {
    const c = this.#coll;
    const ctx = this.#ctx;
    const h = ctx.history;
    const length = h.length;
    let snapshot: Collection[] | undefined;
    // while nothing has changed since, the live collections are the state; after that, the history rebuilds it
    const coll = (i: number): Collection => {
      if (count >= length && h.length === length) return h.live[i];
      snapshot ??= h.snapshot(count);
      return snapshot[i];
    };
    const values = <T>(i: number): T[] => [...coll(i).values()] as T[];
    const state = { t, epoch: ctx.epoch } as ClusterState;
    const lazy = <K extends keyof ClusterState>(key: K, make: () => ClusterState[K]): void => {
      Object.defineProperty(state, key, {
        enumerable: true,
        configurable: true,
        get() {
          const value = make();
          Object.defineProperty(state, key, { value, enumerable: true, writable: false, configurable: false });
          return value;
        },
      });
    };
    lazy('pods', () => values<Pod>(c.pods));
    lazy('events', () => values<KubeEvent>(c.events));
    lazy('nodes', () => values<Node>(c.nodes));
    lazy('runtimes', () =>
      this.#nodes.map((node, i): NodeRuntime => ({
        node,
        kubeletPid: this.#runtimes[i].kubeletPid,
        runtimeVersion: RUNTIME_VERSION,
        sandboxes: values<CriSandbox>(c.sandboxes[i]),
        containers: values<CriContainer>(c.containers[i]),
        images: values<CriImage>(c.images[i]),
        ...(this.#verbosity[i] !== undefined ? { kubeletVerbosity: this.#verbosity[i] } : {}),
      })),
    );
    ctx.configs?.state(lazy, coll);
    lazy('kubeletLogs', () => ctx.kubeletLogs.slice(0, kubeletLogsUpTo));
    lazy('containerLogs', () => ctx.containerLogs.slice(0, logsUpTo));
    return state;
  }

  state(): ClusterState {
    return this.stateAt(this.now);
  }

  changeTimes(from: number, to: number): number[] {
    return this.#ctx.history.timesBetween(from, Math.min(to, this.now));
  }

  stateAt(t: number): ClusterState {
    if (!(t >= 0 && t <= this.now)) throw new RangeError(`stateAt(${t}): t must be between 0 and now (${this.now} ms)`);
    const h = this.#ctx.history;
    const count = h.countUpTo(t);
    const logs = upperBoundByT(this.#ctx.containerLogs, t);
    const klogs = upperBoundByT(this.#ctx.kubeletLogs, t);
    const key = `${t}/${count}/${h.length}/${logs}/${klogs}`;
    if (this.#cache?.key === key) return this.#cache.state;
    const state = this.#build(t, count, logs, klogs);
    this.#cache = { key, state };
    return state;
  }
}

/**
 * What only some runs need, passed in rather than imported, so that a page's replay loads each only for a run that
 * needs it (components/player/replay.ts decides from the recorded actions). engine.ts's createEngine has them all.
 */
export interface EngineModules {
  /** api/patch.ts (with `resize`): without it, a patch action fails with an internal error. */
  patches?: Patches;
  /**
   * api/validation.ts, with the strict decoding: without it, the API server takes every request as decodable and
   * valid, which only a replay of requests that passed both may rely on.
   */
  validation?: Validation;
  /** kubelet/envvars.ts: without it, a container's environment is empty and the kubelet does not expand $(VAR). */
  env?: EnvSupport;
  /** runtime/redirect.ts: without it, the containers' shell parses no redirection. */
  redirect?: RedirectModule;
  /** kubelet/handlers.ts: without it, a pod's probes and lifecycle hooks cannot run. */
  handlers?: HandlersModule;
  /** kubelet/etcfiles.ts: without it, a container reads no /etc/hosts, /etc/hostname or /etc/resolv.conf. */
  files?: FilesModule;
  /** runtime/binaries.ts: without it, every command a container names starts, even one its image lacks. */
  binaries?: BinariesModule;
  /** api/configs.ts: without it, the cluster has no ConfigMap but kube-root-ca.crt and no Secret, and cannot make one. */
  configs?: Pick<typeof import('./api/configs.ts'), 'addConfigStore'>;
}

/** A live simulated cluster. Same config, seed and calls → byte-identical trace and states. */
export function createEngineCore(config: EngineConfig, opts: EngineOptions, modules: EngineModules = {}): Engine {
  return new SimEngine(config, opts, modules);
}
