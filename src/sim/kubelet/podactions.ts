// computePodActions and the helpers it relies on, as pure functions of (pod, runtime status, probe results), so
// upstream's table tests port directly. The SidecarContainers feature (GA) is on: init containers are handled by
// computeInitContainerActions.
// upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (v1.36.2), pkg/kubelet/container/helpers.go,
//           pkg/kubelet/kuberuntime/util/util.go

import type { Container, Pod } from '../types.ts';
import { findContainerStatusByName, hashContainer, type RuntimeContainerStatus, type RuntimePodStatus } from './podstatus.ts';
import { parseImageRef } from '../api/imageref.ts';
import type { ContainerToUpdateInfo } from './resize.ts';

export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** The probe managers' cached results, by container ID. */
export interface ProbeResults {
  liveness: Map<string, ProbeResult>;
  startup: Map<string, ProbeResult>;
}

export type ContainerKillReason = '' | 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown';

export interface ContainerToKillInfo {
  name: string;
  container: Container;
  message: string;
  reason: ContainerKillReason;
}

/** podActions: what SyncPod must do. Field names as upstream. */
export interface PodActions {
  KillPod: boolean;
  CreateSandbox: boolean;
  SandboxID: string;
  Attempt: number;
  InitContainersToStart: number[];
  ContainersToStart: number[];
  EphemeralContainersToStart: number[];
  ContainersToKill: Map<string, ContainerToKillInfo>;
  /** In-place resizes, per resource, decreases first (set only when a resize is to be applied). */
  ContainersToUpdate?: Partial<Record<'cpu' | 'memory', ContainerToUpdateInfo[]>>;
  UpdatePodResources?: boolean;
}

export function isRestartableInitContainer(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

// upstream: kuberuntime_manager.go shouldRestartOnFailure
export function shouldRestartOnFailure(pod: Pod): boolean {
  return pod.spec.restartPolicy !== 'Never';
}

// upstream: kuberuntime_manager.go containerSucceeded
function containerSucceeded(c: Container, s: RuntimePodStatus): boolean {
  const cs = findContainerStatusByName(s, c.name);
  return !!cs && cs.State === 'exited' && cs.ExitCode === 0;
}

// upstream: kuberuntime_manager.go isInitContainerFailed
export function isInitContainerFailed(s: RuntimeContainerStatus): boolean {
  if (s.State === 'exited' && s.ExitCode !== 0) return true;
  if (s.State === 'unknown') return true;
  return false;
}

// upstream: kuberuntime_manager.go containerChanged. Upstream's HashContainer covers the name and the image
// only (resources change in place); the model's hash covers the whole spec, whose other fields are immutable, so a
// different hash is a change when the image differs.
export function containerChanged(c: Container, s: RuntimeContainerStatus): boolean {
  return hashContainer(c) !== s.Hash && parseImageRef(c.image).normalized !== s.Image;
}

// upstream: pkg/kubelet/kuberuntime/util/util.go PodSandboxChanged
export function podSandboxChanged(pod: Pod, s: RuntimePodStatus): { changed: boolean; attempt: number; sandboxID: string } {
  if (s.SandboxStatuses.length === 0) return { changed: true, attempt: 0, sandboxID: '' };
  let ready = 0;
  for (const x of s.SandboxStatuses) if (x.State === 'SANDBOX_READY') ready++;
  const latest = s.SandboxStatuses[0];
  if (ready > 1) return { changed: true, attempt: latest.Attempt + 1, sandboxID: latest.Id };
  if (latest.State !== 'SANDBOX_READY') return { changed: true, attempt: latest.Attempt + 1, sandboxID: latest.Id };
  if (latest.HostNetwork !== !!pod.spec.hostNetwork) return { changed: true, attempt: latest.Attempt + 1, sandboxID: '' };
  if (!pod.spec.hostNetwork && latest.Ip === '') return { changed: true, attempt: latest.Attempt + 1, sandboxID: latest.Id };
  return { changed: false, attempt: latest.Attempt, sandboxID: latest.Id };
}

// upstream: pkg/kubelet/container/helpers.go ShouldContainerBeRestarted
export function shouldContainerBeRestarted(c: Container, pod: Pod, s: RuntimePodStatus): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const status = findContainerStatusByName(s, c.name);
  if (!status) return true;
  if (status.State === 'running') return false;
  if (status.State === 'unknown' || status.State === 'created') return true;
  if (pod.spec.restartPolicy === 'Never') return false;
  if (pod.spec.restartPolicy === 'OnFailure' && status.ExitCode === 0) return false;
  return true;
}

