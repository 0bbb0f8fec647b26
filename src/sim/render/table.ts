// kubectl's human-readable tables: the row printers of the API server's table convertor
// (pkg/printers/internalversion/printers.go) and kubectl's table printer (headers upper-cased,
// an optional NAMESPACE column, text/tabwriter alignment). Pods and events, which the player's panels print;
// the cluster-scoped objects' rows are in cluster-table.ts.

import type { ContainerStatus, KubeEvent, Pod, PodCondition } from '../types.ts';
import { humanDuration } from './duration.ts';
import { parseRfc3339 } from './clock.ts';
import { KUBECTL_TABLE, tabulate } from './tabwriter.ts';

/** "How long ago" as kubectl prints it; `now` is wall-clock ms. */
export function translateTimestampSince(ts: string | undefined | null, now: number): string {
  if (!ts) return '<unknown>';
  return humanDuration(now - parseRfc3339(ts));
}

export interface Table {
  headers: string[];
  rows: string[][];
}

/** Render as kubectl does; `withNamespace` prepends the NAMESPACE column (`-A`). */
export function renderTable(table: Table, namespaces?: string[], noHeaders = false): string {
  const headers = namespaces ? ['NAMESPACE', ...table.headers] : table.headers;
  const rows = table.rows.map((r, i) => (namespaces ? [namespaces[i], ...r] : r));
  // --no-headers: the header line is not written at all, so the columns are as wide as their cells
  return tabulate(noHeaders ? rows : [headers.map((h) => h.toUpperCase()), ...rows], KUBECTL_TABLE);
}

// ---------------------------------------------------------------------------------------------
// Pods
// ---------------------------------------------------------------------------------------------

export const POD_COLUMNS = ['Name', 'Ready', 'Status', 'Restarts', 'Age'];
export const POD_WIDE_COLUMNS = [...POD_COLUMNS, 'IP', 'Node', 'Nominated Node', 'Readiness Gates'];

function isRestartableInit(pod: Pod, name: string): boolean {
  return (pod.spec.initContainers ?? []).some((c) => c.name === name && c.restartPolicy === 'Always');
}

