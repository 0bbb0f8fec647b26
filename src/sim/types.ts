// The shared vocabulary of the simulation: Kubernetes API objects in their JSON shape (k8s.io/api/core/v1),
// the container runtime's view (CRI, k8s.io/cri-api), the trace, and the cluster state that printers read.
// Pure types: no runtime code, no DOM, no Node APIs.

/** Milliseconds of virtual time since the scenario started (t = 0). */
export type VirtualTime = number;

// ---------------------------------------------------------------------------------------------
// Kubernetes API objects (core/v1), as the API server stores and serves them.
// Timestamps are RFC 3339 strings in UTC with second precision ("2026-08-04T03:32:36Z"),
// exactly as the real API server serialises metav1.Time.
// ---------------------------------------------------------------------------------------------

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
}

export type Quantity = string; // "500m", "4", "8Gi"

export interface ResourceRequirements {
  requests?: Record<string, Quantity>;
  limits?: Record<string, Quantity>;
}

export interface ContainerResizePolicy {
  resourceName: string;
  restartPolicy: 'NotRequired' | 'RestartContainer';
}

export interface EnvVar {
  name: string;
  value?: string;
}

export interface ExecAction {
  command: string[];
}
export interface HTTPGetAction {
  path?: string;
  port: number | string;
  scheme?: 'HTTP' | 'HTTPS';
  host?: string;
}
export interface TCPSocketAction {
  port: number | string;
}
export interface SleepAction {
  seconds: number;
}

export interface LifecycleHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
  sleep?: SleepAction;
}

export interface Lifecycle {
  postStart?: LifecycleHandler;
  preStop?: LifecycleHandler;
}

export interface Probe extends LifecycleHandler {
  initialDelaySeconds?: number;
  timeoutSeconds: number;
  periodSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  terminationGracePeriodSeconds?: number;
}

export interface ContainerPort {
  containerPort: number;
  name?: string;
  protocol: 'TCP' | 'UDP' | 'SCTP';
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  /** Disabled (default), IfPossible or Enabled: whether a read-only mount is read-only in its submounts too. */
  recursiveReadOnly?: 'Disabled' | 'IfPossible' | 'Enabled';
  mountPropagation?: 'None' | 'HostToContainer' | 'Bidirectional';
}

/** v1.VolumeMountStatus: a mount as the kubelet reports it in a container status. */
export interface VolumeMountStatus {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  /** Only for a read-only mount: Disabled, or Enabled when the mount is recursively read-only. */
  recursiveReadOnly?: 'Disabled' | 'Enabled';
}

export interface Container {
  name: string;
  image: string;
  /** Keep stdin open (`kubectl run -i`): an interactive shell then waits instead of exiting. */
  stdin?: boolean;
  tty?: boolean;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: ContainerPort[];
  resources: ResourceRequirements;
  /** How an in-place resize of cpu or memory is applied (no entry: NotRequired). */
  resizePolicy?: ContainerResizePolicy[];
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath: string;
  terminationMessagePolicy: 'File' | 'FallbackToLogsOnError';
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  /** Only for init containers: "Always" makes it a sidecar (restartable init container). */
  restartPolicy?: 'Always';
  /** Only for ephemeral containers: the container whose process namespace the debug container targets. */
  targetContainerName?: string;
  securityContext?: Record<string, unknown>;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  tolerationSeconds?: number;
}

export interface Volume {
  name: string;
  // Only the projected service-account token volume and emptyDir are modelled.
  projected?: unknown;
  emptyDir?: Record<string, unknown>;
}

