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