function hasCondition(conditions: PodCondition[] | undefined, type: string): boolean {
  return (conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

function laterOf(a: string | undefined, s: ContainerStatus): string | undefined {
  const f = s.lastState?.terminated?.finishedAt;
  if (!f) return a;
  return !a || parseRfc3339(a) < parseRfc3339(f) ? f : a;
}

/**
 * One `kubectl get pods` row: NAME, READY, STATUS, RESTARTS, AGE (+ IP, NODE, NOMINATED NODE,
 * READINESS GATES with `wide`).
 * upstream: pkg/printers/internalversion/printers.go printPod (v1.36)
 */
export function printPod(pod: Pod, now: number, wide = false): string[] {
  let restarts = 0;
  let sidecarRestarts = 0;
  let totalContainers = pod.spec.containers.length;
  let readyContainers = 0;
  let lastRestartDate: string | undefined;
  let lastSidecarRestartDate: string | undefined;

  const phase = pod.status.phase;
  let reason: string = phase;
  if (pod.status.reason) reason = pod.status.reason;
  for (const c of pod.status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  for (const c of pod.spec.initContainers ?? []) if (c.restartPolicy === 'Always') totalContainers++;

  let initializing = false;
  const initStatuses = pod.status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    restarts += container.restartCount;
    lastRestartDate = laterOf(lastRestartDate, container);
    const sidecar = isRestartableInit(pod, container.name);
    if (sidecar) {
      sidecarRestarts += container.restartCount;
      lastSidecarRestartDate = laterOf(lastSidecarRestartDate, container);
    }
    const st = container.state ?? {};
    if (st.terminated && st.terminated.exitCode === 0) continue;
    if (sidecar && container.started === true) {
      if (container.ready) readyContainers++;
      continue;
    }
    if (st.terminated) {
      if (!st.terminated.reason) {
        reason = st.terminated.signal
          ? `Init:Signal:${st.terminated.signal}`
          : `Init:ExitCode:${st.terminated.exitCode}`;
      } else {
        reason = `Init:${st.terminated.reason}`;
      }
    } else if (st.waiting && st.waiting.reason && st.waiting.reason !== 'PodInitializing') {
      reason = `Init:${st.waiting.reason}`;
    } else {
      reason = `Init:${i}/${(pod.spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || hasCondition(pod.status.conditions, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestartDate = lastSidecarRestartDate;
    let hasRunning = false;
    const statuses = pod.status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += container.restartCount;
      lastRestartDate = laterOf(lastRestartDate, container);
      const st = container.state ?? {};
      if (st.waiting && st.waiting.reason) {
        reason = st.waiting.reason;
      } else if (st.terminated && st.terminated.reason) {
        reason = st.terminated.reason;
      } else if (st.terminated) {
        reason = st.terminated.signal ? `Signal:${st.terminated.signal}` : `ExitCode:${st.terminated.exitCode}`;
      } else if (container.ready && st.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // Change the status back to Running if at least one container still reports Running.
    if (reason === 'Completed' && hasRunning) {
      reason = hasCondition(pod.status.conditions, 'Ready') ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && pod.status.reason === 'NodeLost') {
    reason = 'Unknown';
  } else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') {
    reason = 'Terminating';
  }

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestartDate) {
    restartsStr = `${restarts} (${translateTimestampSince(lastRestartDate, now)} ago)`;
  }

  const row = [
    pod.metadata.name,
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsStr,
    translateTimestampSince(pod.metadata.creationTimestamp, now),
  ];
  if (wide) {
    const gates = pod.spec.readinessGates ?? [];
    let readinessGates = '<none>';
    if (gates.length > 0) {
      let trueConditions = 0;
      for (const g of gates) {
        const c = (pod.status.conditions ?? []).find((x) => x.type === g.conditionType);
        if (c && c.status === 'True') trueConditions++;
      }
      readinessGates = `${trueConditions}/${gates.length}`;
    }
    row.push(
      pod.status.podIPs?.[0]?.ip || '<none>',
      pod.spec.nodeName || '<none>',
      pod.status.nominatedNodeName || '<none>',
      readinessGates,
    );
  }
  return row;
}

/** The row condition kubectl's table carries for finished pods (podSuccessConditions, podFailedConditions). */
export function podRowCondition(pod: Pod): { type: 'Completed'; status: 'True'; reason: string; message: string } | undefined {
  if (pod.status.phase === 'Succeeded') {
    return { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' };
  }
  if (pod.status.phase === 'Failed') {
    return { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

export const EVENT_COLUMNS = ['Last Seen', 'Type', 'Reason', 'Object', 'Message'];
export const EVENT_WIDE_COLUMNS = [
  'Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name',
];

/** upstream: pkg/printers/internalversion/printers.go formatEventSource */
function formatEventSource(e: KubeEvent): string {
  const component = e.source.component || e.reportingComponent;
  const instance = e.source.host || e.reportingInstance;
  return instance ? `${component}, ${instance}` : component;
}

/** The AGE of describe's events and the LAST SEEN of kubectl events: "4s", or "4s (x3 over 2m)" for a repeat. */
// upstream: kubectl describe.go DescribeEvents; pkg/cmd/events/event_printer.go getInterval
export function eventInterval(e: KubeEvent, now: number): string {
  const first = translateTimestampSince(e.eventTime || e.firstTimestamp, now);
  if (e.series) return `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  return (e.count ?? 0) > 1 ? `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})` : first;
}

/** upstream: pkg/printers/internalversion/printers.go printEvent */
export function printEvent(e: KubeEvent, now: number, wide = false): string[] {
  const firstTimestamp = e.firstTimestamp
    ? translateTimestampSince(e.firstTimestamp, now)
    : translateTimestampSince(e.eventTime, now);
  let lastTimestamp = e.lastTimestamp ? translateTimestampSince(e.lastTimestamp, now) : firstTimestamp;
  // singleton events of the new API have no count
  let count = e.count || 1;
  if (e.series) {
    lastTimestamp = translateTimestampSince(e.series.lastObservedTime, now);
    count = e.series.count;
  }
  const target = e.involvedObject.name
    ? `${e.involvedObject.kind.toLowerCase()}/${e.involvedObject.name}`
    : e.involvedObject.kind.toLowerCase();
  const message = e.message.trim();
  if (wide) {
    return [
      lastTimestamp, e.type, e.reason, target, e.involvedObject.fieldPath ?? '', formatEventSource(e),
      message, firstTimestamp, String(count), e.metadata.name,
    ];
  }
  return [lastTimestamp, e.type, e.reason, target, message];
}
