// Go's time.Parse for RFC 3339 (src/sim/commands/gotime.ts), as kubectl parses --since-time: the times it accepts and
// the errors in Go's words. Each expected message is what the real kubectl (its Go time package) printed for the same
// --since-time, and each accepted value it accepted; tests/unit/server/get-forms.test.ts compares a subset live.
import { describe, expect, it } from 'vitest';
import { parseRFC3339 } from '../../../src/sim/commands/gotime.ts';

const L = '"2006-01-02T15:04:05Z07:00"';

describe('parseRFC3339', () => {
  it.each([
    ['2006-01-02T15:04:05Z', Date.UTC(2006, 0, 2, 15, 4, 5), 0],
    ['2010-02-04T21:00:57-08:00', Date.UTC(2010, 1, 5, 5, 0, 57), 0],
    ['2010-02-04T21:00:57.012345678+08:00', Date.UTC(2010, 1, 4, 13, 0, 57), 12_345_678],
    ['2010-02-04T21:00:57.0123456789Z', Date.UTC(2010, 1, 4, 21, 0, 57), 12_345_678],
    ['2010-02-04T21:00:57,5Z', Date.UTC(2010, 1, 4, 21, 0, 57), 500_000_000],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29), 0],
    ['2006-01-02T5:04:05Z', Date.UTC(2006, 0, 2, 5, 4, 5), 0],
    ['2006-01-02T15:04:05+24:00', Date.UTC(2006, 0, 1, 15, 4, 5), 0],
  ])('%s', (value, ms, nanos) => {
    expect(parseRFC3339(value)).toEqual({ ok: true, ms, nanos });
  });

  it.each([
    ['', `parsing time "" as ${L}: cannot parse "" as "2006"`],
    ['20a6-01-02T15:04:05Z', `parsing time "20a6-01-02T15:04:05Z" as ${L}: cannot parse "20a6-01-02T15:04:05Z" as "2006"`],
    ['2006/01/02T15:04:05Z', `parsing time "2006/01/02T15:04:05Z" as ${L}: cannot parse "/01/02T15:04:05Z" as "-"`],
    ['2006-1-02T15:04:05Z', `parsing time "2006-1-02T15:04:05Z" as ${L}: cannot parse "1-02T15:04:05Z" as "01"`],
    ['2006-00-02T15:04:05Z', 'parsing time "2006-00-02T15:04:05Z": month out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2006-01-02 15:04:05Z', `parsing time "2006-01-02 15:04:05Z" as ${L}: cannot parse " 15:04:05Z" as "T"`],
    ['2006-01-02T24:04:05Z', 'parsing time "2006-01-02T24:04:05Z": hour out of range'],
    ['2006-01-02T15:60:05Z', 'parsing time "2006-01-02T15:60:05Z": minute out of range'],
    ['2006-01-02T15:04:05', `parsing time "2006-01-02T15:04:05" as ${L}: cannot parse "" as "Z07:00"`],
    ['2006-01-02T15:04:05+0700', `parsing time "2006-01-02T15:04:05+0700" as ${L}: cannot parse "+0700" as "Z07:00"`],
    ['2006-01-02T15:04:05 07:00', `parsing time "2006-01-02T15:04:05 07:00" as ${L}: cannot parse " 07:00" as "Z07:00"`],
    ['2006-01-02T15:04:05+07:61', 'parsing time "2006-01-02T15:04:05+07:61": time zone offset minute out of range'],
    ['2006-01-02T15:04:05Zx', 'parsing time "2006-01-02T15:04:05Zx": extra text: "x"'],
  ])('%j: Go\'s error', (value, error) => {
    expect(parseRFC3339(value)).toEqual({ ok: false, error });
  });
});
