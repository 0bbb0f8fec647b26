// `journalctl -u kubelet`: journald's short format ("Aug 04 11:37:47 worker01 kubelet[2972481]: ")
// around the kubelet's klog lines ("I0804 11:37:47.884828 2972481 scope.go:122] "RemoveContainer"
// containerID="...""). Both in the node's local time.
// upstream: k8s.io/klog/v2 klog.go (formatHeader), textlogger/structured kv formatting;
// systemd journalctl output_short

import type { KubeletLogLine } from '../types.ts';
import { journalTime, klogTime, rfc3339NanoLocal, zone } from './localtime.ts';
import { goQuote } from './gostrconv.ts';

/** A deterministic per-line value in [0, 1000): the sub-millisecond digits of klog's microseconds. */
function subMillis(line: KubeletLogLine, index: number): number {
  let h = 2166136261;
  const key = `${line.t}|${index}|${line.msg}`;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h % 1000;
}

/**
 * Microsecond timestamps (since virtual time 0) for a node's log lines, in log order: the line's
 * millisecond plus sub-millisecond digits, never going backwards (a process's log is in time order).
 */
export function klogMicros(lines: KubeletLogLine[]): number[] {
  const out: number[] = [];
  let last = -Infinity;
  lines.forEach((line, i) => {
    const us = Math.max(line.t * 1000 + subMillis(line, i), last + 1);
    out.push(us);
    last = us;
  });
  return out;
}

export interface JournalOptions {
  epoch: number;
  utcOffsetMinutes: number;
  kubeletPid: number;
}

/** klog's header, `Lmmdd hh:mm:ss.uuuuuu threadid file:line]`: `micros` within the second of `wallMs`. */
export function klogHeader(severity: string, wallMs: number, utcOffsetMinutes: number, micros: number, pid: number, source: string): string {
  return `${severity}${klogTime(wallMs, utcOffsetMinutes, micros)} ${String(pid).padStart(7)} ${source}]`;
}

/**
 * The zone abbreviation Go prints for the node's local time (time.Local from /etc/localtime): UTC, and CST for the
 * article's UTC+8 (Asia/Shanghai); other offsets as tzdata names zones without a letter abbreviation ("+0530").
 */
export function goZoneName(offsetMinutes: number): string {
  return offsetMinutes === 0 ? 'UTC' : offsetMinutes === 480 ? 'CST' : zone(offsetMinutes, false);
}

/**
 * Go's (time.Time).String in local time without a monotonic reading: "2026-08-04 11:32:36.123 +0800 CST" (layout
 * "2006-01-02 15:04:05.999999999 -0700 MST": trailing zeros of the fraction dropped, no dot for a whole second).
 */
// upstream: go/src/time/format.go (Time).String
export function goTimeString(wallMs: number, offsetMinutes: number, extraNanos = 0): string {
  // RFC 3339 with nanoseconds, trailing zeros dropped, is the same date, time and fraction ("…T11:32:36.123+08:00")
  const local = rfc3339NanoLocal(wallMs, offsetMinutes, extraNanos).replace(/(Z|[+-]\d\d:\d\d)$/, '').replace('T', ' ');
  return `${local} ${zone(offsetMinutes, false)} ${goZoneName(offsetMinutes)}`;
}

// a time.Time value the engine logged in UTC, its monotonic reading kept (the zero time stays UTC, as in Go): a
// quoted value, or one within the text of an unstructured line
const GO_TIME_UTC = /("?)(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(\.\d+)? \+0000 UTC( m=[+-]\d+\.\d{9})?\1/g;

/**
 * A klog value holding time.Time values, in the kubelet's local zone: Go's time.Now(), and metav1.Time decoded from
 * the API (UnmarshalJSON calls Local()), print "2006-01-02 15:04:05.999999999 -0700 MST" in time.Local.
 */
// upstream: go/src/time/format.go (Time).String; k8s.io/apimachinery/pkg/apis/meta/v1/time.go UnmarshalJSON
export function localGoTimes(value: string, offsetMinutes: number): string {
  if (offsetMinutes === 0 || !value.includes(' +0000 UTC')) return value;
  return value.replace(GO_TIME_UTC, (all, quote: string, wall: string, frac: string | undefined, mono: string | undefined) => {
    if (wall.startsWith('0001-01-01')) return all;
    const t = new Date(Date.parse(`${wall.replace(' ', 'T')}Z`) + offsetMinutes * 60_000).toISOString();
    return `${quote}${t.slice(0, 10)} ${t.slice(11, 19)}${frac ?? ''} ${zone(offsetMinutes, false)} ${goZoneName(offsetMinutes)}${mono ?? ''}${quote}`;
  });
}

/** One klog line as the kubelet writes it to stderr; `micros` from klogMicros. */
export function klogLine(line: KubeletLogLine, micros: number, o: JournalOptions): string {
  const wallMs = Math.floor(micros / 1000);
  const header = klogHeader(line.severity, o.epoch + wallMs, o.utcOffsetMinutes, (((o.epoch + wallMs) % 1000) * 1000) + (micros % 1000), o.kubeletPid, line.source);
  const kv = line.kv.map(([k, v]) => ` ${k}=${localGoTimes(v, o.utcOffsetMinutes)}`).join('');
  return `${header} ${line.plain ? localGoTimes(line.msg, o.utcOffsetMinutes) : goQuote(line.msg)}${kv}`;
}

/**
 * The journal entries of one klog line in journalctl's default (short) output: journald stores each line the
 * kubelet writes to stderr as an entry, so a value klog prints as a block (`output=<`, the lines, ` >`) is several.
 */
export function journalLines(line: KubeletLogLine, micros: number, o: JournalOptions): string[] {
  const wall = o.epoch + Math.floor(micros / 1000);
  const prefix = `${journalTime(wall, o.utcOffsetMinutes)} ${line.node} kubelet[${o.kubeletPid}]: `;
  return klogLine(line, micros, o).split('\n').map((text) => prefix + text);
}
