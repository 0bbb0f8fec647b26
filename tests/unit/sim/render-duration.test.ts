// Duration formats of the real tools, with the upstream tables as expected values:
// apimachinery duration_test.go (HumanDuration, ShortHumanDuration boundaries), go-units (crictl),
// Go's time.Duration.String and time.ParseDuration.

import { describe, expect, it } from 'vitest';
import {
  goDuration, humanDuration, parseGoDuration, shortHumanDuration, unitsHumanDuration,
} from '../../../src/sim/render/duration.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe('HumanDuration (kubectl AGE)', () => {
  const table: [number, string][] = [
    [1 * S, '1s'], [70 * S, '70s'], [190 * S, '3m10s'], [70 * M, '70m'], [47 * H, '47h'], [49 * H, '2d1h'],
    [8 * D + 2 * H, '8d'], [367 * D, '367d'], [2 * Y + 25 * H, '2y1d'], [8 * Y + 2 * H, '8y'],
  ];
  it.each(table)('%d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));

  const boundaries: [string, number, string][] = [
    ['-2s', -2 * S, '<invalid>'], ['-2s+1ms', -2 * S + 1, '0s'], ['0', 0, '0s'], ['999ms', 999, '0s'],
    ['2m-1ms', 2 * M - 1, '119s'], ['2m', 2 * M, '2m'], ['2m1s', 2 * M + S, '2m1s'], ['10m-1ms', 10 * M - 1, '9m59s'],
    ['10m', 10 * M, '10m'], ['10m1s', 10 * M + S, '10m'], ['3h-1ms', 3 * H - 1, '179m'], ['3h', 3 * H, '3h'],
    ['3h1m', 3 * H + M, '3h1m'], ['8h-1ms', 8 * H - 1, '7h59m'], ['8h', 8 * H, '8h'], ['8h59m', 8 * H + 59 * M, '8h'],
    ['48h-1ms', 48 * H - 1, '47h'], ['48h', 48 * H, '2d'], ['49h', 49 * H, '2d1h'], ['8d-1ms', 8 * D - 1, '7d23h'],
    ['8d', 8 * D, '8d'], ['8d23h', 8 * D + 23 * H, '8d'], ['730d-1ms', 730 * D - 1, '729d'], ['730d', 730 * D, '2y'],
    ['730d+23h', 730 * D + 23 * H, '2y'], ['730d+23h59m', 730 * D + 23 * H + 59 * M, '2y'], ['731d-1ms', 731 * D - 1, '2y'],
    ['731d', 731 * D, '2y1d'], ['3y', 3 * Y, '3y'], ['4y', 4 * Y, '4y'], ['5y', 5 * Y, '5y'], ['6y', 6 * Y, '6y'],
    ['7y', 7 * Y, '7y'], ['8y-1ms', 8 * Y - 1, '7y364d'], ['8y', 8 * Y, '8y'], ['8y+364d', 8 * Y + 364 * D, '8y'],
    ['9y', 9 * Y, '9y'],
  ];
  it.each(boundaries)('%s → %s', (_n, ms, want) => expect(humanDuration(ms)).toBe(want));
});

describe('ShortHumanDuration', () => {
  const boundaries: [string, number, string][] = [
    ['-2s', -2 * S, '<invalid>'], ['-2s+1ms', -2 * S + 1, '0s'], ['0', 0, '0s'], ['999ms', 999, '0s'], ['1s', S, '1s'],
    ['2s-1ms', 2 * S - 1, '1s'], ['1m-1ms', M - 1, '59s'], ['1m', M, '1m'], ['2m-1ms', 2 * M - 1, '1m'],
    ['1h-1ms', H - 1, '59m'], ['1h', H, '1h'], ['2h-1ms', 2 * H - 1, '1h'], ['24h-1ms', D - 1, '23h'], ['24h', D, '1d'],
    ['48h-1ms', 2 * D - 1, '1d'], ['365d-1ms', Y - 1, '364d'], ['365d', Y, '1y'], ['730d-1ms', 2 * Y - 1, '1y'],
    ['730d', 2 * Y, '2y'],
  ];
  it.each(boundaries)('%s → %s', (_n, ms, want) => expect(shortHumanDuration(ms)).toBe(want));
});

describe('go-units HumanDuration (crictl CREATED)', () => {
  const table: [number, string][] = [
    [500, 'Less than a second'], [S, '1 second'], [59 * S, '59 seconds'], [60 * S, 'About a minute'],
    [119 * S, 'About a minute'], [2 * M, '2 minutes'], [59 * M, '59 minutes'], [H, 'About an hour'],
    [90 * M, '2 hours'], [47 * H, '47 hours'], [48 * H, '2 days'], [13 * D, '13 days'], [14 * D, '2 weeks'],
    [60 * D, '2 months'], [2 * Y, '2 years'],
  ];
  it.each(table)('%d ms → %s', (ms, want) => expect(unitsHumanDuration(ms)).toBe(want));
});

describe("Go's Duration.String and ParseDuration", () => {
  const table: [number, string][] = [
    [0, '0s'], [612, '612ms'], [1523, '1.523s'], [10 * S, '10s'], [40 * S, '40s'], [80 * S, '1m20s'],
    [160 * S, '2m40s'], [300 * S, '5m0s'], [H + 2 * S, '1h0m2s'], [0.5, '500µs'],
  ];
  it.each(table)('%d ms → %s', (ms, want) => expect(goDuration(ms)).toBe(want));

  it('parses what scenarios and --at use', () => {
    expect(parseGoDuration('8m23s')).toEqual({ ok: true, ms: 503 * S });
    expect(parseGoDuration('500ms')).toEqual({ ok: true, ms: 500 });
    expect(parseGoDuration('1.5s')).toEqual({ ok: true, ms: 1500 });
    expect(parseGoDuration('1h')).toEqual({ ok: true, ms: H });
    expect(parseGoDuration('0')).toEqual({ ok: true, ms: 0 });
  });
  it("rejects bad durations in Go's words", () => {
    expect(parseGoDuration('8x')).toEqual({ ok: false, error: 'time: unknown unit "x" in duration "8x"' });
    expect(parseGoDuration('10')).toEqual({ ok: false, error: 'time: missing unit in duration "10"' });
    expect(parseGoDuration('')).toEqual({ ok: false, error: 'time: invalid duration ""' });
  });
});
