// `journalctl -u kubelet`: journald's short format ("Aug 04 11:37:47 worker01 kubelet[2972481]: ")
// around the kubelet's klog lines ("I0804 11:37:47.884828 2972481 scope.go:122] "RemoveContainer"
// containerID="...""). Both in the node's local time.
// upstream: k8s.io/klog/v2 klog.go (formatHeader), textlogger/structured kv formatting;
// systemd journalctl output_short

import type { KubeletLogLine } from '../types.ts';
import { journalTime, klogTime } from './clock.ts';

/** Go's strconv.Quote, which klog uses for the message of a structured log line. */
export function goQuoteString(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** Sub-millisecond digits for klog's microseconds: deterministic, different per line. */
function microsOf(line: KubeletLogLine, index: number): number {
  let h = 2166136261;
  const key = `${line.t}|${index}|${line.msg}`;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return (((line.t % 1000) + 1000) % 1000) * 1000 + (h % 1000);
}

export interface JournalOptions {
  epoch: number;
  utcOffsetMinutes: number;
  kubeletPid: number;
}

/** One klog line as the kubelet writes it to stderr. */
export function klogLine(line: KubeletLogLine, index: number, o: JournalOptions): string {
  const wall = o.epoch + line.t;
  const header = `${line.severity}${klogTime(wall, o.utcOffsetMinutes, microsOf(line, index))} ${String(o.kubeletPid).padStart(7)} ${line.source}]`;
  const kv = line.kv.map(([k, v]) => ` ${k}=${v}`).join('');
  return `${header} ${goQuoteString(line.msg)}${kv}`;
}

/** One journal entry in journalctl's default (short) output. */
export function journalLine(line: KubeletLogLine, index: number, o: JournalOptions): string {
  const wall = o.epoch + line.t;
  return `${journalTime(wall, o.utcOffsetMinutes)} ${line.node} kubelet[${o.kubeletPid}]: ${klogLine(line, index, o)}`;
}
