// Latencies of the modelled components, in milliseconds of virtual time. The defaults are typical of a small
// kubeadm cluster with containerd; a scenario overrides any of them under `timings:`. Periods that upstream defines
// as constants carry their citation.

export interface Timings {
  /** API server → watcher (scheduler, kubelet) propagation of a change. */
  watch: number;
  /** One scheduling cycle (filter + score) for one pod. */
  schedule: number;
  /** The binding API call. */
  bind: number;
  /** Status manager → API server status update. */
  statusUpdate: number;
  /** CRI RunPodSandbox: pause container, network namespace, CNI ADD. */
  sandboxCreate: number;
  /** CRI StopPodSandbox (CNI DEL, pause stopped). */
  sandboxStop: number;
  /** CRI CreateContainer. */
  containerCreate: number;
  /** CRI StartContainer (until the process runs). */
  containerStart: number;
  /** CRI RemoveContainer. */
  containerRemove: number;
  /** Pull time of an image the scenario does not describe. */
  defaultPull: number;
  /** One exec/httpGet/tcpSocket probe or hook round trip. */
  probe: number;
  /** genericPlegRelistPeriod: PLEG relist (0: after every change, in the same millisecond). upstream: pkg/kubelet/kubelet.go genericPlegRelistPeriod = time.Second * 1 */
  plegRelist: number;
  /** The sync loop's syncTicker that picks due pod workers. upstream: pkg/kubelet/kubelet.go syncLoop time.NewTicker(time.Second) */
  syncTick: number;
  /** housekeepingPeriod. upstream: pkg/kubelet/kubelet.go housekeepingPeriod = time.Second * 2 */
  housekeeping: number;
  /** Pod worker requeue after a failed sync (backOffPeriod). upstream: pkg/kubelet/kubelet.go backOffPeriod = time.Second * 10 */
  podWorkerBackOff: number;
  /** Pod worker resync after a successful sync (syncFrequency default 1m). upstream: pkg/kubelet/apis/config/v1beta1/defaults.go SyncFrequency */
  resync: number;
  /** wait.Jitter factor on pod worker requeues. upstream: pkg/kubelet/pod_workers.go workerBackOffPeriodJitterFactor = 0.5 */
  jitter: number;
}

export const DEFAULT_TIMINGS: Timings = {
  watch: 5,
  schedule: 3,
  bind: 12,
  statusUpdate: 15,
  sandboxCreate: 700,
  sandboxStop: 120,
  containerCreate: 60,
  containerStart: 90,
  containerRemove: 8,
  defaultPull: 5000,
  probe: 20,
  plegRelist: 1000,
  syncTick: 1000,
  housekeeping: 2000,
  podWorkerBackOff: 10_000,
  resync: 60_000,
  jitter: 0.5,
};

/**
 * Every latency zero and no jitter: the idealised timing of the upstream e2e comments (0s, 0s, 10s, 30s, ...).
 * plegRelist 0 is a continuous PLEG: the relist runs in the millisecond of each runtime change, right after it,
 * and a pod worker still waits for a relist that ran after its previous sync (src/sim/README.md).
 */
export const ZERO_LATENCY_TIMINGS: Timings = {
  ...DEFAULT_TIMINGS,
  watch: 0,
  schedule: 0,
  bind: 0,
  statusUpdate: 0,
  sandboxCreate: 0,
  sandboxStop: 0,
  containerCreate: 0,
  containerStart: 0,
  containerRemove: 0,
  defaultPull: 0,
  probe: 0,
  plegRelist: 0,
  syncTick: 0,
  jitter: 0,
};
