// The API server: the store of Pods, Events and Nodes with resourceVersions, create (decode → default → validate),
// graceful deletion with finalizers, patch, the scheduler's binding and the kubelet's status updates, and watches.
// upstream: pkg/registry/core/pod/strategy.go (PrepareForCreate, CheckGracefulDelete); staging/src/k8s.io/apiserver/
//           pkg/registry/generic/registry/store.go (Delete, Update → deleteWithoutFinalizers); pkg/registry/core/pod/
//           storage/storage.go (BindingREST.setPodNodeAndMetadata)

import type { ApiStatus, ApplyResult, FieldValidation, KubeEvent, PatchType, Node, Pod, PodCondition, PodSpec, PodStatus } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import { admitDefaultTolerationSeconds, admitPriority, computePodQOS, defaultPodSpec, setDefaultsPodSpec } from './defaults.ts';
import type * as validationModule from './validation.ts';
import { alreadyExistsStatus, badRequestStatus, GoRepr, invalidStatus, notFoundStatus, renamedStatus, unprocessableStatus } from './fielderrors.ts';
import type * as patchModule from './patch.ts';
import type * as resizeModule from '../resize.ts';
import { mergePatch } from './merge-patch.ts';
import { EventRecorder, type EventInput } from './events.ts';
import { kept } from '../core/kept.ts';
import { clone } from '../core/clone.ts';
import { podNames } from '../core/names.ts';

/**
 * The namespaces of a fresh kubeadm cluster, fixed for the run. Their objects (namespaces.ts) are made only for
 * the commands that print them.
 */
export const NAMESPACE_NAMES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type PodWatcher = (type: WatchType, pod: Pod) => void;
/**
 * JSON patch and strategic merge patch (api/patch.ts), and the resize subresource (src/sim/resize.ts), passed in so
 * that an engine that never needs them does not load them; JSON merge patch is always there.
 */
export type Patches = Pick<typeof patchModule, 'jsonPatch' | 'strategicMergePatch' | 'PatchError' | 'PatchDecodeError' | 'API_SERVER_COPY_LIMIT'> & Partial<Pick<typeof patchModule, 'patchNode' | 'NodeLifecycleController' | 'TaintEvictionController' | 'watchNodeSchedulable' | 'stopPodSandbox' | 'evictPod' | 'execInContainer' | 'createWhenGone'>> & { resize?: typeof resizeModule };

const podKey = (ns: string, name: string): string => podNames(ns, name).key;

/**
 * The API server's strict decoding and validation (api/validation.ts, which re-exports schema.ts), passed in: every
 * engine has them but the player's replay of a run recorded at build time, whose every request passed them then (a
 * replay that holds a rejected request, or that patches a node, loads them).
 */
export type Validation = Pick<typeof validationModule, 'admitRuntimeClass' | 'isQualifiedName' | 'isValidLabelValue' | 'validateMeta' | 'validatePodCreate' | 'validatePodEphemeralContainersUpdate' | 'validatePodUpdate' | 'decodePodUnder' | 'decodePatchedPod' | 'decodePatchedUnder' | 'objectMeta' | 'patchBodyError'>;

/** A node informer's update handler: the new object and the one it replaced. */
export type NodeWatcher = (node: Node, old: Node) => void;

/** The answer to a request whose support was left out of this engine (createEngineCore's modules). */
export function noSupport(what: string): ApplyResult<never> {
  const message = `podlife: this engine was created without support for ${what} (use createEngine, or pass api/patch.ts to createEngineCore)`;
  return { ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'InternalError', code: 500 } };
}

export class ApiServer {
  /** The stored pods by "namespace/name": the history's live collection of pods, which every change goes through. */
  readonly pods: Map<string, Pod>;
  readonly nodes = new Map<string, Node>();
  readonly events: EventRecorder;
  readonly #ctx: SimContext;
  readonly #cPods: number;
  readonly #cEvents: number;
  readonly #cNodes: number;
  readonly #watchers: PodWatcher[] = [];
  /** Watchers with a spec.nodeName field selector (the kubelets), by node. */
  readonly #nodeWatchers = new Map<string, PodWatcher[]>();
  #rv: number;

