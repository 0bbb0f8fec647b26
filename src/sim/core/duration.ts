// Durations as Go and kubectl write them: "500ms", "10s", "8m23s", "1h", "1m30s", "2.5s".
// Virtual time is in whole milliseconds.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Why a duration string was rejected (the caller adds file/line). */
export class DurationError extends Error {}

/**
 * Parse a Go duration (time.ParseDuration grammar) into whole milliseconds.
 * Accepts "0" without a unit, as Go does. Rejects negative values and sub-millisecond remainders.
 */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  if (s === '') throw new DurationError('empty duration');
  if (s.startsWith('-')) throw new DurationError(`negative duration "${text}"`);
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let pos = s.startsWith('+') ? 1 : 0;
  let total = 0;
  let parts = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) {
      const rest = s.slice(pos);
      const hint = /^\d+(?:\.\d*)?$/.test(rest) ? ` (missing unit: write "${rest}s" or "${rest}ms")` : '';
      throw new DurationError(`invalid duration "${text}"${hint}`);
    }
    total += parseFloat(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
    parts++;
  }
  if (parts === 0) throw new DurationError(`invalid duration "${text}"`);
  const ms = Math.round(total * 1e6) / 1e6;
  if (!Number.isInteger(ms)) throw new DurationError(`duration "${text}" is not a whole number of milliseconds`);
  return ms;
}

/** The shortest kubectl-style spelling of a duration: "8m23s", "1h", "500ms", "2.5s". For scenario files and messages. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const secMs = ms % 60_000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${secMs ? `${secMs / 1000}s` : ''}`;
}
