// The step keys the simulation emits: `<Func>#<n>`, the join between a trace event and the numbered
// step of quoted upstream code that produced it (see DESIGN.md, "The join"). Every key here must be
// quoted as a step somewhere in the book; the build fails otherwise.
//
// Numbering follows the step comments as the book quotes them: upstream's own `// Step N:` comments
// in SyncPod and startContainer, and the author's `// N. ...` annotations elsewhere.

export const STEPS = {
  // pkg/scheduler/schedule_one.go — (*Scheduler).ScheduleOne (author's steps; exported since v1.36)
  'ScheduleOne#1': 'take the next pod from the scheduling queue',
  'ScheduleOne#2': 'hand the pod to scheduleOnePod',

  // schedule_one.go — (*Scheduler).scheduleOnePod (author's steps)
  'scheduleOnePod#1': 'scheduling cycle: filter and score the nodes, assume the pod on the best (or FailedScheduling)',
  'scheduleOnePod#2': 'binding cycle: bind the pod to the chosen node (Scheduled event)',

  // pkg/kubelet/kuberuntime/kuberuntime_manager.go — SyncPod (upstream's own "Step N" comments; v1.36 has nine)
  'SyncPod#1': 'compute sandbox and container changes (computePodActions)',
  'SyncPod#2': 'kill the pod if the sandbox has changed',
  'SyncPod#3': 'kill any running containers which are not to keep',
  'SyncPod#4': 'create a sandbox for the pod if necessary',
  'SyncPod#5': 'invoke the sandbox ready callback (OnPodSandboxReady) before image pulling',
  'SyncPod#6': 'start ephemeral containers',
  'SyncPod#7': 'start init containers',
  'SyncPod#8': 'resize running containers (in-place vertical scaling)',
  'SyncPod#9': 'start the containers in ContainersToStart',

  // kuberuntime_manager.go — computePodActions (author's steps)
  'computePodActions#1': 'decide whether the sandbox must be (re)created (PodSandboxChanged)',
  'computePodActions#2': 'new sandbox: start the first init container or every container',
  'computePodActions#3': 'sandbox kept: for each container, keep it, restart it, or kill and restart it',

  // kuberuntime_manager.go — doBackOff (author's steps)
  'doBackOff#1': 'still in back-off: BackOff event, CrashLoopBackOff, no restart',
  'doBackOff#2': 'back-off elapsed: record the restart (backOff.Next) and go on',

  // pkg/kubelet/kuberuntime/kuberuntime_sandbox.go — createPodSandbox (author's steps, as the article numbers them)
  'createPodSandbox#1': 'generate the sandbox config',
  'createPodSandbox#2': 'create the pod log directory',
  'createPodSandbox#3': 'look up the RuntimeClass handler',
  'createPodSandbox#4': 'CRI RunPodSandbox: the pause process, namespaces, pod IP',

  // pkg/kubelet/kuberuntime/kuberuntime_container.go — startContainer (upstream's own "Step N" comments)
  'startContainer#1': 'pull the image (EnsureImageExists)',
  'startContainer#2': 'create the container',
  'startContainer#3': 'start the container',
  'startContainer#4': 'run the PostStart hook',

  // kuberuntime_container.go — killContainer (author's steps, as the article numbers them)
  'killContainer#1': 'choose the grace period (and emit Killing)',
  'killContainer#2': 'run the PreStop hook within the grace period',
  'killContainer#3': 'keep at least the 2-second minimum grace period',
  'killContainer#4': 'CRI StopContainer: SIGTERM, then SIGKILL when the grace period ends',

  // kuberuntime_manager.go — killPodWithSyncResult (author's steps)
  'killPodWithSyncResult#1': 'kill every container',
  'killPodWithSyncResult#2': 'stop the sandbox (garbage collection removes it later)',
} as const;

export type StepKey = keyof typeof STEPS;

export function isStepKey(key: string): key is StepKey {
  return Object.hasOwn(STEPS, key);
}
