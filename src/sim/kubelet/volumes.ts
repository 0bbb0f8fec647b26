// The kubelet's volume manager, for the volumes whose set-up reads the API: ConfigMap, Secret and projected volumes.
// A pod that mounts a ConfigMap or Secret that does not exist (every namespace has kube-root-ca.crt, key ca.crt; the
// others are the run's, api/configs.ts) does not get past WaitForAttachAndMount: it stays ContainerCreating, its
// sandbox is not made, and the reconciler retries the mount with nestedpendingoperations' exponential back-off, each
// failure a FailedMount event on the pod, until the object exists. Each later sync remounts the volumes, which writes
// the objects' current version (or fails, for one deleted since). Volumes of other kinds set up at once; a volume no
// container mounts is skipped.
// Loaded with the environment module (envvars.ts): a page's replay loads it when its pods name a ConfigMap or Secret.
// upstream: pkg/kubelet/volumemanager/volume_manager.go WaitForAttachAndMount, getUnmountedVolumes;
//           pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go processPodVolumes;
//           pkg/volume/util/operationexecutor/operation_generator.go GenerateMountVolumeFunc;
//           pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go; pkg/util/goroutinemap/exponentialbackoff;
//           pkg/volume/configmap/configmap.go, pkg/volume/secret/secret.go (SetUpAt, MakePayload),
//           pkg/volume/projected/projected.go collectData

import type { Container, Pod } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { Proc } from '../core/loop.ts';
import type { NodeEnv } from './env.ts';
import type { PodWorker } from './kubelet.ts';
import { goTime, nextTick, podObject, q, recordPodEvent } from './env.ts';
import { formatGoDuration } from '../render/duration.ts';
import { ROOT_CA_CERT, ROOT_CA_KEY, ROOT_CA_NAME } from '../api/root-ca.ts';

/** kube-root-ca.crt, in every namespace (the root CA publisher's; its certificate is not modelled). */
const ROOT_CA = new Map([[ROOT_CA_KEY, ROOT_CA_CERT]]);

/**
 * What the kubelet's configmap and secret managers get for an object: its keys and values (as a container reads
 * them), or undefined when it does not exist (then `notFound` is the error they return): kube-root-ca.crt, or what the
 * API server's store (api/configs.ts, in an engine that has it) holds. For the containers' environment and for
 * volumes alike. `at`: as the object was then (what a container got when it was made, what the kubelet last wrote
 * into a volume), which a later change or delete does not take away (api/configs.ts ConfigStore.values).
 */
// upstream: pkg/kubelet/configmap/configmap_manager.go, pkg/kubelet/secret/secret_manager.go
export function configSource(ctx: SimContext, resource: 'configmap' | 'secret', namespace: string, name: string | undefined, at?: number): Map<string, string> | undefined {
  if (name === undefined) return undefined;
  return resource === 'configmap' && name === ROOT_CA_NAME ? ROOT_CA : ctx.configs?.values(resource, namespace, name, at);
}

/** The managers' NotFound: the API's message, with the singular resource names (corev1.Resource("configmap")). */
export const notFound = (resource: 'configmap' | 'secret', name: string | undefined): string => `${resource} ${q(name ?? '')} not found`;

// upstream: nestedpendingoperations.go initialDurationBeforeRetry, maxDurationBeforeRetry
const INITIAL_RETRY = 500;
const MAX_RETRY = 122_000;
// upstream: reconciler loopSleepDuration, desired state populator loopSleepDuration (kubelet.go: 100 ms each)
const LOOP = 100;
// upstream: volume_manager.go podAttachAndMountTimeout (2m3s), podAttachAndMountRetryInterval (300 ms)
const MOUNT_TIMEOUT = 123_000;
const POLL = 300;

interface Items {
  items?: { key: string }[];
  optional?: boolean;
}
/** The volume's plugin (its unique name's prefix), and for a ConfigMap or Secret volume the object it reads. */
function plugin(v: VolumeSources): [string, string?] {
  if (v.configMap) return ['configmap', v.configMap.name];
  return v.secret ? ['secret', v.secret.secretName] : ['projected'];
}

interface VolumeSources {
  name: string;
  configMap?: Items & { name?: string };
  secret?: Items & { secretName?: string };
  projected?: { sources?: { configMap?: Items & { name?: string }; secret?: Items & { name?: string } }[] };
}

