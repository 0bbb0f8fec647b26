// The kubelet's volume manager, for the volumes whose set-up reads the API: ConfigMap, Secret and projected volumes.
// The model's cluster has no ConfigMap but kube-root-ca.crt (in every namespace, key ca.crt) and no Secret, so a
// pod that mounts another one never gets past WaitForAttachAndMount: it stays ContainerCreating, its sandbox is never
// made, and the reconciler retries the mount with nestedpendingoperations' exponential back-off, each failure a
// FailedMount event on the pod. Volumes of other kinds set up at once; a volume no container mounts is skipped.
// Loaded with the environment module (envvars.ts): a page's replay loads it when its pods name a ConfigMap or Secret.
// upstream: pkg/kubelet/volumemanager/volume_manager.go WaitForAttachAndMount, getUnmountedVolumes;
//           pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go processPodVolumes;
//           pkg/volume/util/operationexecutor/operation_generator.go GenerateMountVolumeFunc;
//           pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go; pkg/util/goroutinemap/exponentialbackoff;
//           pkg/volume/configmap/configmap.go, pkg/volume/secret/secret.go (SetUpAt, MakePayload),
//           pkg/volume/projected/projected.go collectData

import type { Container, Pod } from '../types.ts';
import type { Proc } from '../core/loop.ts';
import type { NodeEnv } from './env.ts';
import type { PodWorker } from './kubelet.ts';
import { goTime, nextTick, podObject, q, recordPodEvent } from './env.ts';
import { formatGoDuration } from '../render/duration.ts';

/**
 * The ConfigMaps of the model's cluster and their keys: kube-root-ca.crt (ca.crt), in every namespace (what the
 * projected token volume reads). It has no Secret.
 */
const CONFIG_MAPS = new Map([['kube-root-ca.crt', ['ca.crt']]]);

/**
 * What the kubelet's configmap and secret managers get for an object on that cluster: its keys, or undefined when it
 * does not exist (then `notFound` is the error they return). For the containers' environment and for volumes alike.
 */
// upstream: pkg/kubelet/configmap/configmap_manager.go, pkg/kubelet/secret/secret_manager.go
export function configSourceKeys(resource: 'configmap' | 'secret', name: string | undefined): string[] | undefined {
  return resource === 'configmap' ? CONFIG_MAPS.get(name ?? '') : undefined;
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

/** A ConfigMap source's error: the manager's NotFound, or MakePayload's for a key the ConfigMap lacks. */
function configMapError(src: Items & { name?: string }): string | undefined {
  if (src.optional) return undefined; // missing, or missing a key: an empty payload
  const keys = configSourceKeys('configmap', src.name);
  if (!keys) return notFound('configmap', src.name);
  const missing = src.items?.find((i) => !keys.includes(i.key));
  return missing && `configmap references non-existent config key: ${missing.key}`;
}

const secretError = (name: string | undefined, optional: boolean | undefined): string | undefined =>
  optional || configSourceKeys('secret', name) ? undefined : notFound('secret', name);

/** The error the volume's SetUp returns on the model's cluster, if it returns one. */
export function volumeSetUpError(v: VolumeSources): string | undefined {
  if (v.configMap) return configMapError(v.configMap);
  if (v.secret) return secretError(v.secret.secretName, v.secret.optional);
  if (!v.projected) return undefined;
  // collectData goes on past a failed source; the errors come back as an aggregate ("[a, b]" for more than one)
  const errs: string[] = [];
  for (const s of v.projected.sources ?? []) {
    const err = s.configMap ? configMapError(s.configMap) : s.secret && secretError(s.secret.name, s.secret.optional);
    if (err) errs.push(err);
  }
  return errs.length > 1 ? `[${errs.join(', ')}]` : errs[0];
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

  /** `phase`: the kubelet's own offset, from which the loops' are derived (no draw from its random streams). */
  constructor(env: NodeEnv, phase: number) {
    this.#env = env;
    this.#populator = phase % LOOP;
    this.#reconciler = (phase * 7) % LOOP;
  }


  /**
   * The desired state of world populator takes in a new pod on its next loop, the reconciler mounts its volumes on
   * the loop after; a mount that fails is retried until the pod worker has terminated the pod. (The model takes the
   * pod in at its first sync, which runs when the pod is added.)
   */
  #add(w: PodWorker): string[] | null {
    const pod = w.pod;
    const active = () => w.state === 'syncing' || w.state === 'terminating';
    let used: Set<string> | undefined;
    let failed: string[] | undefined;
    for (const v of (pod.spec.volumes ?? []) as VolumeSources[]) {
      // (the names of the mounted volumes are gathered only for a volume that fails: most pods have none)
      const err = volumeSetUpError(v);
      if (err === undefined || !(used ??= mountedNames(pod)).has(v.name)) continue;
      (failed ??= []).push(v.name);
      const first = nextTick(nextTick(this.#env.ctx.now + 1, LOOP, this.#populator) + 1, LOOP, this.#reconciler);
      this.#env.ctx.loop.at(first, () => this.#mount(pod, v, err, 0, active));
    }
    return failed?.sort() ?? null;
  }

  /**
   * One MountVolume operation that fails: the plugin's log line, the event, nestedpendingoperations' log line, and
   * the retry it permits after the back-off.
   */
  #mount(pod: Pod, v: VolumeSources, err: string, previous: number, active: () => boolean): void {
    if (!active()) return;
    const env = this.#env;
    const ctx = env.ctx;
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
    ctx.loop.at(nextTick(ctx.now + retry, LOOP, this.#reconciler), () => this.#mount(pod, v, err, retry, active));
  }

  /**
   * WaitForAttachAndMount: undefined when every volume the pod's containers mount is set up; else the wait (2m3s, or
   * until the pod worker cancels the sync: w.cancel), returning SyncPod's error.
   */
  wait(w: PodWorker): Proc<string> | undefined {
    let unmounted = this.#unmounted.get(w);
    if (unmounted === undefined) this.#unmounted.set(w, (unmounted = this.#add(w)));
    return unmounted ? this.#wait(w, unmounted) : undefined;
  }

  *#wait(w: PodWorker, unmounted: string[]): Proc<string> {
    yield { wait: (wake) => (w.cancel = wake), timeout: MOUNT_TIMEOUT };
    w.cancel = undefined;
    // PollUntilContextTimeout's error: its own deadline, or the worker's cancelled context (the pod is terminating)
    const why = w.state === 'syncing' ? 'context deadline exceeded' : 'context canceled';
    return `unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[], failed to process volumes=[]: ${why}`;
  }
}
