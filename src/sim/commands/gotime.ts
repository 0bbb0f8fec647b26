// Go's time.Parse for the RFC 3339 layouts, as kubectl parses a time a user types (`kubectl logs --since-time`):
// the wall time it names, or the error in Go's words (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot
// parse "x" as "2006"`, `parsing time "…": month out of range`).
// upstream: go/src/time/format.go parse, skip, getnum, parseNanoseconds, ParseError.Error;
//           k8s.io/kubectl/pkg/util/util.go ParseRFC3339 (RFC3339Nano, then RFC3339, whose error is returned)

const LAYOUT = '2006-01-02T15:04:05Z07:00';

const quote = (s: string): string => JSON.stringify(s);
const isDigit = (s: string, i: number): boolean => i < s.length && s[i] >= '0' && s[i] <= '9';

class ParseError extends Error {}

const cannot = (value: string, valueElem: string, layoutElem: string): ParseError =>
  new ParseError(`parsing time ${quote(value)} as ${quote(LAYOUT)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`);
const message = (value: string, text: string): ParseError => new ParseError(`parsing time ${quote(value)}${text}`);

/** getnum: one or two digits (exactly two when `fixed`), or undefined. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The wall time (ms since 1970) and the nanoseconds within its second that an RFC 3339 time names, or Go's error. */
export function parseRFC3339(value: string): { ok: true; ms: number; nanos: number } | { ok: false; error: string } {
  try {
    return { ok: true, ...parse(value) };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message };
    throw e;
  }
}

function parse(avalue: string): { ms: number; nanos: number } {
  let value = avalue;
  // the layout's chunks: the literal before each element, the element, and how it reads
  const skip = (prefix: string): void => {
    for (const ch of prefix) {
      if (value === '' || value[0] !== ch) throw cannot(avalue, value, prefix);
      value = value.slice(1);
    }
  };
  const num = (elem: string, fixed: boolean, range: string, max: number, min = 0): number => {
    const hold = value;
    const r = getnum(value, fixed);
    if (!r) throw cannot(avalue, hold, elem);
    value = r[1];
    if (r[0] < min || r[0] > max) throw message(avalue, `: ${range} out of range`);
    return r[0];
  };
  // 2006: four characters, the first a digit, all of them a number
  if (value.length < 4 || !isDigit(value, 0) || !/^\d{4}$/.test(value.slice(0, 4))) throw cannot(avalue, value, '2006');
  const year = Number(value.slice(0, 4));
  value = value.slice(4);
  skip('-');
  const month = num('01', true, 'month', 12, 1);
  skip('-');
  const dayHold = value;
  const day = getnum(value, true);
  if (!day) throw cannot(avalue, dayHold, '02');
  value = day[1];
  skip('T');
  const hour = num('15', false, 'hour', 23);
  skip(':');
  const minute = num('04', true, 'minute', 59);
  skip(':');
  const second = num('05', true, 'second', 59);
  // a fractional second the layout does not name is read all the same
  let nanos = 0;
  if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
    let n = 2;
    while (isDigit(value, n)) n++;
    nanos = Number(value.slice(1, Math.min(n, 10)).padEnd(9, '0'));
    value = value.slice(n);
  }
  // Z07:00
  let offsetMinutes = 0;
  if (value.startsWith('Z')) value = value.slice(1);
  else {
    const hold = value;
    if (value.length < 6 || value[3] !== ':') throw cannot(avalue, hold, 'Z07:00');
    const sign = value[0];
    const hh = getnum(value.slice(1, 3), true);
    const mm = hh && getnum(value.slice(4, 6), true);
    value = value.slice(6);
    // the range before the sign, as Go checks them (an offset of 24 hours or 60 minutes is allowed)
    if (hh && hh[0] > 24) throw message(avalue, ': time zone offset hour out of range');
    if (mm && mm[0] > 60) throw message(avalue, ': time zone offset minute out of range');
    if (!hh || !mm || (sign !== '+' && sign !== '-')) throw cannot(avalue, hold, 'Z07:00');
    offsetMinutes = (sign === '-' ? -1 : 1) * (hh[0] * 60 + mm[0]);
  }
  if (value !== '') throw message(avalue, `: extra text: ${quote(value)}`);
  if (day[0] < 1 || day[0] > daysIn(month, year)) throw message(avalue, ': day out of range');
  const ms = Date.UTC(year, month - 1, day[0], hour, minute, second) - offsetMinutes * 60_000;
  return { ms, nanos };
}