type Lookup = (resource: 'configmap' | 'secret', name: string | undefined) => Map<string, string> | undefined;

/**
 * A ConfigMap's or Secret's error: the manager's NotFound, or MakePayload's for a key it lacks (configmap.go's and
 * secret.go's messages differ).
 */
function sourceError(get: Lookup, resource: 'configmap' | 'secret', src: Items & { name?: string }, name = src.name): string | undefined {
  if (src.optional) return undefined; // missing, or missing a key: an empty payload
  const keys = get(resource, name);
  if (!keys) return notFound(resource, name);
  const missing = src.items?.find((i) => !keys.has(i.key));
  return missing && `${resource === 'secret' ? '' : 'configmap '}references non-existent ${resource === 'secret' ? 'secret' : 'config'} key: ${missing.key}`;
}

/** The error the volume's SetUp returns on the model's cluster, if it returns one. */
export function volumeSetUpError(v: VolumeSources, get: Lookup): string | undefined {
  if (v.configMap) return sourceError(get, 'configmap', v.configMap);
  if (v.secret) return sourceError(get, 'secret', v.secret, v.secret.secretName);
  if (!v.projected) return undefined;
  // collectData goes on past a failed source; the errors come back as an aggregate ("[a, b]" for more than one)
  const errs: string[] = [];
  for (const s of v.projected.sources ?? []) {
    const err = s.configMap ? sourceError(get, 'configmap', s.configMap) : s.secret && sourceError(get, 'secret', s.secret);
    if (err) errs.push(err);
  }
  return errs.length > 1 ? `[${errs.join(', ')}]` : errs[0];
}

interface FileSources extends VolumeSources {
  configMap?: Items & { name?: string; items?: { key: string; path: string }[] };
  secret?: Items & { secretName?: string; items?: { key: string; path: string }[] };
  downwardAPI?: { items?: DownwardItem[] };
  projected?: {
    sources?: {
      configMap?: Items & { name?: string; items?: { key: string; path: string }[] }; secret?: Items & { name?: string; items?: { key: string; path: string }[] };
      downwardAPI?: { items?: DownwardItem[] }; serviceAccountToken?: { path: string; expirationSeconds?: number; audience?: string };
    }[];
  };
}
interface DownwardItem {
  path: string;
  fieldRef?: { fieldPath: string };
}

/** A downward API file's content: the field, labels and annotations as `key="value"` lines, sorted. */
// upstream: pkg/fieldpath/fieldpath.go ExtractFieldPathAsString, FormatMap
function downwardValue(pod: Pod, fieldPath: string): string | undefined {
  const meta = pod.metadata;
  const map = (m: Record<string, string> | undefined) =>
    Object.keys(m ?? {}).sort().map((k) => `${k}=${JSON.stringify(m![k])}`).join('\n');
  const keyed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (keyed) return (keyed[1] === 'labels' ? meta.labels : meta.annotations)?.[keyed[2]] ?? '';
  switch (fieldPath) {
    case 'metadata.name': return meta.name;
    case 'metadata.namespace': return meta.namespace ?? 'default';
    case 'metadata.uid': return meta.uid;
    case 'metadata.labels': return map(meta.labels);
    case 'metadata.annotations': return map(meta.annotations);
    default: return undefined;
  }
}

/**
 * The files a container sees in the volumes it mounts, by path: a ConfigMap's or Secret's keys (or its `items`, at
 * their paths; a Secret's values decoded), a downward API volume's fields, and the projected volumes' sources (the
 * service account token's ca.crt, namespace and token). A `subPath` mounts one
 * file. As the kubelet's atomic writer leaves them, less its hidden ..data directories.
 */
// upstream: pkg/volume/configmap/configmap.go, secret/secret.go, downwardapi/downwardapi.go, projected/projected.go
//           (MakePayload, CollectData); pkg/volume/util/atomic_writer.go
export function volumeFiles(ctx: SimContext, pod: Pod, c: Container, written?: Written): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of c.volumeMounts ?? []) {
    const v = pod.spec.volumes?.find((x) => x.name === m.name) as FileSources | undefined;
    if (!v) continue;
    const base = m.mountPath.replace(/\/+$/, '');
    const subPath = (m as { subPath?: string }).subPath;
    // the files as the kubelet last wrote them (a ConfigMap changed or deleted since leaves them until it writes them
    // again); a subPath is a bind mount of one file, made when the container was: it keeps what it had then
    // upstream: the ConfigMap and Secret concepts pages ("a container using a ConfigMap as a subPath volume mount will
    //           not receive ConfigMap updates")
    const last = subPath ? undefined : written?.volumeAt(v.name);
    const files = volumePayload(ctx, last?.pod ?? pod, v, subPath ? written?.containerAt : last?.t);
    if (subPath) {
      const one = files.get(subPath);
      if (one !== undefined) out.set(base, one);
    } else for (const [path, value] of files) out.set(`${base}/${path}`, value);
  }
  return out;
}