  readonly #patches: Patches | undefined;
  readonly #validation: Validation | undefined;

  constructor(ctx: SimContext, patches?: Patches, validation?: Validation) {
    this.#ctx = ctx;
    this.#patches = patches;
    this.#validation = validation;
    this.#cPods = ctx.history.collection('pods');
    this.pods = ctx.history.live[this.#cPods] as Map<string, Pod>;
    this.#cEvents = ctx.history.collection('events');
    this.#cNodes = ctx.history.collection('nodes');
    this.#rv = 1000 + ctx.rng.int(0, 8000);
    this.events = new EventRecorder(
      ctx,
      (ev) => ctx.history.put(ctx.now, this.#cEvents, kept`${ev.metadata.namespace}/${ev.metadata.name}`, ev),
      () => this.nextRV(),
    );
  }

  nextRV(): string {
    return String(++this.#rv);
  }

  /**
   * Subscribe to pod changes; delivered after the watch latency, in order. With `nodeName`, only pods bound to that
   * node are delivered, as the kubelet's watch with the field selector spec.nodeName=<node> sees them.
   */
  watchPods(w: PodWatcher, opts: { nodeName?: string } = {}): void {
    if (opts.nodeName === undefined) this.#watchers.push(w);
    else {
      const list = this.#nodeWatchers.get(opts.nodeName) ?? [];
      list.push(w);
      this.#nodeWatchers.set(opts.nodeName, list);
    }
  }

  #notify(type: WatchType, pod: Pod): void {
    const node = pod.spec.nodeName;
    const scoped = node === undefined ? undefined : this.#nodeWatchers.get(node);
    const delay = this.#ctx.timings.watch;
    if (!(delay > 0)) return this.#deliver(type, pod, scoped);
    // every change waits the same latency (fixed for the run), so deliveries fall due in the order they are queued:
    // one shared task takes the oldest (a queue entry instead of a closure per change)
    this.#pending.push(type, pod, scoped);
    this.#ctx.loop.after(delay, this.#deliverNext);
  }

  /** Changes waiting for the watch latency: (type, pod, node-scoped watchers), oldest from #head. */
  readonly #pending: (WatchType | Pod | PodWatcher[] | undefined)[] = [];
  #head = 0;
  readonly #deliverNext = (): void => {
    const p = this.#pending;
    const i = this.#head;
    const type = p[i] as WatchType;
    const pod = p[i + 1] as Pod;
    const scoped = p[i + 2] as PodWatcher[] | undefined;
    this.#head = i + 3;
    // emptied: start over; mostly delivered: drop the delivered part
    if (this.#head === p.length) p.length = this.#head = 0;
    else if (this.#head > 6000 && this.#head * 2 > p.length) {
      p.copyWithin(0, this.#head);
      p.length -= this.#head;
      this.#head = 0;
    }
    this.#deliver(type, pod, scoped);
  };

  #deliver(type: WatchType, pod: Pod, scoped: PodWatcher[] | undefined): void {
    // indexed (an array iterator per loop and delivery otherwise)
    const all = this.#watchers;
    for (let i = 0; i < all.length; i++) all[i](type, pod);
    if (scoped) for (let i = 0; i < scoped.length; i++) scoped[i](type, pod);
  }

  /** A new version of a stored pod (with a new spec or status): one copy, with the next resourceVersion. */
  #store(pod: Pod, type: WatchType, spec: PodSpec = pod.spec, status: PodStatus = pod.status): Pod {
    return this.#put({ ...pod, metadata: { ...pod.metadata, resourceVersion: this.nextRV() }, spec, status }, type);
  }

  /** Store a pod object made for this version (its resourceVersion set) and notify the watchers. */
  #put(stored: Pod, type: WatchType): Pod {
    this.#ctx.history.put(this.#ctx.now, this.#cPods, podKey(stored.metadata.namespace!, stored.metadata.name), stored);
    this.#notify(type, stored);
    return stored;
  }

