// Wall-clock times of virtual times: the API server speaks UTC (RFC 3339), and the machines' local zone is
// UTC+8 by default. The local-time formats the tools print (kubectl describe, journalctl, klog, crictl) are in
// localtime.ts: only the command layer prints them, and the player's first load carries this module alone.

/** The local zone's offset from UTC in minutes when none is given: UTC+8, the article's. */
export const DEFAULT_UTC_OFFSET_MINUTES = 480;

/** Milliseconds since 1970 of an RFC 3339 timestamp ("2026-08-04T03:32:36Z"). */
export function parseRfc3339(ts: string): number {
  const ms = Date.parse(ts);
  if (Number.isNaN(ms)) throw new Error(`not an RFC 3339 timestamp: ${JSON.stringify(ts)}`);
  return ms;
}

/** metav1.Time as the API server serialises it: UTC, second precision. */
export function rfc3339(wallMs: number): string {
  return new Date(Math.floor(wallMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