/**
 * When the kubelet last wrote each volume of a pod, and the pod it wrote it for (its labels and annotations, for the
 * downward API); undefined: as it is now. And when the container was made.
 */
export interface Written {
  volumeAt: (volume: string) => LastWrite | undefined;
  containerAt: number | undefined;
}
export interface LastWrite {
  t: number;
  pod: Pod;
}

/**
 * A volume's files, by path in the volume, with the ConfigMaps and Secrets as they were `at` (now when undefined) and
 * the downward API's fields of `pod`.
 */
function volumePayload(ctx: SimContext, pod: Pod, v: FileSources, at: number | undefined): Map<string, string> {
  const ns = pod.metadata.namespace ?? 'default';
  const files = new Map<string, string>();
  const add = (resource: 'configmap' | 'secret', name: string | undefined, items: { key: string; path: string }[] | undefined) => {
    const values = configSource(ctx, resource, ns, name, at);
    if (!values) return;
    if (!items) for (const [k, value] of values) files.set(k, value);
    else for (const { key, path } of items) if (values.has(key)) files.set(path, values.get(key)!);
  };
  const downward = (items: DownwardItem[] | undefined) => {
    for (const i of items ?? []) {
      const value = i.fieldRef && downwardValue(pod, i.fieldRef.fieldPath);
      if (value !== undefined) files.set(i.path, value);
    }
  };
  if (v.configMap) add('configmap', v.configMap.name, v.configMap.items);
  else if (v.secret) add('secret', v.secret.secretName, v.secret.items);
  else if (v.downwardAPI) downward(v.downwardAPI.items);
  else {
    for (const s of v.projected?.sources ?? []) {
      if (s.configMap) add('configmap', s.configMap.name, s.configMap.items);
      else if (s.secret) add('secret', s.secret.name, s.secret.items);
      else if (s.downwardAPI) downward(s.downwardAPI.items);
      else if (s.serviceAccountToken) {
        const token = serviceAccountToken(ctx, pod, s.serviceAccountToken, at ?? ctx.now);
        if (token) files.set(s.serviceAccountToken.path, token);
      }
    }
  }
  return files;
}

/** kubeadm's service account issuer, which is also the API server's audience. */
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The kubelet's token request: 3607 s, which the API server (--service-account-extend-token-expiration) stretches to a year. */
const YEAR_SECONDS = 365 * 24 * 3600;