export interface PodReadinessGate {
  conditionType: string;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  /** Debug containers, added through the pods/ephemeralcontainers subresource (`kubectl debug`), never on create. */
  ephemeralContainers?: Container[];
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds: number;
  activeDeadlineSeconds?: number;
  dnsPolicy: 'ClusterFirst' | 'Default' | 'None' | 'ClusterFirstWithHostNet';
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName: string;
  serviceAccount?: string;
  schedulerName: string;
  securityContext: Record<string, unknown>;
  tolerations?: Toleration[];
  priority: number;
  enableServiceLinks: boolean;
  preemptionPolicy: 'PreemptLowerPriority' | 'Never';
  readinessGates?: PodReadinessGate[];
  volumes?: Volume[];
  hostNetwork?: boolean;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  /** The requests the kubelet allocated (a container the runtime reports, with requests). */
  allocatedResources?: Record<string, Quantity>;
  /** The allocated resources, with the cpu and memory the runtime applied while it runs (a container the runtime reports). */
  resources?: ResourceRequirements;
  /** The spec's mounts, from the first status written before the runtime knew the container (then copied forward). */
  volumeMounts?: VolumeMountStatus[];
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodCondition {
  type: string; // PodReadyToStartContainers | Initialized | Ready | ContainersReady | PodScheduled | custom gates
  status: ConditionStatus;
  lastProbeTime: string | null;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodIP {
  ip: string;
}

export interface PodStatus {
  phase: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: PodIP[];
  podIP?: string;
  podIPs?: PodIP[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort';
  observedGeneration?: number;
}

export interface Pod {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: ObjectMeta;
  spec: PodSpec;
  status: PodStatus;
}

/** A ConfigMap or a Secret: the objects a pod's volumes and environment read (api/configs.ts). */
export interface ConfigObject {
  apiVersion: 'v1';
  kind: 'ConfigMap' | 'Secret';
  metadata: ObjectMeta;
  /** A ConfigMap's UTF-8 values; a Secret's values, base64-encoded (as the API serves them). */
  data?: Record<string, string>;
  /** A ConfigMap's binary values, base64-encoded. */
  binaryData?: Record<string, string>;
  immutable?: boolean;
  /** A Secret's type (Opaque by default). */
  type?: string;
}

export interface ObjectReference {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  /** "kubelet", "taint-eviction-controller"; absent on an event recorded through events.k8s.io/v1 (the scheduler's). */
  component?: string;
  host?: string;
}

/** An events.k8s.io/v1 series: an isomorphic event seen `count` times, last at lastObservedTime (MicroTime). */
export interface EventSeries {
  count: number;
  lastObservedTime: string;
}

/** core/v1 Event, as `kubectl get events` and `kubectl describe` read it. */
export interface KubeEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: EventSource;
  /** Set by a core/v1 recorder (the kubelet's); null on an events.k8s.io/v1 event (the scheduler's), which has eventTime. */
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** Absent (0) on an events.k8s.io/v1 event, which counts in `series`. */
  count?: number;
  type: 'Normal' | 'Warning';
  eventTime: string | null;
  series?: EventSeries;
  reportingComponent: string;
  reportingInstance: string;
  action?: string;
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface Node {
  apiVersion: 'v1';
  kind: 'Node';
  metadata: ObjectMeta;
  spec: { podCIDR?: string; podCIDRs?: string[]; taints?: Taint[]; unschedulable?: boolean };
  status: {
    capacity: Record<string, Quantity>;
    allocatable: Record<string, Quantity>;
    addresses: { type: 'InternalIP' | 'Hostname'; address: string }[];
    conditions: NodeCondition[];
    nodeInfo: {
      kubeletVersion: string;
      containerRuntimeVersion: string;
      kernelVersion: string;
      osImage: string;
      operatingSystem: string;
      architecture: string;
      machineID: string;
      systemUUID: string;
      bootID: string;
      kubeProxyVersion?: string;
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Container runtime (CRI) view, per node: what `crictl pods|ps|inspect|images` print.
// Times are virtual milliseconds; printers convert them.
// ---------------------------------------------------------------------------------------------

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type CriContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface NamespaceRef {
  type: 'pid' | 'ipc' | 'uts' | 'network' | 'mount' | 'cgroup';
  /** Set when the namespace is joined from another process (the pause process): "/proc/<pid>/ns/<x>". */
  path?: string;
}

export interface CriSandbox {
  id: string; // 64 hex
  podUid: string;
  name: string;
  namespace: string;
  attempt: number;
  state: SandboxState;
  createdAt: VirtualTime;
  ip: string;
  pausePid: number;
  runtimeHandler: string; // "" shows as "(default)"
  labels: Record<string, string>;
  /** The sandbox config's annotations: the pod's own (newPodAnnotations), as when the sandbox was created. */
  annotations?: Record<string, string>;
  /** When the kubelet's pod config first saw the pod (its kubernetes.io/config.seen annotation, which crictl shows). */
  configSeen?: VirtualTime;
}

export interface CriContainer {
  id: string; // 64 hex
  sandboxId: string;
  podUid: string;
  podName: string;
  podNamespace: string;
  name: string;
  attempt: number;
  image: string; // the image reference the pod asked for
  imageId: string; // "sha256:<64 hex>"
  state: CriContainerState;
  createdAt: VirtualTime;
  startedAt?: VirtualTime;
  finishedAt?: VirtualTime;
  exitCode?: number;
  reason?: string; // "Completed" | "Error" | "OOMKilled" | "StartError"
  /** The runtime's own message: why a container that never ran could not start. */
  message?: string;
  pid?: number;
  namespaces: NamespaceRef[];
  logPath: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** The Linux resources UpdateContainerResources last set (absent until then). */
  resources?: CriLinuxResources;
}

/** runtimeapi.LinuxContainerResources, the fields the kubelet sets for cpu and memory (int64 as strings, as crictl prints them). */
export interface CriLinuxResources {
  cpuPeriod: string;
  cpuQuota: string;
  cpuShares: string;
  memoryLimitInBytes: string;
}

export interface CriImage {
  id: string; // "sha256:<64 hex>"
  repoTags: string[];
  repoDigests: string[];
  size: number; // bytes
}

export interface NodeRuntime {
  node: string;
  /** PID of the node's kubelet (klog and journalctl print it). */
  kubeletPid?: number;
  /** The kubelet's --v: it writes the log lines whose verbosity is at most this (default 0, kubeadm's). */
  kubeletVerbosity?: number;
  runtimeVersion: string; // "containerd://2.1.4"
  sandboxes: CriSandbox[];
  containers: CriContainer[];
  images: CriImage[];
}

// ---------------------------------------------------------------------------------------------
// Logs
// ---------------------------------------------------------------------------------------------

/** One kubelet log line (klog structured form), as journalctl shows it. */
export interface KubeletLogLine {
  t: VirtualTime;
  node: string;
  severity: 'I' | 'W' | 'E';
  /** "scope.go:122" */
  source: string;
  msg: string;
  /** key/value pairs, values already formatted the way klog prints them (strings quoted). */
  kv: [string, string][];
  /** klog verbosity of the call (0 = always logged; 2, 3, 4 = logged at --v=2 and above: the engine records a line only when the node's kubeletVerbosity is at least this). */
  v?: number;
  /** PID of the kubelet process, as journalctl and klog print it. */
  pid?: number;
  /** A klog.Errorf-style line (unstructured): `msg` printed as it is, not quoted, and no key/value pairs. */
  plain?: boolean;
}

export interface ContainerLogLine {
  t: VirtualTime;
  containerId: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

// ---------------------------------------------------------------------------------------------
// The trace: what happened, in order, each event pointing at the code step that caused it.
// ---------------------------------------------------------------------------------------------

export type Actor = 'kubectl' | 'apiserver' | 'scheduler' | 'kubelet' | 'runtime' | 'process' | 'controller-manager';

export interface TraceEvent {
  /** Sequence number in the trace, 0-based, strictly increasing. */
  seq: number;
  t: VirtualTime;
  actor: Actor;
  /** Short machine-readable kind: "PodCreated", "Bound", "SandboxCreated", "ContainerStarted", ... */
  kind: string;
  /** The step of quoted upstream code that produced this event: "SyncPod#4", "startContainer#2". */
  key?: string;
  /** "pod/default/nginx", "node/worker01", "container/<id>" */
  object: string;
  /** Human-readable one-line description. */
  detail: string;
}

// ---------------------------------------------------------------------------------------------
// The cluster at one virtual time: everything the printers need. Treat as immutable.
// ---------------------------------------------------------------------------------------------

export interface ClusterState {
  /** Virtual time of this state. */
  t: VirtualTime;
  /** Wall-clock epoch (ms since 1970) that virtual time 0 stands for. */
  epoch: number;
  pods: Pod[];
  events: KubeEvent[];
  nodes: Node[];
  runtimes: NodeRuntime[];
  kubeletLogs: KubeletLogLine[];
  containerLogs: ContainerLogLine[];
  /** The ConfigMaps the run created (absent from an engine without api/configs.ts; kube-root-ca.crt is not stored). */
  configMaps?: ConfigObject[];
  /** The Secrets the run created (likewise). */
  secrets?: ConfigObject[];
}

// ---------------------------------------------------------------------------------------------
// Talking to the cluster: actions that change it (what kubectl run/apply/delete/patch send to the
// API server), the API server's answer, and the live engine that takes them.
// ---------------------------------------------------------------------------------------------

/**
 * PATCH nodes/{name}, as `kubectl label|annotate node`, `cordon`, `uncordon` and `taint` send it: a node patch may
 * change the node's labels, annotations, spec.unschedulable and spec.taints.
 */
export interface NodePatchAction {
  type: 'patch';
  kind: 'Node';
  name: string;
  patchType: PatchType;
  patch: unknown;
  /** Unknown fields in the patched node: Warn (the default: kubectl sends none for these patches), Strict or Ignore. */
  fieldValidation?: FieldValidation;
}

/**
 * How the API server treats unknown fields in a request's object (the `fieldValidation` query parameter): Strict
 * refuses the request, Warn drops them with a warning each (the server's default when a request names none), Ignore
 * drops them. upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go fieldValidation
 */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/**
 * How a change is sent: a PATCH of one of the three types kubectl sends (its Content-Type's
 * application/merge-patch+json, json-patch+json, strategic-merge-patch+json), or `put`, a PUT of the whole object
 * (`kubectl replace`), which the API server takes through the same update path as a patch's result.
 */
export type PatchType = 'merge' | 'json' | 'strategic' | 'put';

export type ClusterAction =
  /**
   * POST a pod: `obj` is the object as kubectl sends it (before API defaulting and validation). fieldValidation:
   * Strict by default, as kubectl create, apply and run ask (--validate=strict).
   */
  | { type: 'create'; namespace: string; obj: unknown; fieldValidation?: FieldValidation }
  /** DELETE with options, as `kubectl delete pod` sends them. `force` = --force --grace-period=0. */
  | { type: 'delete'; kind: 'Pod'; namespace: string; name: string; gracePeriodSeconds?: number; force?: boolean }
  /** PATCH, as `kubectl patch` sends it. */
  | {
    type: 'patch'; kind: 'Pod'; namespace: string; name: string; patchType: PatchType; patch: unknown;
    /** Warn by default: kubectl patch names none, and the server's default is Warn (kubectl apply asks for Strict). */
    fieldValidation?: FieldValidation;
    /**
     * `ephemeralcontainers`: PATCH pods/{name}/ephemeralcontainers as `kubectl debug` sends it (only
     * spec.ephemeralContainers changes, and only by additions). `resize`: `kubectl patch --subresource resize`,
     * PATCH pods/{name}/resize (only container resources and resizePolicy).
     */
    subresource?: 'ephemeralcontainers' | 'resize';
  }
  | NodePatchAction
  /**
   * CRI StopPodSandbox on a node, as `crictl stopp <POD-ID>` sends it from the node's shell (not an API request):
   * `id` is a sandbox ID or a unique prefix of one. The result carries the sandbox's pod.
   */
  | { type: 'stopPodSandbox'; node: string; id: string }
  /** POST pods/{name}/eviction, the Eviction API, as `kubectl drain` sends it for each pod of the node. */
  | { type: 'evict'; namespace: string; name: string; gracePeriodSeconds?: number }
  | CreateWhenGoneAction
  | PodExecAction
  | ConfigAction;

/**
 * `kubectl replace --force` after its DELETE: a client that asks every second whether the pod of that name is gone
 * (at once first; `timeoutMs`, five minutes by default), then POSTs `obj`. The wait is on the virtual clock; the
 * result, at once, says only that the client waits.
 */
export interface CreateWhenGoneAction { type: 'createWhenGone'; namespace: string; name: string; obj: unknown; fieldValidation?: FieldValidation; timeoutMs?: number }

/**
 * POST, PATCH or DELETE a ConfigMap or a Secret (api/configs.ts), as `kubectl create configmap|secret`, `create|apply -f`,
 * `patch` and `delete configmap|secret` send them. `obj` is the object as kubectl sends it (a Secret's stringData merged into
 * data by the server). The result carries the stored object.
 */
export type ConfigAction =
  | { type: 'config'; verb: 'create'; namespace: string; obj: unknown; fieldValidation?: FieldValidation }
  | { type: 'config'; verb: 'delete'; kind: 'ConfigMap' | 'Secret'; namespace: string; name: string }
  /**
   * PATCH, as `kubectl patch configmap|secret` and `kubectl apply -f` of a changed object send it. fieldValidation:
   * Warn by default (kubectl patch names none; kubectl apply asks for Strict).
   */
  | {
    type: 'config'; verb: 'patch'; kind: 'ConfigMap' | 'Secret'; namespace: string; name: string; patchType: PatchType; patch: unknown;
    fieldValidation?: FieldValidation;
  };

/** POST pods/{name}/exec, as `kubectl exec` sends it: the command runs in the container at once. */
export interface PodExecAction {
  type: 'exec';
  namespace: string;
  name: string;
  container: string;
  command: string[];
  /** Only the API server's checks (the pod, the container's name, a node), not the run: what a refused stream gets. */
  checkOnly?: boolean;
}

/** What an exec printed and how it ended, as the stream brings it back to kubectl. */
export interface ExecOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** An error the stream reported instead of an exit code (kubectl prints "error: " and it). */
  error?: string;
  /** Why the simulation did not run the command (a command it does not model, or one that would wait). */
  refused?: string;
}

/** metav1.Status, the shape of every API error (and of kubectl's "Error from server (...)" lines). */
export interface ApiStatus {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure' | 'Success';
  message: string;
  reason: 'NotFound' | 'AlreadyExists' | 'Invalid' | 'BadRequest' | 'Conflict' | 'Forbidden' | 'InternalError' | '';
  details?: {
    name?: string;
    kind?: string;
    causes?: { reason: string; message: string; field: string }[];
  };
  code: number;
}

export type ApplyResult<T extends Pod | Node | ConfigObject = Pod> =
  /**
   * `unchanged`: a patch that changed nothing (kubectl prints "(no change)"); `deleted`: the object is gone;
   * `warnings`: the API server's warnings (the Warning headers kubectl prints as "Warning: …").
   */
  | { ok: true; object: T; unchanged?: boolean; deleted?: boolean; exec?: ExecOutput; warnings?: string[] }
  | { ok: false; status: ApiStatus };

/** Submit an action to the API server: a node patch answers with the node, every other action with a pod. */
export type Apply = (action: ClusterAction) => ApplyResult<Pod | Node | ConfigObject>;

/** A live simulated cluster. Deterministic: same config, seed and calls → same trace and states. */
export interface Engine {
  /** Current virtual time. */
  readonly now: VirtualTime;
  /** Run every internal event up to and including time t (t >= now). */
  advanceTo(t: VirtualTime): void;
  /** Submit an action at the current time, as the API server would receive it. */
  apply(action: NodePatchAction): ApplyResult<Node>;
  apply(action: ConfigAction): ApplyResult<ConfigObject>;
  apply(action: Exclude<ClusterAction, NodePatchAction | ConfigAction>): ApplyResult;
  apply(action: ClusterAction): ApplyResult<Pod | Node | ConfigObject>;
  /** The cluster now. */
  state(): ClusterState;
  /** The cluster at any earlier time 0 <= t <= now (fast: readers scrub time). */
  stateAt(t: VirtualTime): ClusterState;
  /** The moments in (from, to] at which the cluster changed (its change history's times), in order, each once. */
  changeTimes(from: VirtualTime, to: VirtualTime): VirtualTime[];
  /** Everything that happened so far, in order. */
  readonly trace: readonly TraceEvent[];
}
