// The files every container of a pod gets from the kubelet and the runtime rather than from its image: /etc/hosts
// (the kubelet's, mounted into each container), /etc/hostname and /etc/resolv.conf (containerd's, from the sandbox
// config's hostname and DNS settings), and the files of the volumes it mounts (kubelet/volumes.ts volumeFiles). Read
// only when a command reads them (kubectl exec, or a container's `cat`).
// upstream: pkg/kubelet/kubelet_pods.go managedHostsHeader, hostsEntriesFromHostAliases; pkg/kubelet/network/dns
// (GetPodDNS); containerd internal/cri/server/sandbox_run.go (parseDNSOptions, the hostname file)

import type { Container, ContainerLogLine, CriContainer, Pod } from '../types.ts';
import type { SimContext } from '../core/context.ts';
import { volumeFiles, type Written } from './volumes.ts';

/** The paths of the files below, whichever of them a pod's DNS policy and network give it. */
export const MANAGED_FILES = ['/etc/hosts', '/etc/hostname', '/etc/resolv.conf'];

/**
 * A pod's /etc/hosts, /etc/hostname and /etc/resolv.conf, by path; undefined for a pod on the host's network (the node's
 * files). `podIPs`: the sandbox's, which the kubelet writes into /etc/hosts (the pod's status may not show them yet).
 */
export function managedFiles(pod: Pod, podIPs: string[] = (pod.status.podIPs ?? []).map((p) => p.ip)): Map<string, string> | undefined {
  const spec = pod.spec as Pod['spec'] & {
    hostname?: string; subdomain?: string; hostAliases?: { ip: string; hostnames?: string[] }[];
    dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name: string; value?: string }[] };
  };
  // a pod on the host's network sees the node's own files, which the model does not have
  if (spec.hostNetwork) return undefined;
  const ns = pod.metadata.namespace ?? 'default';
  const hostname = spec.hostname || pod.metadata.name;
  const domain = spec.subdomain ? `${spec.subdomain}.${ns}.svc.cluster.local` : '';
  let hosts = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  for (const ip of podIPs) hosts += domain ? `${ip}\t${hostname}.${domain}\t${hostname}\n` : `${ip}\t${hostname}\n`;
  if (spec.hostAliases?.length) {
    hosts += '\n# Entries added by HostAliases.\n';
    for (const a of spec.hostAliases) hosts += `${a.ip}\t${(a.hostnames ?? []).join('\t')}\n`;
  }
  const files = new Map([['/etc/hosts', hosts], ['/etc/hostname', `${hostname}\n`]]);
  // the DNS configuration the kubelet hands the runtime (pkg/kubelet/network/dns), as containerd writes it
  const extra = spec.dnsConfig ?? {};
  let servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (spec.dnsPolicy === 'ClusterFirst') {
    servers = ['10.96.0.10'];
    searches = [`${ns}.svc.cluster.local`, 'svc.cluster.local', 'cluster.local'];
    options = ['ndots:5'];
  } else if (spec.dnsPolicy !== 'None') return files; // Default: the node's resolv.conf
  servers = [...new Set([...servers, ...(extra.nameservers ?? [])])];
  searches = [...new Set([...searches, ...(extra.searches ?? [])])];
  for (const o of extra.options ?? []) {
    const text = o.value !== undefined ? `${o.name}:${o.value}` : o.name;
    const at = options.findIndex((x) => x.split(':')[0] === o.name);
    if (at >= 0) options[at] = text;
    else options.push(text);
  }
  let resolv = searches.length ? `search ${searches.join(' ')}\n` : '';
  if (servers.length) resolv += `nameserver ${servers.join('\nnameserver ')}\n`;
  if (options.length) resolv += `options ${options.join(' ')}\n`;
  files.set('/etc/resolv.conf', resolv);
  return files;
}

/**
 * The files a container has from the kubelet and the runtime rather than from its image: the pod's managed files
 * (none for a pod on the host's network) and those of the volumes it mounts (kubelet/volumes.ts volumeFiles), as the
 * kubelet last wrote them (`written`).
 */
export function containerFiles(ctx: SimContext, pod: Pod, c: Container | undefined, podIPs?: string[], written?: Written): Map<string, string> | undefined {
  const managed = managedFiles(pod, podIPs);
  const volumes = c && volumeFiles(ctx, pod, c, written);
  return volumes?.size ? new Map([...(managed ?? []), ...volumes]) : managed;
}

/**
 * The termination message of an exited container, made once (neither source changes after the exit): the last 4 KiB
 * of the file the kubelet mounted at its terminationMessagePath, or, under FallbackToLogsOnError with a non-zero exit
 * and nothing in the file, the last 80 lines of its log, at most 2 KiB. Undefined when there is none.
 */
// upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go getTerminationMessage, readLastStringFromContainerLogs,
//           (*kubeGenericRuntimeManager).toKubeContainerStatus; kubecontainer.MaxContainerTerminationMessageLength
//           (4096), MaxContainerTerminationMessageLogLines (80), MaxContainerTerminationMessageLogLength (2048)
export function terminationMessages(
  runtime: { fileData(id: string): Map<string, string> | undefined }, logs: readonly ContainerLogLine[],
): (c: CriContainer) => string | undefined {
  const made = new WeakMap<CriContainer, string>();
  const make = (c: CriContainer): string => {
    const file = runtime.fileData(c.id)?.get(c.annotations['io.kubernetes.container.terminationMessagePath'] ?? '');
    const message = file !== undefined ? lastBytes(file, 4096) : '';
    if (message !== '' || c.annotations['io.kubernetes.container.terminationMessagePolicy'] !== 'FallbackToLogsOnError' || (c.exitCode ?? 0) === 0) return message;
    const lines: string[] = [];
    for (let i = logs.length - 1; i >= 0 && lines.length < 80 && logs[i].t >= (c.startedAt ?? c.createdAt); i--) {
      if (logs[i].containerId === c.id) lines.push(`${logs[i].text}\n`);
    }
    return lastBytes(lines.reverse().join(''), 2048);
  };
  return (c) => {
    let message = made.get(c);
    if (message === undefined) made.set(c, (message = make(c)));
    return message || undefined;
  };
}

/** The last `max` bytes of a text in UTF-8 (tail.ReadAtMost, circbuf): a character cut in two is replaced, byte by byte. */
function lastBytes(text: string, max: number): string {
  if (text.length * 3 <= max) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return text;
  return new TextDecoder().decode(bytes.subarray(bytes.length - max));
}
