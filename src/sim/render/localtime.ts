// Local-time formatting of virtual times. The API server speaks UTC (RFC 3339); kubectl describe,
// journalctl, klog and crictl print the local time of the machine they run on. The article's cluster
// runs in UTC+8 (Asia/Shanghai: its API timestamps read 03:32Z while the kubelet log reads 11:37),
// so that is the default zone; a caller can pass another offset.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const p2 = (n: number) => String(n).padStart(2, '0');

/** The broken-down local time of a wall-clock instant. */
function local(wallMs: number, offsetMinutes: number): Date {
  return new Date(wallMs + offsetMinutes * 60_000);
}

/** The zone suffix "+0800" (RFC 1123Z) or "+08:00" (RFC 3339). */
export function zone(offsetMinutes: number, colon: boolean): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const a = Math.abs(offsetMinutes);
  return `${sign}${p2(Math.trunc(a / 60))}${colon ? ':' : ''}${p2(a % 60)}`;
}

/** Go's time.RFC1123Z in local time: "Tue, 04 Aug 2026 11:32:36 +0800" (kubectl describe). */
export function rfc1123z(wallMs: number, offsetMinutes: number): string {
  const d = local(wallMs, offsetMinutes);
  return (
    `${DAYS[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${zone(offsetMinutes, false)}`
  );
}

/**
 * The nanoseconds below the millisecond of a timestamp the node takes with time.Now() (containerd's CreatedAt,
 * StartedAt and FinishedAt; the kubelet's config.seen). The model's clock has milliseconds; the rest is a
 * deterministic function of what was stamped (`<id>/created`), so every printer of one stamp shows the same digits.
 */
export function stampNanos(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % 1_000_000;
}

/**
 * The stamps of a container's log lines (all of them, in order), as the runtime's log file has them: containerd stamps
 * each line with time.Now() in UTC to the nanosecond, and the kubelet and crictl print it as time.RFC3339Nano. Lines
 * written in the same millisecond keep their order: the first's digits below the millisecond come from the line,
 * each next one's a few microseconds later.
 */
export function logStamps(lines: readonly { t: number }[], containerId: string, epoch: number): string[] {
  const out: string[] = [];
  let nanos = 0;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].t;
    const key = `${containerId}/log/${i}`;
    nanos = i > 0 && lines[i - 1].t === t ? Math.min(999_999, nanos + 1_000 + (stampNanos(key) % 20_000)) : stampNanos(key) % 500_000;
    out.push(rfc3339NanoLocal(epoch + t, 0, nanos));
  }
  return out;
}

/** Go's time.RFC3339Nano in local time, trailing zeros of the fraction dropped (crictl inspect). */
export function rfc3339NanoLocal(wallMs: number, offsetMinutes: number, extraNanos = 0): string {
  const d = local(wallMs, offsetMinutes);
  const nanos = (d.getUTCMilliseconds() * 1_000_000 + extraNanos).toString().padStart(9, '0').replace(/0+$/, '');
  return (
    `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}T` +
    `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}${nanos ? `.${nanos}` : ''}` +
    `${offsetMinutes === 0 ? 'Z' : zone(offsetMinutes, true)}`
  );
}

/** journalctl's short format timestamp: "Aug 04 11:37:47". */
export function journalTime(wallMs: number, offsetMinutes: number): string {
  const d = local(wallMs, offsetMinutes);
  return `${MONTHS[d.getUTCMonth()]} ${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
}

/** klog's header time: "0804 11:37:47.884828" (month, day, and microseconds). */
export function klogTime(wallMs: number, offsetMinutes: number, micros: number): string {
  const d = local(wallMs, offsetMinutes);
  return (
    `${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ` +
    `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(micros).padStart(6, '0')}`
  );
}

/** Local calendar fields of a wall-clock instant (for parsing absolute `--since` dates). */
export function localFields(wallMs: number, offsetMinutes: number): { y: number; mo: number; d: number } {
  const d = local(wallMs, offsetMinutes);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate() };
}

/** Wall-clock ms of a local date-time in the given zone. */
export function wallFromLocal(y: number, mo: number, d: number, h: number, mi: number, s: number, offsetMinutes: number): number {
  return Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000;
}