  #remove(pod: Pod): Pod {
    const key = podKey(pod.metadata.namespace!, pod.metadata.name);
    const last: Pod = { ...pod, metadata: { ...pod.metadata, resourceVersion: this.nextRV() } };
    this.#ctx.history.put(this.#ctx.now, this.#cPods, key, undefined);
    this.#ctx.emit('apiserver', 'PodRemoved', podNames(pod.metadata.namespace!, pod.metadata.name).object, kept`pod "${pod.metadata.name}" removed from the API server`);
    this.#notify('DELETED', last);
    return last;
  }

  getPod(ns: string, name: string): Pod | undefined {
    return this.pods.get(podKey(ns, name));
  }

  /** Store a node (the kubelet registering it, or a patch) with the next resourceVersion. */
  addNode(node: Node): Node {
    const name = node.metadata.name;
    const stored = { ...node, metadata: { ...node.metadata, resourceVersion: this.nextRV() } };
    this.nodes.set(name, stored);
    this.#ctx.history.put(this.#ctx.now, this.#cNodes, name, stored);
    return stored;
  }

  readonly #nodeUpdateWatchers: NodeWatcher[] = [];

  /** Subscribe to node updates (an informer's UpdateFunc: the old and the new object), after the watch latency. */
  watchNodes(w: NodeWatcher): void {
    this.#nodeUpdateWatchers.push(w);
  }

  /**
   * PATCH nodes/{name} (kubectl label/annotate/cordon/uncordon/taint). Node patches need the patch module (api/patch.ts
   * patchNode: decoding, the fields a patch may change, ValidateNodeUpdate).
   */
  patchNode(
    name: string, patchType: PatchType, patch: unknown, actor: 'apiserver' | 'controller-manager' = 'apiserver',
    fieldValidation: FieldValidation = 'Warn',
  ): ApplyResult<Node> {
    const node = this.nodes.get(name);
    if (!node) return { ok: false, status: notFoundStatus('nodes', name) };
    const apply = this.#patches?.patchNode;
    const v = this.#validation;
    if (!apply || !v) return noSupport('node patches (and api/validation.ts)');
    const r = apply(node, patchType, patch, {
      isQualifiedName: v.isQualifiedName, isValidLabelValue: v.isValidLabelValue, validateMeta: v.validateMeta, badRequestStatus, invalidStatus, unprocessableStatus, GoRepr, mergePatch, decodePatchedUnder: v.decodePatchedUnder, objectMeta: v.objectMeta,
    }, fieldValidation);
    if ('status' in r) return { ok: false, status: r.status };
    const warned = withWarnings(r.warnings);
    if (r.unchanged) return { ok: true, object: node, unchanged: true, ...warned };
    const stored = this.addNode(r.node);
    this.#ctx.emit(actor, 'NodePatched', `node/${name}`, `node "${name}" patched (${patchType})`);
    for (const w of this.#nodeUpdateWatchers) this.#ctx.loop.after(this.#ctx.timings.watch, () => w(stored, node));
    return { ok: true, object: stored, ...warned };
  }

  recordEvent(input: EventInput): KubeEvent | undefined {
    return this.events.record(input);
  }

  /** POST /api/v1/namespaces/{ns}/pods; unknown fields as `fieldValidation` says (Strict: what kubectl asks for). */
  createPod(namespace: string, obj: unknown, fieldValidation: FieldValidation = 'Strict'): ApplyResult {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      return { ok: false, status: badRequestStatus('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf') };
    }
    let raw = clone(obj) as Record<string, any>;
    if (raw.apiVersion !== undefined && raw.apiVersion !== 'v1') {
      return { ok: false, status: badRequestStatus(`the API version in the data (${raw.apiVersion}) does not match the expected API version (v1)`) };
    }
    if (raw.kind !== undefined && raw.kind !== 'Pod') {
      return { ok: false, status: badRequestStatus(`the kind in the data (${raw.kind}) does not match the expected kind (Pod)`) };
    }
    let warned: { warnings?: string[] } = {};
    if (this.#validation) {
      const decoded = this.#validation.decodePodUnder(raw, fieldValidation);
      if (!decoded.ok) return { ok: false, status: decoded.status };
      raw = decoded.object;
      warned = withWarnings(decoded.warnings);
    }
    raw.apiVersion = 'v1';
    raw.kind = 'Pod';
    raw.metadata ??= {};
    raw.spec ??= {};
    const meta = raw.metadata;
    if (meta.namespace && meta.namespace !== namespace) {
      return { ok: false, status: badRequestStatus('the namespace of the provided object does not match the namespace sent on the request') };
    }
    meta.namespace = namespace;
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${this.#ctx.rng.nameSuffix(5)}`;
    defaultPodSpec(raw.spec, { volumeSuffix: this.#ctx.rng.nameSuffix(5) });
    const forbidden = admitPriority(raw.spec, meta.name ?? '') ?? this.#validation?.admitRuntimeClass(raw.spec, meta.name ?? '');
    if (forbidden) {
      return { ok: false, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: forbidden, reason: 'Forbidden', details: { name: meta.name, kind: 'pods' }, code: 403 } };
    }
    const errs = this.#validation ? this.#validation.validatePodCreate(raw) : [];
    if (errs.length) return { ok: false, status: invalidStatus('Pod', meta.name ?? '', errs) };
    // the NamespaceLifecycle admission plugin (validating, after the strategy's validation): the cluster's
    // namespaces are fixed (api/namespaces.ts)
    if (!NAMESPACE_NAMES.includes(namespace)) return { ok: false, status: notFoundStatus('namespaces', namespace) };
    if (this.pods.has(podKey(namespace, meta.name))) return { ok: false, status: alreadyExistsStatus('pods', meta.name) };

    // upstream: strategy.go podStrategy.PrepareForCreate; store.go BeforeCreate (uid, creationTimestamp, generation)
    const metadata: Pod['metadata'] = {
      name: meta.name,
      namespace,
      uid: this.#ctx.rng.uuid(),
      resourceVersion: this.nextRV(),
      creationTimestamp: this.#ctx.rfc3339(),
      generation: 1,
    };
    for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
      if (meta[k] !== undefined) (metadata as any)[k] = meta[k];
    }
    const spec = raw.spec as Pod['spec'];
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec, status: { phase: 'Pending', qosClass: computePodQOS(spec) } };
    const stored = this.#put(pod, 'ADDED');
    this.#ctx.emit('apiserver', 'PodCreated', podNames(namespace, meta.name).object, kept`pod "${meta.name}" created (uid ${metadata.uid})`);
    return { ok: true, object: stored, ...warned };
  }

  /** DELETE, with the pod strategy's graceful deletion rules. */
  deletePod(namespace: string, name: string, opts: { gracePeriodSeconds?: number; force?: boolean; uid?: string } = {}): ApplyResult {
    const pod = this.getPod(namespace, name);
    if (!pod || (opts.uid && pod.metadata.uid !== opts.uid)) return { ok: false, status: notFoundStatus('pods', name) };
    // upstream: strategy.go podStrategy.CheckGracefulDelete
    let grace = opts.force ? 0 : (opts.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds);
    if (grace < 0) grace = 1;
    if (!pod.spec.nodeName) grace = 0;
    if (pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed') grace = 0;
    const meta = pod.metadata;
    // upstream: store.go (*Store).Delete / rest.BeforeDelete: an existing deletion can only be shortened
    if (meta.deletionTimestamp && meta.deletionGracePeriodSeconds !== undefined && grace >= meta.deletionGracePeriodSeconds) {
      return { ok: true, object: pod };
    }
    const finalizers = meta.finalizers ?? [];
    if (grace === 0 && finalizers.length === 0) {
      const last = this.#remove(pod);
      this.#ctx.emit('apiserver', 'PodDeleted', podNames(namespace, name).object, kept`pod "${name}" deleted immediately (grace period 0)`);
      return { ok: true, object: last, deleted: true };
    }
    const stored = this.#put({
      ...pod,
      metadata: {
        ...meta,
        resourceVersion: this.nextRV(),
        deletionTimestamp: this.#ctx.rfc3339(this.#ctx.now + grace * 1000),
        deletionGracePeriodSeconds: grace,
        generation: (meta.generation ?? 1) + 1,
      },
    }, 'MODIFIED');
    this.#ctx.emit(
      'apiserver', 'PodTerminating', podNames(namespace, name).object,
      `deletionTimestamp set, grace period ${grace}s${finalizers.length ? `; finalizers ${JSON.stringify(finalizers)} keep the object` : ''}`,
    );
    return { ok: true, object: stored };
  }

  /** PATCH the pod, or its ephemeralcontainers or resize subresource; not its status. */
  patchPod(
    namespace: string, name: string, patchType: PatchType, patch: unknown, subresource?: 'ephemeralcontainers' | 'resize',
    fieldValidation: FieldValidation = 'Warn',
  ): ApplyResult {
    const pod = this.getPod(namespace, name);
    if (!pod) return { ok: false, status: notFoundStatus('pods', name) };
    const p = this.#patches;
    const resize = subresource === 'resize' && p?.resize?.api;
    if ((!p && patchType !== 'merge') || (subresource === 'resize' && !resize)) return noSupport(`${subresource === 'resize' ? 'resize' : patchType} patches`);
    // how the body decodes is the decoding's (validation.ts): a replay without it holds no request it refused
    const undecodable = this.#validation?.patchBodyError(patchType, patch);
    if (undecodable !== undefined) return { ok: false, status: badRequestStatus(undecodable) };
    let next: any;
    try {
      if (patchType === 'json') next = p!.jsonPatch(pod, patch, p!.API_SERVER_COPY_LIMIT);
      // a strategic merge patch of null decodes to no map: nothing changes
      else next = patchType === 'merge' ? mergePatch(pod, patch) : patchType === 'put' ? clone(patch) : p!.strategicMergePatch(pod, patch ?? {});
    } catch (e) {
      // a JSON patch that is not a list of operations: DecodePatch's error, a Bad Request
      if (p && e instanceof p.PatchDecodeError) return { ok: false, status: badRequestStatus(e.message) };
      if (p && e instanceof p.PatchError) return { ok: false, status: unprocessableStatus() };
      throw e;
    }
    if (typeof next !== 'object' || next === null) return { ok: false, status: badRequestStatus('the patch produced an invalid object') };
    // unknown fields: the patched object is decoded as `fieldValidation` says (kubectl patch names none: Warn)
    let warned: { warnings?: string[] } = {};
    if (this.#validation) {
      const decoded = this.#validation.decodePatchedPod(next, fieldValidation, patchType, patch);
      if (!decoded.ok) return { ok: false, status: decoded.status };
      next = decoded.object;
      warned = withWarnings(decoded.warnings);
    }
    // upstream: strategy.go dropNonEphemeralContainerUpdates: the subresource takes only spec.ephemeralContainers
    // (a patch that leaves none where there were none changes nothing, so an undefined one is never stored)
    if (subresource === 'ephemeralcontainers') next = { ...pod, metadata: { ...pod.metadata }, spec: { ...pod.spec, ephemeralContainers: next.spec?.ephemeralContainers } };
    // a patch shares what it left alone with the stored pod, which is never written to (history.ts): what the server
    // writes below goes into copies
    next = { ...next, metadata: { ...next.metadata }, spec: { ...next.spec } };
    if (next.metadata.name !== name) return { ok: false, status: renamedStatus(next.metadata.name, name) };
    if (next.metadata.resourceVersion !== undefined && next.metadata.resourceVersion !== pod.metadata.resourceVersion) {
      return { ok: false, status: conflictStatus(name) };
    }
    // fields the server owns; the status subresource is not writable through the main resource
    const m = next.metadata;
    // (BeforeUpdate: a uid left out is the object's; one given must be it, which validation checks)
    m.uid ||= pod.metadata.uid;
    for (const k of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'resourceVersion', 'namespace'] as const) {
      if ((pod.metadata as any)[k] === undefined) delete m[k];
      else m[k] = (pod.metadata as any)[k];
    }
    if (Array.isArray(m.finalizers) && m.finalizers.length === 0) delete m.finalizers;
    next.status = pod.status;
    next.apiVersion = 'v1';
    next.kind = 'Pod';
    // the patched object is decoded with the v1 defaults, and DefaultTolerationSeconds admits updates too
    setDefaultsPodSpec(next.spec);
    admitDefaultTolerationSeconds(next.spec);
    // Priority admission on update keeps what it set on create (a PUT's body may leave it out)
    next.spec.priority ??= pod.spec.priority;
    next.spec.preemptionPolicy ??= pod.spec.preemptionPolicy;
    if (resize) next = resize.dropNonResizeUpdates(next, pod);
    const v = this.#validation;
    const errs = resize ? resize.validatePodResize(next, pod)
      : !v ? []
        : subresource === 'ephemeralcontainers' ? v.validatePodEphemeralContainersUpdate(next, pod) : v.validatePodUpdate(next, pod);
    if (errs.length) return { ok: false, status: invalidStatus('Pod', name, errs) };
    if (JSON.stringify(next.spec) !== JSON.stringify(pod.spec)) next.metadata.generation = (pod.metadata.generation ?? 1) + 1;
    if (JSON.stringify(next) === JSON.stringify(pod)) return { ok: true, object: pod, unchanged: true, ...warned };
    const stored = this.#store(next as Pod, 'MODIFIED');
    this.#ctx.emit('apiserver', 'PodPatched', podNames(namespace, name).object, `pod "${name}" ${patchType === 'put' ? 'replaced' : `patched (${patchType})`}`);
    // upstream: store.go (*Store).Update → ShouldDeleteDuringUpdate: no finalizers left and a zero grace period
    if (stored.metadata.deletionTimestamp && !(stored.metadata.finalizers?.length) && stored.metadata.deletionGracePeriodSeconds === 0) {
      const last = this.#remove(stored);
      return { ok: true, object: last, deleted: true, ...warned };
    }
    return { ok: true, object: stored, ...warned };
  }

  /** POST pods/{name}/binding: the scheduler assigns the node; the server sets PodScheduled=True. */
  bindPod(namespace: string, name: string, uid: string, nodeName: string): ApiStatus | undefined {
    const pod = this.getPod(namespace, name);
    if (!pod || pod.metadata.uid !== uid) return notFoundStatus('pods', name);
    if (pod.metadata.deletionTimestamp) return { ...badRequestStatus(`pod ${name} is being deleted, cannot be assigned to a host`), reason: 'Conflict', code: 409 };
    if (pod.spec.nodeName) return { ...badRequestStatus(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`), reason: 'Conflict', code: 409 };
    const cond: PodCondition = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: this.#ctx.rfc3339() };
    const conditions = (pod.status.conditions?.filter((c) => c.type !== 'PodScheduled') ?? []).concat(cond);
    this.#store(pod, 'MODIFIED', { ...pod.spec, nodeName }, { ...pod.status, conditions });
    return undefined;
  }

  /** PUT pods/{name}/status (scheduler conditions, kubelet status manager). */
  updatePodStatus(namespace: string, name: string, uid: string, status: PodStatus): Pod | undefined {
    const pod = this.getPod(namespace, name);
    if (!pod || pod.metadata.uid !== uid) return undefined;
    if (pod.status === status) return pod;
    return this.#store(pod, 'MODIFIED', pod.spec, status);
  }
}

/** An answer's warnings, when there are any (ApplyResult leaves the field out otherwise). */
const withWarnings = (warnings: string[]): { warnings?: string[] } => (warnings.length ? { warnings } : {});

function conflictStatus(name: string): ApiStatus {
  return {
    kind: 'Status', apiVersion: 'v1', status: 'Failure',
    message: `Operation cannot be fulfilled on pods "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    reason: 'Conflict', details: { name, kind: 'pods' }, code: 409,
  };
}
