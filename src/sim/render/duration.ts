// Duration formatting exactly as the real tools do it, and Go's duration parsing.
// All inputs are milliseconds (the simulation's unit); Go works in nanoseconds, which only matters
// for sub-millisecond boundaries that the simulation never produces.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * kubectl's AGE and "(X ago)" format.
 * upstream: staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go HumanDuration
 */
export function humanDuration(ms: number): string {
  // Allow deviation no more than 2 seconds (excluded) to tolerate machine time inconsistence,
  // it can be considered as almost now (upstream's comment).
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = Math.trunc(ms / SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * The short form (one unit).
 * upstream: staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go ShortHumanDuration
 */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * crictl's CREATED column ("2 minutes ago" without the " ago").
 * upstream: github.com/docker/go-units duration.go HumanDuration (v0.5.0)
 */
export function unitsHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = goRound(ms / HOUR);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(Math.trunc(ms / HOUR) / 24 / 365)} years`;
}

/** math.Round: half away from zero. */
function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * Go's time.Duration.String(): "5m0s", "40s", "1.523s", "612ms", "0s".
 * upstream: go/src/time/time.go (Duration).String
 */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let ns = BigInt(Math.round(Math.abs(ms) * 1e6));
  let out: string;
  if (ns < 1_000_000_000n) {
    // Sub-second: use the largest unit that keeps a non-zero integer part.
    if (ns < 1000n) out = `${ns}ns`;
    else if (ns < 1_000_000n) out = `${fraction(ns, 3)}µs`;
    else out = `${fraction(ns, 6)}ms`;
  } else {
    const h = ns / 3_600_000_000_000n;
    ns -= h * 3_600_000_000_000n;
    const m = ns / 60_000_000_000n;
    ns -= m * 60_000_000_000n;
    const s = fraction(ns, 9);
    out = h > 0n ? `${h}h${m}m${s}s` : m > 0n ? `${m}m${s}s` : `${s}s`;
  }
  return neg ? `-${out}` : out;
}

/**
 * Go's time.Duration.String() of the whole milliseconds of a virtual duration: "2.5s", "612ms", "1m20s", "5m0s",
 * "1h0m0s". What the kubelet prints of a duration it measured on the virtual clock.
 */
export function formatGoDuration(ms: number): string {
  return goDuration(Math.trunc(ms));
}

/** n / 10^digits with the fraction's trailing zeros dropped ("1.5", "2"). */
function fraction(n: bigint, digits: number): string {
  const base = 10n ** BigInt(digits);
  const int = n / base;
  const frac = (n % base).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
}

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
};

/**
 * Go's time.ParseDuration ("500ms", "8m23s", "1h", "1.5s"), returning milliseconds,
 * or an error message in Go's words.
 * upstream: go/src/time/format.go ParseDuration
 */
export function parseGoDuration(text: string): { ok: true; ms: number } | { ok: false; error: string } {
  const orig = text;
  const bad = { ok: false as const, error: `time: invalid duration ${JSON.stringify(orig)}` };
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, ms: 0 };
  if (s === '') return bad;
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === '' || m[0] === '.') return bad;
    const value = Number(`${m[1] || '0'}.${m[2] || '0'}`);
    s = s.slice(m[0].length);
    const u = /^[^\d.]+/.exec(s);
    if (!u) return { ok: false, error: `time: missing unit in duration ${JSON.stringify(orig)}` };
    const unit = UNITS[u[0]];
    if (unit === undefined) {
      return { ok: false, error: `time: unknown unit ${JSON.stringify(u[0])} in duration ${JSON.stringify(orig)}` };
    }
    total += value * unit;
    s = s.slice(u[0].length);
  }
  return { ok: true, ms: neg ? -total : total };
}