// upstream: kuberuntime_manager.go hasAnyRegularContainerCreated
function hasAnyRegularContainerCreated(pod: Pod, s: RuntimePodStatus): boolean {
  return pod.spec.containers.some((c) => {
    const st = findContainerStatusByName(s, c.name);
    return !!st && (st.State === 'created' || st.State === 'running' || st.State === 'exited');
  });
}

/** Init-container actions; returns whether the pod has been initialized. */
// upstream: kuberuntime_manager.go computeInitContainerActions
export function computeInitContainerActions(pod: Pod, s: RuntimePodStatus, changes: PodActions, probes: ProbeResults): boolean {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return true;
  let podHasInitialized = false;
  for (const c of pod.spec.containers) {
    const st = findContainerStatusByName(s, c.name);
    if (st && (st.State === 'created' || st.State === 'running')) {
      podHasInitialized = true;
      break;
    }
  }
  let isPreviouslyInitialized = podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  const start = changes.InitContainersToStart;

  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    const status = findContainerStatusByName(s, c.name);
    if (!status) {
      if (isPreviouslyInitialized && isRestartableInitContainer(c)) start.push(i);
      continue;
    }
    if (isPreviouslyInitialized && !isRestartableInitContainer(c)) continue;

    switch (status.State) {
      case 'created':
        start.push(i);
        break;
      case 'running': {
        if (!isRestartableInitContainer(c)) break;
        if (c.startupProbe) {
          const startup = probes.startup.get(status.ID);
          if (startup === undefined) break;
          if (startup !== 'Success') {
            if (startup === 'Failure') {
              changes.ContainersToKill.set(status.ID, { name: c.name, container: c, message: `Init container ${c.name} failed startup probe`, reason: 'StartupProbe' });
              start.push(i);
            }
            break;
          }
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!isPreviouslyInitialized) start.push(i + 1);
        if (containerChanged(c, status)) {
          changes.ContainersToKill.set(status.ID, { name: c.name, container: c, message: `Init container ${c.name} definition changed`, reason: '' });
          start.push(i);
          break;
        }
        if (c.livenessProbe) {
          const liveness = probes.liveness.get(status.ID);
          if (liveness === undefined) break;
          if (liveness === 'Failure') {
            changes.ContainersToKill.set(status.ID, { name: c.name, container: c, message: `Init container ${c.name} failed liveness probe`, reason: 'LivenessProbe' });
            start.push(i);
            break;
          }
        }
        break;
      }
      case 'exited':
        if (isRestartableInitContainer(c)) start.push(i);
        else {
          if (isInitContainerFailed(status)) {
            if (!restartOnFailure) {
              changes.KillPod = true;
              changes.InitContainersToStart = [];
              return false;
            }
            start.push(i);
            break;
          }
          if (i === inits.length - 1) podHasInitialized = true;
          else start.push(i + 1);
        }
        break;
      default:
        if (isRestartableInitContainer(c)) {
          changes.ContainersToKill.set(status.ID, { name: c.name, container: c, message: `Init container is in "${status.State}" state, try killing it before restart`, reason: 'Unknown' });
          start.push(i);
        } else {
          if (!restartOnFailure) {
            changes.KillPod = true;
            changes.InitContainersToStart = [];
            return false;
          }
          changes.ContainersToKill.set(status.ID, { name: c.name, container: c, message: `Init container is in "${status.State}" state, try killing it before restart`, reason: 'Unknown' });
          start.push(i);
        }
    }
    if (!isPreviouslyInitialized) isPreviouslyInitialized = true;
  }
  if (!isPreviouslyInitialized) start.push(0);
  start.reverse();
  return podHasInitialized;
}