/** base64url without padding, as a JWT's parts are. */
const b64url = (text: string): string => btoa(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const randomBytes = (rng: { int(lo: number, hi: number): number }, n: number): string => String.fromCharCode(...Array.from({ length: n }, () => rng.int(0, 255)));

/**
 * The projected service account token a container reads: the JWT the kubelet's token manager got for the pod (a
 * TokenRequest bound to the pod and its node) as of `at`. The manager asks again once 80% of the 3607 s it asked for
 * have passed, and the next remount writes the new one (the model writes it at the moment it is asked). The claims
 * are the API server's for a bound token, in Go's JSON (keys sorted); the signature is random bytes (the model has
 * no key pair). Undefined before the pod started (nothing is mounted).
 */
// upstream: pkg/kubelet/token/token_manager.go (requiresRefresh: 80% of the requested TTL, or 24 h);
//           pkg/registry/core/serviceaccount/storage/token.go (warnAfter, the extended expiration, status.expirationTimestamp);
//           pkg/serviceaccount/claims.go Claims (kubernetes.io: namespace, node, pod, serviceaccount, warnafter; jti)
function serviceAccountToken(ctx: SimContext, pod: Pod, src: { expirationSeconds?: number; audience?: string }, at: number): string | undefined {
  if (!pod.status.startTime) return undefined;
  const ttl = (src.expirationSeconds ?? 3607) * 1000;
  const start = Date.parse(pod.status.startTime) - ctx.epoch;
  const k = Math.max(0, Math.floor((at - start) / (ttl * 0.8)));
  const iat = Math.floor((ctx.epoch + start + k * ttl * 0.8) / 1000);
  const ns = pod.metadata.namespace ?? 'default';
  const sa = pod.spec.serviceAccountName ?? 'default';
  const rng = ctx.timingRng(`token/${pod.metadata.uid}/${k}`);
  const nodes = ctx.history.live[ctx.history.collection('nodes')];
  const node = nodes.get(pod.spec.nodeName!) as { metadata: { uid: string } } | undefined;
  const extended = (src.expirationSeconds ?? 3607) === 3607 && !src.audience;
  const claims = {
    aud: [src.audience ?? ISSUER],
    exp: iat + (extended ? YEAR_SECONDS : ttl / 1000),
    iat,
    iss: ISSUER,
    jti: rng.uuid(),
    'kubernetes.io': {
      namespace: ns,
      node: { name: pod.spec.nodeName, uid: node?.metadata.uid },
      pod: { name: pod.metadata.name, uid: pod.metadata.uid },
      serviceaccount: { name: sa, uid: ctx.timingRng(`serviceaccount/${ns}/${sa}`).uuid() },
      ...(extended ? { warnafter: iat + ttl / 1000 } : {}),
    },
    nbf: iat,
    sub: `system:serviceaccount:${ns}:${sa}`,
  };
  const kid = b64url(randomBytes(ctx.timingRng('service-account-key'), 32));
  return `${b64url(JSON.stringify({ alg: 'RS256', kid }))}.${b64url(JSON.stringify(claims))}.${b64url(randomBytes(rng, 256))}`;
}

/**
 * Whether a remount can change a volume's files: it reads a ConfigMap or Secret of the API's (not only
 * kube-root-ca.crt), or the pod's labels or annotations (which a `kubectl label` changes). Not the service account
 * volume every pod has (kube-root-ca.crt and the namespace).
 */
function updatable(v: FileSources): boolean {
  const meta = (d: { items?: DownwardItem[] } | undefined) => d?.items?.some((i) => /^metadata\.(labels|annotations)\b/.test(i.fieldRef?.fieldPath ?? '')) ?? false;
  if (v.configMap) return v.configMap.name !== ROOT_CA_NAME;
  if (v.secret) return true;
  if (v.downwardAPI) return meta(v.downwardAPI);
  return v.projected?.sources?.some((s) => s.secret || (s.configMap && s.configMap.name !== ROOT_CA_NAME) || meta(s.downwardAPI)) ?? false;
}

/** The names of the volumes some container mounts (GetPodVolumeNames): the others are skipped. */
function mountedNames(pod: Pod): Set<string> {
  const names = new Set<string>();
  const visit = (cs: Container[] | undefined) => cs?.forEach((c) => c.volumeMounts?.forEach((m) => names.add(m.name)));
  visit(pod.spec.initContainers);
  visit(pod.spec.containers);
  visit(pod.spec.ephemeralContainers);
  return names;
}

export class VolumeManager {
  readonly #env: NodeEnv;
  /** The offsets of the populator's and the reconciler's 100 ms loops (the kubelet started them at some earlier time). */
  readonly #populator: number;
  readonly #reconciler: number;
  /** Per pod worker: the volumes that did not mount, sorted (getUnmountedVolumes); null when all did. */
  readonly #unmounted = new WeakMap<PodWorker, string[] | null>();
  /**
   * Per pod worker whose volumes read a stored ConfigMap or Secret: when the kubelet last wrote each such volume (not
   * yet: absent), and the volumes whose (re)mount is in progress or waits for its back-off.
   */
  readonly #written = new WeakMap<PodWorker, { at: Map<string, LastWrite>; busy: Set<string>; volumes: VolumeSources[] }>();

  /** `phase`: the kubelet's own offset, from which the loops' are derived (no draw from its random streams). */
  constructor(env: NodeEnv, phase: number) {
    this.#env = env;
    this.#populator = phase % LOOP;
    this.#reconciler = (phase * 7) % LOOP;
  }


  /**
   * The desired state of world populator takes in a new pod on its next loop, the reconciler mounts its volumes on
   * the loop after; a mount that fails is retried until it succeeds (the object was created) or the pod worker has
   * terminated the pod. (The model takes the pod in at its first sync, which runs when the pod is added.)
   */
  #add(w: PodWorker): string[] | null {
    const pod = w.pod;
    let used: Set<string> | undefined;
    let failed: string[] | undefined;
    for (const v of (pod.spec.volumes ?? []) as VolumeSources[]) {
      // (the names of the mounted volumes are gathered only for a volume that fails or can change: most pods have none)
      const changes = updatable(v as FileSources);
      const ok = this.#setUpError(pod, v) === undefined;
      if ((ok && !changes) || !(used ??= mountedNames(pod)).has(v.name)) continue;
      let written = this.#written.get(w);
      if (changes) {
        if (!written) this.#written.set(w, (written = { at: new Map(), busy: new Set(), volumes: [] }));
        written.volumes.push(v);
        if (ok) written.at.set(v.name, { t: this.#reconcile(), pod });
      }
      if (ok) continue;
      (failed ??= []).push(v.name);
      written?.busy.add(v.name);
      this.#env.ctx.loop.at(this.#reconcile(), () => this.#mount(w, v, 0));
    }
    return failed?.sort() ?? null;
  }

  /** When a pod taken in (or reprocessed) now has its volumes mounted: the populator's next loop, the reconciler's after. */
  #reconcile(): number {
    return nextTick(nextTick(this.#env.ctx.now + 1, LOOP, this.#populator) + 1, LOOP, this.#reconciler);
  }

  /** When the kubelet last wrote the pod's volume `name`, and for which pod: undefined for one that cannot change (read it as it is now). */
  writtenAt(w: PodWorker, name: string): LastWrite | undefined {
    return this.#written.get(w)?.at.get(name);
  }

  /**
   * A sync of a pod whose volumes are mounted: WaitForAttachAndMount has the populator reprocess the pod, which marks
   * its volumes for remount, and the reconciler mounts those that RequiresRemount (ConfigMap, Secret, downward API,
   * projected) again: the kubelet writes the objects' current version and the pod's current labels and annotations
   * into the volume, or, for an object deleted, the mount fails (FailedMount, and the files stay as they were). So a
   * changed object reaches a running pod's files at its next sync, within the sync period (1m) and its jitter; a label
   * at once, as the pod's update is itself synced. A remount in progress, or waiting for its back-off, is not started
   * again.
   */
  // upstream: volume_manager.go WaitForAttachAndMount (ReprocessPod); desired_state_of_world_populator.go
  //           processPodVolumes (MarkRemountRequired); reconciler_common.go mountOrAttachVolumes (RequiresRemount)
  #remount(w: PodWorker): void {
    const written = this.#written.get(w);
    if (!written) return;
    for (const v of written.volumes) {
      if (written.busy.has(v.name)) continue;
      written.busy.add(v.name);
      this.#env.ctx.loop.at(this.#reconcile(), () => this.#mount(w, v, 0));
    }
  }

  #setUpError(pod: Pod, v: VolumeSources): string | undefined {
    const ctx = this.#env.ctx;
    return volumeSetUpError(v, (resource, name) => configSource(ctx, resource, pod.metadata.namespace ?? 'default', name));
  }

  /**
   * One MountVolume operation. It fails while the object is missing: the plugin's log line, the event,
   * nestedpendingoperations' log line, and the retry it permits after the back-off. Once it succeeds, the volume is
   * mounted, and a sync waiting in WaitForAttachAndMount sees it at its next poll.
   */
  #mount(w: PodWorker, v: VolumeSources, previous: number): void {
    const written = this.#written.get(w);
    if (w.state !== 'syncing' && w.state !== 'terminating') {
      written?.busy.delete(v.name);
      return;
    }
    const pod = w.pod;
    const env = this.#env;
    const ctx = env.ctx;
    const err = this.#setUpError(pod, v);
    if (err === undefined) {
      // upstream: operation_generator.go GenerateMountVolumeFunc (MarkVolumeAsMounted); volume_manager.go
      //           WaitForAttachAndMount polls every podAttachAndMountRetryInterval (300 ms)
      const before = written?.at.get(v.name);
      written?.at.set(v.name, { t: ctx.now, pod });
      written?.busy.delete(v.name);
      const unmounted = this.#unmounted.get(w);
      // a remount that succeeds writes the objects' version of now: the trace tells when that changed the files
      if (before !== undefined && previous === 0) {
        const was = volumePayload(ctx, before.pod, v as FileSources, before.t);
        const now = volumePayload(ctx, pod, v as FileSources, ctx.now);
        if (was.size !== now.size || [...now].some(([k, x]) => was.get(k) !== x)) {
          ctx.emit('kubelet', 'VolumeUpdated', podObject(pod), `MountVolume.SetUp succeeded for volume ${q(v.name)}: the remount wrote the new version of its files`);
        }
        return;
      }
      const left = unmounted?.filter((name) => name !== v.name);
      this.#unmounted.set(w, left?.length ? left : null);
      ctx.emit('kubelet', 'VolumeMounted', podObject(pod), `MountVolume.SetUp succeeded for volume ${q(v.name)}`);
      const waiting = this.#waiting.get(w);
      if (waiting && !left?.length) ctx.loop.at(nextTick(ctx.now, POLL, waiting[0] % POLL), waiting[1]);
      return;
    }
    const uid = pod.metadata.uid;
    const retry = previous === 0 ? INITIAL_RETRY : Math.min(previous * 2, MAX_RETRY);
    const [kind, object] = plugin(v);
    const plain = (source: string, msg: string) =>
      ctx.kubeletLog({ t: ctx.now, node: env.nodeName, severity: 'E', source, msg, kv: [], pid: env.runtime.kubeletPid, plain: true });
    // configmap.go, secret.go SetUpAt (klog.Errorf); the line numbers are v1.3x's, not checked against v1.36.2
    if (object !== undefined) plain(`${kind}.go:${kind === 'secret' ? 194 : 193}`, `Couldn't get ${kind === 'secret' ? 'secret' : 'configMap'} ${pod.metadata.namespace}/${object}: ${err}`);
    // GenerateError: the event gets the simple message, the log the detailed one
    const unique = `kubernetes.io/${kind}/${uid}-${v.name}`;
    const simple = `MountVolume.SetUp failed for volume ${q(v.name)} : ${err}`;
    recordPodEvent(env, pod, 'Warning', 'FailedMount', simple);
    const until = goTime(ctx.epoch, ctx.now + retry, true);
    plain('nestedpendingoperations.go:348', `Operation for "{volumeName:${unique} podName:${uid} nodeName:}" failed. No retries permitted until ${until} (durationBeforeRetry ${formatGoDuration(retry)}). Error: MountVolume.SetUp failed for volume ${q(v.name)} (UniqueName: ${q(unique)}) pod ${q(pod.metadata.name)} (UID: ${q(uid)}) : ${err}`);
    ctx.emit('kubelet', 'MountFailed', podObject(pod), `${simple}; retry after ${formatGoDuration(retry)}`);
    ctx.loop.at(nextTick(ctx.now + retry, LOOP, this.#reconciler), () => this.#mount(w, v, retry));
  }

  /** Per pod worker waiting in WaitForAttachAndMount: when the wait began, and what wakes it. */
  readonly #waiting = new WeakMap<PodWorker, [number, () => void]>();

  /**
   * WaitForAttachAndMount: undefined when every volume the pod's containers mount is set up; else the wait (2m3s, or
   * until the pod worker cancels the sync: w.cancel): SyncPod's error, or once the volumes are mounted, the rest of
   * SyncPod (`then`).
   */
  wait<T>(w: PodWorker, then: () => T[] | Proc<T[]>): Proc<T[] | string> | undefined {
    let unmounted = this.#unmounted.get(w);
    if (unmounted === undefined) this.#unmounted.set(w, (unmounted = this.#add(w)));
    else if (unmounted === null) this.#remount(w);
    return unmounted ? this.#wait(w, then) : undefined;
  }

  *#wait<T>(w: PodWorker, then: () => T[] | Proc<T[]>): Proc<T[] | string> {
    const start = this.#env.ctx.now;
    yield { wait: (wake) => this.#waiting.set(w, [start, (w.cancel = wake)]), timeout: MOUNT_TIMEOUT };
    this.#waiting.delete(w);
    w.cancel = undefined;
    const unmounted = this.#unmounted.get(w);
    if (w.state === 'syncing' && !unmounted) {
      const rest = then();
      return Array.isArray(rest) ? rest : yield* rest;
    }
    // PollUntilContextTimeout's error: its own deadline, or the worker's cancelled context (the pod is terminating)
    const why = w.state === 'syncing' ? 'context deadline exceeded' : 'context canceled';
    return `unmounted volumes=[${(unmounted ?? []).join(' ')}], unattached volumes=[], failed to process volumes=[]: ${why}`;
  }
}
