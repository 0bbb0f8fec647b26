// What the kubelet's parts share on one node, and small formatting helpers shared by its log lines and events.

import type { Container, Pod } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import type { ApiServer } from '../api/apiserver.ts';
import type { ContainerRuntime } from '../runtime/cri.ts';
import { podNames } from '../core/names.ts';
import { derived } from '../core/kept.ts';

/** The prefix of the simulation's own pod annotations (documented in src/sim/README.md). */
export const ANNOTATION_PREFIX = 'sim.podlife.dev/';

/** The pod's /etc/hosts, /etc/hostname and /etc/resolv.conf (kubelet/etcfiles.ts). */
export type FilesModule = typeof import('./etcfiles.ts');

/** Hooks and probes (kubelet/handlers.ts): an engine has them unless a page's replay left them out. */
export type HandlersModule = typeof import('./handlers.ts');
export function handlersOf(ctx: SimContext): HandlersModule {
  if (!ctx.handlers) throw new Error('podlife: this engine was made without the probes and hooks (kubelet/handlers.ts)');
  return ctx.handlers;
}

export interface NodeEnv {
  ctx: SimContext;
  api: ApiServer;
  runtime: ContainerRuntime;
  nodeName: string;
  nodeIP: string;
  /** The kubelet's --v: klog.V(n) lines above it are not written (callers may skip building them). */
  verbosity: number;
  /** Write one klog line of the kubelet. */
  klog(severity: 'I' | 'W' | 'E', source: string, msg: string, kv: [string, string][], v?: number): void;
}

/** Go's %q for the strings the kubelet logs and formats (ASCII-safe; JSON string syntax matches for these). */
export function q(s: string): string {
  return JSON.stringify(s);
}

/**
 * A string value as klog writes it: quoted, or, when it holds a line break, as a block: `<`, each line after a tab,
 * then ` >` on a line of its own (an exec probe's output ends in one).
 */
// upstream: k8s.io/klog/v2 internal/serialize/keyvalues.go writeStringValue
export function kstr(s: string): string {
  if (!s.includes('\n')) return q(s);
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  return `<\n\t${body.replaceAll('\n', '\n\t')}\n >`;
}

/** klog.KObj(pod): "namespace/name". */
export function kobj(pod: Pod): string {
  return podNames(pod.metadata.namespace!, pod.metadata.name).kobj;
}

/** format.Pod: "name_namespace(uid)". upstream: pkg/kubelet/util/format/pod.go Pod */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}

/** The fieldPath of a container in its pod (GenerateContainerRef). upstream: pkg/kubelet/container/ref.go fieldPath */
export function containerFieldPath(pod: Pod, c: Container): string {
  if (pod.spec.initContainers?.some((x) => x.name === c.name)) return `spec.initContainers{${c.name}}`;
  if (pod.spec.ephemeralContainers?.some((x) => x.name === c.name)) return `spec.ephemeralContainers{${c.name}}`;
  return derived(PATHS, c.name, path);
}
const PATHS = new Map<string, string>();
const path = (name: string): string => `spec.containers{${name}}`;

/** Record an event on a container of a pod, as recordContainerEvent does. */
// upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go recordContainerEvent
export function recordContainerEvent(env: NodeEnv, pod: Pod, c: Container, type: 'Normal' | 'Warning', reason: string, message: string): void {
  env.api.recordEvent({
    involved: {
      kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid,
      apiVersion: 'v1', resourceVersion: pod.metadata.resourceVersion, fieldPath: containerFieldPath(pod, c),
    },
    type, reason, message, component: 'kubelet', host: env.nodeName,
  });
}

/** Record an event on the pod itself. */
export function recordPodEvent(env: NodeEnv, pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
  env.api.recordEvent({
    involved: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid, apiVersion: 'v1', resourceVersion: pod.metadata.resourceVersion },
    type, reason, message, component: 'kubelet', host: env.nodeName,
  });
}

export function podObject(pod: Pod): string {
  return podNames(pod.metadata.namespace!, pod.metadata.name).object;
}

/** Every container of the pod by name (init, regular, ephemeral). */
export function containerSpec(pod: Pod, name: string): Container | undefined {
  return (
    pod.spec.containers.find((c) => c.name === name) ??
    pod.spec.initContainers?.find((c) => c.name === name) ??
    pod.spec.ephemeralContainers?.find((c) => c.name === name)
  );
}

/**
 * When the kubelet process started, in virtual time: its first node status post (the Ready heartbeat, from which
 * the lease's renewals count). Go's monotonic readings in its log (m=+...) are seconds since then.
 */
export const KUBELET_START = -40_000;

/**
 * Go's time.Time String() of virtual time t: "2026-08-04 03:00:01 +0000 UTC" for a time from the API (whole
 * seconds, no monotonic reading), "2026-08-04 03:00:01.02 +0000 UTC m=+41.020000000" for one from time.Now().
 */
// upstream: go/src/time/format.go (Time).String
export function goTime(epoch: number, t: number, monotonic: boolean): string {
  const whole = Math.trunc(epoch + t); // what Date keeps of a fractional time
  const sec = Math.floor(whole / 1000);
  // the text of a whole second is formatted once (the pods of a run share a few seconds)
  let text = goSeconds.get(sec);
  if (text === undefined) {
    if (goSeconds.size >= 4096) goSeconds.clear();
    const [date, rest] = new Date(sec * 1000).toISOString().split('T');
    text = `${date} ${rest.replace(/\.\d+Z$/, '')}`;
    goSeconds.set(sec, text);
  }
  const frac = whole - sec * 1000;
  if (!monotonic) return `${text} +0000 UTC`;
  // time.Time.String: " m=+<seconds>.<9 digits>" after the wall time, for a time read from time.Now()
  const m = whole - epoch - KUBELET_START;
  const wall = frac === 0 ? text : `${text}.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  return `${wall} +0000 UTC m=+${Math.floor(m / 1000)}.${String(m % 1000).padStart(3, '0')}000000`;
}
const goSeconds = new Map<number, string>();

/** The first tick at or after t of a loop that ticks every `period` ms, offset by `phase` (period 0: t itself). */
export function nextTick(t: number, period: number, phase: number): number {
  return period <= 0 ? t : phase + Math.ceil((t - phase) / period) * period;
}
