// kubecontainer.PodStatus: the kubelet's view of a pod in the runtime (sandboxes and containers, newest first),
// built from the CRI objects. And the container hash the kubelet stores on each container.
// upstream: pkg/kubelet/container/runtime.go (PodStatus, Status); pkg/kubelet/container/helpers.go HashContainer

import type { Container, CriContainer, CriSandbox } from '../types.ts';
import { digestOf } from '../core/rng.ts';
import { derived } from '../core/kept.ts';

export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';

/** kubecontainer.Status */
export interface RuntimeContainerStatus {
  ID: string;
  Name: string;
  State: ContainerState;
  CreatedAt: number;
  StartedAt?: number;
  FinishedAt?: number;
  ExitCode: number;
  Reason?: string;
  Message?: string;
  Image: string;
  ImageRef: string;
  Hash: string;
  RestartCount: number;
}

/** runtimeapi.PodSandboxStatus, as much as the kubelet reads. */
export interface SandboxStatus {
  Id: string;
  State: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  Attempt: number;
  Ip: string;
  HostNetwork: boolean;
}

/** kubecontainer.PodStatus */
export interface RuntimePodStatus {
  ID: string;
  Name: string;
  Namespace: string;
  IPs: string[];
  SandboxStatuses: SandboxStatus[];
  ContainerStatuses: RuntimeContainerStatus[];
}

export function findContainerStatusByName(s: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined {
  for (const c of s.ContainerStatuses) if (c.Name === name) return c;
  return undefined;
}

/** A stable hash of the container spec (what the kubelet compares to decide "definition changed"). */
// upstream: pkg/kubelet/container/helpers.go HashContainer
export function hashContainer(c: Container): string {
  let h = hashes.get(c);
  if (h === undefined) {
    // hashed once per distinct spec (the pods of a workload share theirs)
    h = derived(byJSON, JSON.stringify(c), hashJSON);
    hashes.set(c, h);
  }
  return h;
}
// container specs are immutable once stored, so the hash of an object never changes
const hashes = new WeakMap<Container, string>();
const byJSON = new Map<string, string>();
const hashJSON = (json: string): string => digestOf(json, 1);

const STATE: Record<CriContainer['state'], ContainerState> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_UNKNOWN: 'unknown',
};

/** GetPodStatus from CRI objects (both lists newest first). `lastIPs` keeps a torn-down pod's IP, as the PLEG does. */
// upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go GetPodStatus; pkg/kubelet/pleg/generic.go getPodIPs
export function toRuntimePodStatus(
  uid: string, name: string, namespace: string, nodeIP: string,
  sandboxes: CriSandbox[], containers: CriContainer[], images: (c: CriContainer) => { image: string; imageRef: string }, lastIPs: string[],
  messages?: (c: CriContainer) => string | undefined,
): RuntimePodStatus {
  const SandboxStatuses = sandboxes.map((s) => ({
    Id: s.id, State: s.state, Attempt: s.attempt, Ip: s.ip, HostNetwork: s.ip === nodeIP,
  }));
  // the ready sandbox's IP, in the last list when that is it (one array for all the relists of a pod)
  const ip = SandboxStatuses[0]?.State === 'SANDBOX_READY' ? SandboxStatuses[0].Ip : '';
  return {
    ID: uid,
    Name: name,
    Namespace: namespace,
    IPs: !ip ? lastIPs : lastIPs.length === 1 && lastIPs[0] === ip ? lastIPs : [ip],
    SandboxStatuses,
    ContainerStatuses: containers.map((c) => {
      const img = images(c);
      const s: RuntimeContainerStatus = {
        ID: c.id,
        Name: c.name,
        State: STATE[c.state],
        CreatedAt: c.createdAt,
        StartedAt: c.startedAt,
        FinishedAt: c.finishedAt,
        ExitCode: c.exitCode ?? 0,
        Reason: c.reason,
        Image: img.image,
        ImageRef: img.imageRef,
        Hash: c.annotations['io.kubernetes.container.hash'] ?? '',
        RestartCount: Number(c.annotations['io.kubernetes.container.restartCount'] ?? '0'),
      };
      // an exited container's termination message, when there is one (made once per container)
      const message = c.state === 'CONTAINER_EXITED' ? c.message ?? messages?.(c) : undefined;
      if (message) s.Message = message;
      return s;
    }),
  };
}