/** A resized pod's computePodResizeAction for the container at idx: false when the resize restarts it. */
export type ResizeAction = (idx: number, status: RuntimeContainerStatus, changes: PodActions) => boolean;

/** computePodActions: compare the pod spec with the runtime and decide what SyncPod does. */
// upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions (v1.36.2 L1175)
export function computePodActions(pod: Pod, s: RuntimePodStatus, probes: ProbeResults, resize?: ResizeAction): PodActions {
  // computePodActions#1
  const sb = podSandboxChanged(pod, s);
  const changes: PodActions = {
    KillPod: sb.changed,
    CreateSandbox: sb.changed,
    SandboxID: sb.sandboxID,
    Attempt: sb.attempt,
    InitContainersToStart: [],
    ContainersToStart: [],
    EphemeralContainersToStart: [],
    ContainersToKill: new Map(),
  };

  // computePodActions#2: a new sandbox means every container starts over
  if (sb.changed) {
    if (!shouldRestartOnFailure(pod) && sb.attempt !== 0 && s.ContainerStatuses.length !== 0) {
      changes.CreateSandbox = false;
      return changes;
    }
    const containersToStart: number[] = [];
    const containers = pod.spec.containers;
    for (let idx = 0; idx < containers.length; idx++) {
      if (pod.spec.restartPolicy === 'OnFailure' && containerSucceeded(containers[idx], s)) continue;
      containersToStart.push(idx);
    }
    if (containersToStart.length === 0 && hasAnyRegularContainerCreated(pod, s)) {
      changes.CreateSandbox = false;
      return changes;
    }
    if ((pod.spec.initContainers ?? []).length !== 0) {
      changes.InitContainersToStart = [0];
      return changes;
    }
    changes.ContainersToStart = containersToStart;
    return changes;
  }

  // computePodActions#3: the sandbox is kept; decide container by container
  const ephemeral = pod.spec.ephemeralContainers ?? [];
  for (let i = 0; i < ephemeral.length; i++) {
    if (!findContainerStatusByName(s, ephemeral[i].name)) changes.EphemeralContainersToStart.push(i);
  }

  const hasInitialized = computeInitContainerActions(pod, s, changes, probes);
  if (changes.KillPod || !hasInitialized) return changes;

  let keepCount = 0;
  const containers = pod.spec.containers;
  for (let idx = 0; idx < containers.length; idx++) {
    const container = containers[idx];
    const status = findContainerStatusByName(s, container.name);
    if (!status || status.State !== 'running') {
      if (shouldContainerBeRestarted(container, pod, s)) {
        changes.ContainersToStart.push(idx);
        if (status && status.State === 'unknown') {
          changes.ContainersToKill.set(status.ID, {
            name: status.Name, container, reason: 'Unknown',
            message: `Container is in "${status.State}" state, try killing it before restart`,
          });
        }
      }
      continue;
    }
    let message: string;
    let reason: ContainerKillReason = '';
    let restart = shouldRestartOnFailure(pod);
    if (containerChanged(container, status)) {
      message = `Container ${container.name} definition changed`;
      restart = true;
    } else if (probes.liveness.get(status.ID) === 'Failure') {
      message = `Container ${container.name} failed liveness probe`;
      reason = 'LivenessProbe';
    } else if (probes.startup.get(status.ID) === 'Failure') {
      message = `Container ${container.name} failed startup probe`;
      reason = 'StartupProbe';
    } else if (resize && !resize(idx, status, changes)) {
      continue;
    } else {
      keepCount++;
      continue;
    }
    if (restart) {
      message = `${message}, will be restarted`;
      changes.ContainersToStart.push(idx);
    }
    changes.ContainersToKill.set(status.ID, { name: status.Name, container, message, reason });
  }

  if (keepCount === 0 && changes.ContainersToStart.length === 0) {
    changes.KillPod = true;
    changes.InitContainersToStart = [];
  }
  return changes;
}
