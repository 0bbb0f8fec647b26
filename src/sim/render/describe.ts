// `kubectl describe pod`: kubectl's PodDescriber layout, written through a prefix writer into a
// text/tabwriter (minwidth 0, padding 2) exactly as kubectl does, so blocks align and break where
// kubectl's do (every line without a tab flushes the alignment).
// upstream: k8s.io/kubectl/pkg/describe/describe.go describePod, describeContainers,
// describeContainerState, describeStatus, describeVolumes, DescribeEvents, printLabelsMultiline,
// printAnnotationsMultiline, printTolerationsMultilineWithIndent, describeTopologySpreadConstraints (v0.36.2)

import type { Namespace } from '../api/namespaces.ts';
import type { Service } from '../api/services.ts';
import type { Container, ContainerState, ContainerStatus, KubeEvent, Pod, Probe } from '../types.ts';
import { intValue, milliCPU, parseQuantity } from '../api/quantity.ts';
import { parseRfc3339 } from './clock.ts';
import { goQuote } from './gostrconv.ts';
import { rfc1123z } from './localtime.ts';
import { KUBECTL_DESCRIBE, TabWriter } from './tabwriter.ts';
import { eventInterval, translateTimestampSince } from './table.ts';

export interface DescribeOptions {
  /** Wall-clock ms of "now". */
  now: number;
  utcOffsetMinutes: number;
  /** Events of the cluster; the describer picks the pod's own (by name, namespace and uid). */
  events?: KubeEvent[];
  /** false = --show-events=false */
  showEvents?: boolean;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const MAX_ANNOTATION_LEN = 140;

/** describe.go prefixWriter: each level indents by two spaces. */
export class PrefixWriter {
  private tw = new TabWriter(KUBECTL_DESCRIBE);
  private out = '';
  write(level: number, text: string): void {
    this.tw.write('  '.repeat(level) + text);
  }
  /** prefixWriter.Flush → tabwriter.Flush: later lines align on their own. */
  flushAlignment(): void {
    this.out += this.tw.flush();
    this.tw = new TabWriter(KUBECTL_DESCRIBE);
  }
  finish(): string {
    return this.out + this.tw.flush();
  }
}

export function describePod(pod: Pod, o: DescribeOptions): string {
  const w = new PrefixWriter();
  const time = (ts: string) => rfc1123z(parseRfc3339(ts), o.utcOffsetMinutes);
  const { metadata: md, spec, status } = pod;

  w.write(0, `Name:\t${md.name}\n`);
  w.write(0, `Namespace:\t${md.namespace ?? 'default'}\n`);
  if (spec.priority !== undefined) w.write(0, `Priority:\t${spec.priority}\n`);
  const extra = spec as PodSpecExtra;
  if (extra.priorityClassName) w.write(0, `Priority Class Name:\t${extra.priorityClassName}\n`);
  if (extra.runtimeClassName) w.write(0, `Runtime Class Name:\t${extra.runtimeClassName}\n`);
  if (spec.serviceAccountName) w.write(0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(0, spec.nodeName ? `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (status.startTime) w.write(0, `Start Time:\t${time(status.startTime)}\n`);
  printLabelsMultiline(w, 'Labels', md.labels);
  printAnnotationsMultiline(w, 'Annotations', md.annotations);
  if (md.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
    w.write(0, `Status:\tTerminating (lasts ${translateTimestampSince(md.deletionTimestamp, o.now)})\n`);
    w.write(0, `Termination Grace Period:\t${md.deletionGracePeriodSeconds ?? 0}s\n`);
  } else {
    w.write(0, `Status:\t${status.phase}\n`);
  }
  if (status.reason) w.write(0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(0, `Message:\t${status.message}\n`);
  const seccomp = (spec.securityContext as SecurityContext | undefined)?.seccompProfile;
  if (seccomp) {
    w.write(0, `SeccompProfile:\t${seccomp.type ?? ''}\n`);
    if (seccomp.type === 'Localhost') w.write(0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
  }
  w.write(0, `IP:\t${status.podIP ?? ''}\n`);
  if (!status.podIPs || status.podIPs.length === 0) {
    w.write(0, 'IPs:\t<none>\n');
  } else {
    w.write(0, 'IPs:\n');
    for (const ip of status.podIPs) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const controller = (md.ownerReferences ?? []).find((r) => r.controller);
  if (controller) w.write(0, `Controlled By:\t${controller.kind}/${controller.name}\n`);
  if (status.nominatedNodeName) w.write(0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);

  if ((spec.initContainers ?? []).length > 0) {
    describeContainers(w, 'Init Containers', spec.initContainers ?? [], status.initContainerStatuses ?? [], time, pod);
  }
  describeContainers(w, 'Containers', spec.containers, status.containerStatuses ?? [], time, pod);
  if (spec.ephemeralContainers?.length) {
    describeContainers(w, 'Ephemeral Containers', spec.ephemeralContainers, status.ephemeralContainerStatuses ?? [], time, pod);
  }

  if ((spec.readinessGates ?? []).length > 0) {
    w.write(0, 'Readiness Gates:\n  Type\tStatus\n');
    for (const g of spec.readinessGates ?? []) {
      const c = (status.conditions ?? []).find((x) => x.type === g.conditionType);
      w.write(1, `${g.conditionType} \t${c ? c.status : '<none>'} \n`);
    }
  }
  if ((status.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of status.conditions ?? []) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, spec.volumes ?? []);
  w.write(0, `QoS Class:\t${status.qosClass ?? podQOS(pod)}\n`);
  printLabelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
  printTolerations(w, spec.tolerations ?? []);
  describeTopologySpreadConstraints(w, extra.topologySpreadConstraints ?? []);
  if (o.showEvents !== false) describeEvents(w, podEvents(pod, o.events ?? []), o.now);
  return w.finish();
}

/**
 * `kubectl describe namespace`: identity and phase, then the namespace's resource quotas and limit ranges (a fresh
 * cluster has none). upstream: describe.go describeNamespace, DescribeResourceQuotas, DescribeLimitRanges
 */
export function describeNamespace(ns: Namespace): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${ns.metadata.name}\n`);
  printLabelsMultiline(w, 'Labels', ns.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', undefined);
  w.write(0, `Status:\t${ns.status.phase}\n`);
  w.write(0, '\n');
  w.write(0, 'No resource quota.\n');
  w.write(0, '\n');
  w.write(0, 'No LimitRange resource.\n');
  return w.finish();
}

/**
 * A Service as `kubectl describe service` prints it. The model has no EndpointSlices (no control-plane node behind
 * `kubernetes`, no CoreDNS pods behind `kube-dns`) and records no Service events, so each port's Endpoints and the
 * Events read `<none>`, as the real kubectl prints them against `podlife serve`.
 */
// upstream: k8s.io/kubectl/pkg/describe/describe.go describeService (formatEndpointSlices: "<none>" without slices)
export function describeService(svc: Service, showEvents = true): string {
  const w = new PrefixWriter();
  const s = svc.spec;
  w.write(0, `Name:\t${svc.metadata.name}\n`);
  w.write(0, `Namespace:\t${svc.metadata.namespace}\n`);
  printLabelsMultiline(w, 'Labels', svc.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
  w.write(0, `Selector:\t${formatLabels(s.selector)}\n`);
  w.write(0, `Type:\t${s.type}\n`);
  w.write(0, `IP Family Policy:\t${s.ipFamilyPolicy}\n`);
  w.write(0, `IP Families:\t${s.ipFamilies.join(',') || '<none>'}\n`);
  w.write(0, `IP:\t${s.clusterIP}\n`);
  w.write(0, `IPs:\t${s.clusterIPs.join(',') || '<none>'}\n`);
  for (const port of s.ports) {
    w.write(0, `Port:\t${port.name || '<unset>'}\t${port.port}/${port.protocol}\n`);
    w.write(0, `TargetPort:\t${port.targetPort}/${port.protocol}\n`);
    w.write(0, 'Endpoints:\t<none>\n');
  }
  w.write(0, `Session Affinity:\t${s.sessionAffinity}\n`);
  w.write(0, `Internal Traffic Policy:\t${s.internalTrafficPolicy}\n`);
  if (showEvents) w.write(0, 'Events:\t<none>\n');
  return w.finish();
}

/**
 * The events `kubectl describe` fetches for a pod: involvedObject kind, name, namespace and uid (Events.Search with the
 * pod's reference), so an event whose reference has no uid, such as the taint-eviction controller's, is not listed.
 */
export function podEvents(pod: Pod, events: KubeEvent[]): KubeEvent[] {
  return events.filter(
    (e) =>
      e.involvedObject.name === pod.metadata.name &&
      (e.involvedObject.namespace ?? 'default') === (pod.metadata.namespace ?? 'default') &&
      e.involvedObject.uid === pod.metadata.uid && e.involvedObject.kind === 'Pod',
  );
}

/** labels.FormatLabels: sorted k=v joined by commas, or <none>. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}

export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return w.write(0, '<none>\n');
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, '\t');
    w.write(0, `${k}=${labels![k]}\n`);
  });
}

export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | undefined): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {}).filter((k) => k !== LAST_APPLIED).sort();
  if (keys.length === 0) return w.write(0, '<none>\n');
  keys.forEach((k, i) => {
    if (i !== 0) w.write(0, '\t');
    const value = annotations![k].replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(0, `${k}:\n`);
      for (const s of value.split('\n')) {
        const short = s.length > MAX_ANNOTATION_LEN - 2 ? `${s.slice(0, MAX_ANNOTATION_LEN - 2)}...` : s;
        w.write(0, `\t  ${short}\n`);
      }
    } else {
      w.write(0, `${k}: ${value}\n`);
    }
  });
}

function printTolerations(w: PrefixWriter, tolerations: Pod['spec']['tolerations'] & object): void {
  w.write(0, 'Tolerations:\t');
  if (tolerations.length === 0) return w.write(0, '<none>\n');
  const sorted = [...tolerations].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined) s += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${s}\n`);
  });
}

function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: Container[],
  statuses: ContainerStatus[],
  time: (ts: string) => string,
  pod: Pod,
): void {
  const byName = new Map(statuses.map((s) => [s.name, s]));
  w.write(0, `${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const status = byName.get(c.name);
    w.write(1, `${c.name}:\n`);
    if (status) w.write(2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image}\n`);
    if (status) w.write(2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol}${p.name ? ` (${p.name})` : ''}`).join(', ');
    // describeContainerHostPorts: the host port, 0 when unset
    const hostPorts = (c.ports ?? [])
      .map((p) => `${(p as ContainerPortExtra).hostPort ?? 0}/${p.protocol}${p.name ? ` (${p.name})` : ''}`)
      .join(', ');
    w.write(2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${ports || '<none>'}\n`);
    w.write(2, hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${hostPorts || '<none>'}\n`);
    // describeContainerBasicInfo: the container's seccomp profile
    const seccomp = (c.securityContext as SecurityContext | undefined)?.seccompProfile;
    if (seccomp) {
      w.write(2, `SeccompProfile:\t${seccomp.type ?? ''}\n`);
      if (seccomp.type === 'Localhost') w.write(3, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
    }
    if ((c.command ?? []).length > 0) {
      w.write(2, 'Command:\n');
      for (const x of c.command ?? []) for (const s of x.split('\n')) w.write(3, `${s}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(2, 'Args:\n');
      for (const x of c.args ?? []) for (const s of x.split('\n')) w.write(3, `${s}\n`);
    }
    if (status) {
      describeStatus(w, 'State', status.state, time);
      if (status.lastState?.terminated) describeStatus(w, 'Last State', status.lastState, time);
      w.write(2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${status.restartCount}\n`);
    }
    describeResources(w, c);
    if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    const envFrom = (c as ContainerExtra).envFrom ?? [];
    if (envFrom.length > 0) describeContainerEnvFrom(w, envFrom);
    describeContainerEnvVars(w, c, pod);
    describeContainerVolumes(w, c);
  }
}

/** upstream: describe.go describeContainerEnvVars (a valueFrom of no known kind prints nothing) */
function describeContainerEnvVars(w: PrefixWriter, c: Container, pod: Pod): void {
  const env = (c.env ?? []) as EnvVarExtra[];
  w.write(2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
  for (const e of env) {
    const from = e.valueFrom;
    if (!from) {
      (e.value ?? '').split('\n').forEach((s, i) => w.write(3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
    } else if (from.fieldRef) {
      const value = envValueRetriever(pod, from.fieldRef);
      w.write(3, `${e.name}:\t${value} (${from.fieldRef.apiVersion ?? ''}:${from.fieldRef.fieldPath})\n`);
    } else if (from.resourceFieldRef) {
      const resource = from.resourceFieldRef.resource;
      let value = extractContainerResourceValue(from.resourceFieldRef, c);
      if (value === '0' && (resource === 'limits.cpu' || resource === 'limits.memory')) value = 'node allocatable';
      w.write(3, `${e.name}:\t${value} (${resource})\n`);
    } else if (from.secretKeyRef) {
      const r = from.secretKeyRef;
      w.write(3, `${e.name}:\t<set to the key '${r.key}' in secret '${r.name ?? ''}'>\tOptional: ${r.optional === true}\n`);
    } else if (from.configMapKeyRef) {
      const r = from.configMapKeyRef;
      w.write(3, `${e.name}:\t<set to the key '${r.key}' of config map '${r.name ?? ''}'>\tOptional: ${r.optional === true}\n`);
    }
  }
}

/** upstream: describe.go describeContainerEnvFrom */
function describeContainerEnvFrom(w: PrefixWriter, envFrom: EnvFromSource[]): void {
  w.write(2, 'Environment Variables from:\n');
  for (const e of envFrom) {
    let from = '';
    let name = '';
    let optional = false;
    if (e.configMapRef) {
      from = 'ConfigMap';
      name = e.configMapRef.name ?? '';
      optional = e.configMapRef.optional === true;
    } else if (e.secretRef) {
      from = 'Secret';
      name = e.secretRef.name ?? '';
      optional = e.secretRef.optional === true;
    }
    if (!e.prefix) w.write(3, `${name}\t${from}\tOptional: ${optional}\n`);
    else w.write(3, `${name}\t${from} with prefix '${e.prefix}'\tOptional: ${optional}\n`);
  }
}

/**
 * upstream: describe.go EnvValueRetriever. kubectl converts the field path with its own scheme, which registers no
 * field label conversion for pods: runtime.DefaultMetaV1FieldSelectorConversion knows metadata.name and
 * metadata.namespace only, so every other field path (spec.nodeName, status.podIP, metadata.labels[...]) prints empty.
 */
function envValueRetriever(pod: Pod, ref: { apiVersion?: string; fieldPath: string }): string {
  // schema.ParseGroupVersion: more than one "/" is an error
  if ((ref.apiVersion ?? '').split('/').length > 2) return '';
  if (ref.fieldPath === 'metadata.name') return pod.metadata.name;
  if (ref.fieldPath === 'metadata.namespace') return pod.metadata.namespace ?? '';
  return '';
}

/**
 * upstream: kubectl/pkg/util/resource ExtractContainerResourceValue (of the container described, whatever its
 * containerName): the ceiling of the quantity over the divisor (1 when zero); an unsupported resource is empty.
 */
function extractContainerResourceValue(ref: { resource: string; divisor?: string | number }, c: Container): string {
  const divisor = ref.divisor === undefined || !parseQuantity(ref.divisor) ? '1' : ref.divisor;
  const [kind, name] = ref.resource.split(/\.(.*)/s);
  if ((kind !== 'limits' && kind !== 'requests') || !['cpu', 'memory', 'ephemeral-storage'].includes(name)) return '';
  // an unset resource is a zero quantity
  const q = (kind === 'limits' ? c.resources?.limits : c.resources?.requests)?.[name];
  const value = name === 'cpu' ? Math.ceil(milliCPU(q) / milliCPU(divisor)) : Math.ceil(intValue(q) / intValue(divisor));
  return String(value);
}

/** upstream: describe.go describeContainerVolumes (subPathExpr is not shown) */
function describeContainerVolumes(w: PrefixWriter, c: Container): void {
  const byPath = <T>(key: (x: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const mounts = ([...(c.volumeMounts ?? [])] as VolumeMountExtra[]).sort(byPath((m) => m.mountPath));
  const none = mounts.length === 0 ? '\t<none>' : '';
  w.write(2, `Mounts:${none}\n`);
  for (const m of mounts) {
    const flags = [m.readOnly ? 'ro' : 'rw'];
    if (m.subPath) flags.push(`path=${goQuote(m.subPath)}`);
    w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
  const devices = [...((c as ContainerExtra).volumeDevices ?? [])].sort(byPath((d) => d.devicePath));
  if (devices.length > 0) {
    // upstream writes the mounts' "<none>" here too
    w.write(2, `Devices:${none}\n`);
    for (const d of devices) w.write(3, `${d.devicePath} from ${d.name}\n`);
  }
}

function describeStatus(w: PrefixWriter, name: string, state: ContainerState, time: (ts: string) => string): void {
  if (state.running) {
    w.write(2, `${name}:\tRunning\n`);
    w.write(3, `Started:\t${time(state.running.startedAt)}\n`);
  } else if (state.waiting) {
    w.write(2, `${name}:\tWaiting\n`);
    if (state.waiting.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state.terminated) {
    const t = state.terminated;
    w.write(2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode}\n`);
    if (t.signal && t.signal > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${t.startedAt ? time(t.startedAt) : ZERO_TIME}\n`);
    w.write(3, `Finished:\t${t.finishedAt ? time(t.finishedAt) : ZERO_TIME}\n`);
  } else {
    w.write(2, `${name}:\tWaiting\n`);
  }
}

/** Go's zero time.Time formatted with RFC1123Z. */
const ZERO_TIME = 'Mon, 01 Jan 0001 00:00:00 +0000';

const RESOURCE_ORDER = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function describeResources(w: PrefixWriter, c: Container): void {
  const { limits, requests } = c.resources ?? {};
  if (limits && Object.keys(limits).length > 0) {
    w.write(2, 'Limits:\n');
    for (const k of Object.keys(limits).sort(RESOURCE_ORDER)) w.write(3, `${k}:\t${limits[k]}\n`);
  }
  if (requests && Object.keys(requests).length > 0) {
    w.write(2, 'Requests:\n');
    for (const k of Object.keys(requests).sort(RESOURCE_ORDER)) w.write(3, `${k}:\t${requests[k]}\n`);
  }
}

/** upstream: describe.go DescribeProbe */
export function describeProbe(p: Probe): string {
  const attrs =
    `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds}s period=${p.periodSeconds}s ` +
    `#success=${p.successThreshold} #failure=${p.failureThreshold}`;
  if (p.exec) return `exec [${p.exec.command.join(' ')}] ${attrs}`;
  if (p.httpGet) {
    // url.URL{Scheme, Host: net.JoinHostPort(host, port), Path}.String()
    const port = String(p.httpGet.port ?? '');
    const host = p.httpGet.host ?? '';
    return `http-get ${goURL((p.httpGet.scheme ?? '').toLowerCase(), port ? joinHostPort(host, port) : host, p.httpGet.path ?? '')} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${(p.tcpSocket as { host?: string }).host ?? ''}:${p.tcpSocket.port} ${attrs}`;
  // the API server defaults grpc.service to ""
  const grpc = (p as { grpc?: { port: number; service?: string } }).grpc;
  if (grpc) return `grpc <pod>:${grpc.port} ${grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

/** Go's net.JoinHostPort: a host with a colon (IPv6) in brackets. */
function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Go's (*url.URL).String for a URL with only a scheme, a host and a path: "//" before a host or a path, a "/" between
 * a host and a path that does not start with one, the host and path percent-encoded as url.escape does.
 */
// upstream: go/src/net/url/url.go (*URL).String, EscapedPath, escape, shouldEscape
function goURL(scheme: string, host: string, path: string): string {
  let out = scheme ? `${scheme}:` : '';
  if (scheme || host) {
    if (host || path) out += '//';
    out += urlEscape(host, 'host');
  }
  const escaped = urlEscape(path, 'path');
  if (escaped && escaped[0] !== '/' && host) out += '/';
  if (out === '' && escaped.split('/')[0].includes(':')) out += './';
  return out + escaped;
}

function urlEscape(s: string, mode: 'host' | 'path'): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    const keep =
      /[A-Za-z0-9\-_.~]/.test(c) ||
      (mode === 'host' && `!$&'()*+,;=:[]<>"`.includes(c)) ||
      (mode === 'path' && '$&+,/:;=@'.includes(c));
    out += keep ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

interface ProjectedSource {
  serviceAccountToken?: { expirationSeconds?: number };
  configMap?: { name: string; optional?: boolean };
  secret?: { name: string; optional?: boolean };
  downwardAPI?: unknown;
}

interface DownwardAPIFile {
  path: string;
  fieldRef?: { fieldPath: string };
  resourceFieldRef?: { resource: string };
}

/** The volume sources podlife's API server stores (types.ts models only projected and emptyDir). */
interface VolumeSources {
  hostPath?: { path: string; type?: string };
  emptyDir?: { medium?: string; sizeLimit?: string | number };
  secret?: { secretName?: string; optional?: boolean };
  configMap?: { name?: string; optional?: boolean };
  nfs?: { server: string; path: string; readOnly?: boolean };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  downwardAPI?: { items?: DownwardAPIFile[] };
  projected?: { sources?: ProjectedSource[] };
}

// upstream: describe.go describeVolumes and its print*VolumeSource (in describeVolumes' order)
function describeVolumes(w: PrefixWriter, volumes: NonNullable<Pod['spec']['volumes']>): void {
  if (volumes.length === 0) return w.write(0, 'Volumes:\t<none>\n');
  w.write(0, 'Volumes:\n');
  for (const vol of volumes) {
    const v = vol as VolumeSources;
    w.write(1, `${vol.name}:\n`);
    if (v.hostPath) {
      // printHostPathVolumeSource: "<none>" only for a nil type, and the API server defaults it to "" (HostPathUnset)
      w.write(2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type ?? ''}\n`);
    } else if (v.emptyDir) {
      // printEmptyDirVolumeSource: the limit when above zero (as stored: the model's decoding writes only a
      // container's resources in canonical form)
      const medium = v.emptyDir.medium ?? '';
      const limit = v.emptyDir.sizeLimit;
      const sizeLimit = limit !== undefined && (parseQuantity(limit) ?? 0) > 0 ? String(limit) : '<unset>';
      w.write(2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${medium}\n    SizeLimit:\t${sizeLimit}\n`);
    } else if (v.secret) {
      // printSecretVolumeSource
      w.write(2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional === true}\n`);
    } else if (v.configMap) {
      // printConfigMapVolumeSource
      w.write(2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional === true}\n`);
    } else if (v.nfs) {
      // printNFSVolumeSource
      w.write(2, `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${v.nfs.server}\n    Path:\t${v.nfs.path}\n    ReadOnly:\t${v.nfs.readOnly === true}\n`);
    } else if (v.persistentVolumeClaim) {
      // printPersistentVolumeClaimVolumeSource
      const c = v.persistentVolumeClaim;
      w.write(2, `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${c.claimName}\n    ReadOnly:\t${c.readOnly === true}\n`);
    } else if (v.downwardAPI) {
      // printDownwardAPIVolumeSource
      w.write(2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
      for (const m of v.downwardAPI.items ?? []) {
        if (m.fieldRef) w.write(3, `${m.fieldRef.fieldPath} -> ${m.path}\n`);
        if (m.resourceFieldRef) w.write(3, `${m.resourceFieldRef.resource} -> ${m.path}\n`);
      }
    } else if (v.projected) {
      // printProjectedVolumeSource
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret) w.write(2, `SecretName:\t${s.secret.name}\n    Optional:\t${s.secret.optional === true}\n`);
        else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap) w.write(2, `ConfigMapName:\t${s.configMap.name}\n    Optional:\t${s.configMap.optional === true}\n`);
        else if (s.serviceAccountToken) w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3600}\n`);
      }
    } else {
      w.write(1, '<unknown>\n');
    }
  }
}

interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: string;
  labelSelector?: LabelSelector;
}

/** upstream: describe.go describeTopologySpreadConstraints (sorted by topology key; nothing when there are none) */
function describeTopologySpreadConstraints(w: PrefixWriter, tscs: TopologySpreadConstraint[]): void {
  if (tscs.length === 0) return;
  const sorted = [...tscs].sort((a, b) => (a.topologyKey < b.topologyKey ? -1 : a.topologyKey > b.topologyKey ? 1 : 0));
  w.write(0, 'Topology Spread Constraints:\t');
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(0, '\t');
    let s = `${t.topologyKey}:${t.whenUnsatisfiable} when max skew ${t.maxSkew} is exceeded`;
    if (t.labelSelector) s += ` for selector ${formatLabelSelector(t.labelSelector)}`;
    w.write(0, `${s}\n`);
  });
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/**
 * metav1.FormatLabelSelector: LabelSelectorAsSelector's requirements sorted by key, each as Requirement.String
 * ("k=v", "k in (a,b)", "k notin (a)", "k", "!k") joined by commas; "<none>" when empty, "<error>" for an unknown operator.
 */
function formatLabelSelector(ls: LabelSelector): string {
  const reqs: [string, string][] = Object.entries(ls.matchLabels ?? {}).map(([k, v]) => [k, `${k}=${v}`]);
  for (const e of ls.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort();
    if (e.operator === 'In') reqs.push([e.key, `${e.key} in (${values.join(',')})`]);
    else if (e.operator === 'NotIn') reqs.push([e.key, `${e.key} notin (${values.join(',')})`]);
    else if (e.operator === 'Exists') reqs.push([e.key, e.key]);
    else if (e.operator === 'DoesNotExist') reqs.push([e.key, `!${e.key}`]);
    else return '<error>';
  }
  reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return reqs.map((r) => r[1]).join(',') || '<none>';
}

// Fields the API server accepts and stores that types.ts does not model.
interface PodSpecExtra {
  priorityClassName?: string;
  runtimeClassName?: string;
  topologySpreadConstraints?: TopologySpreadConstraint[];
}
interface SecurityContext {
  seccompProfile?: { type?: string; localhostProfile?: string };
}
interface ContainerPortExtra {
  hostPort?: number;
}
interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}
interface ContainerExtra {
  envFrom?: EnvFromSource[];
  volumeDevices?: { name: string; devicePath: string }[];
}
interface KeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}
interface EnvVarExtra {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { apiVersion?: string; fieldPath: string };
    resourceFieldRef?: { containerName?: string; resource: string; divisor?: string | number };
    secretKeyRef?: KeySelector;
    configMapKeyRef?: KeySelector;
  };
}
interface VolumeMountExtra {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

/** upstream: k8s.io/kubectl/pkg/util/qos GetPodQOS (computed when status.qosClass is empty). */
function podQOS(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const all = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
  const has = all.some((c) => Object.keys(c.resources?.requests ?? {}).length + Object.keys(c.resources?.limits ?? {}).length > 0);
  if (!has) return 'BestEffort';
  const guaranteed = all.every((c) => {
    const l = c.resources?.limits ?? {};
    const r = { ...l, ...(c.resources?.requests ?? {}) };
    return ['cpu', 'memory'].every((k) => l[k] !== undefined && r[k] === l[k]);
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * upstream: describe.go DescribeEvents (the field path prefixes the message), sorted by pkg/util/event
 * SortableEvents: by lastTimestamp alone, so the scheduler's events (events.k8s.io/v1: none) come first
 */
export function describeEvents(w: PrefixWriter, events: KubeEvent[], now: number): void {
  if (events.length === 0) return w.write(0, 'Events:\t<none>\n');
  w.flushAlignment();
  const last = (e: KubeEvent): number => (e.lastTimestamp ? parseRfc3339(e.lastTimestamp) : -Infinity);
  const sorted = events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (last(a.e) === last(b.e) ? a.i - b.i : last(a.e) < last(b.e) ? -1 : 1))
    .map((x) => x.e);
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const interval = eventInterval(e, now);
    const source = e.source.component || e.reportingComponent;
    let message = e.message.trim();
    if (e.involvedObject.fieldPath) message = `${e.involvedObject.fieldPath}: ${message}`;
    w.write(1, `${e.type}\t${e.reason}\t${interval}\t${source}\t${message}\n`);
  }
}
