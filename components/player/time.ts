// Virtual time as the reader sees and shares it: the clock shows Go's Duration.String() ("8m23s"),
// the URL carries seconds ("t=503s"), and anything Go's ParseDuration accepts is read back.
import { goDuration, parseGoDuration } from '../../src/sim/render/duration.ts';

/** The player's clock: Go's time.Duration.String() of the virtual time ("0s", "2.5s", "8m23s", "1h0m5s"). */
export function formatClock(ms: number): string {
  return goDuration(Math.max(0, Math.round(ms)));
}

/** The URL's spelling of a moment: whole seconds when possible ("503s"), else milliseconds ("503250ms"). */
export function formatUrlTime(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  return whole % 1000 === 0 ? `${whole / 1000}s` : `${whole}ms`;
}

/**
 * Read a moment typed by a person or found in a URL: a Go duration ("503s", "8m23s", "1.5s") or a bare
 * number of seconds ("503"). Undefined when it is neither, or negative.
 */
export function parseMoment(text: string): number | undefined {
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const parsed = parseGoDuration(s);
  if (!parsed.ok || parsed.ms < 0 || !Number.isFinite(parsed.ms)) return undefined;
  return Math.round(parsed.ms);
}
