// The player's clock and the URL that shares a moment.
import { describe, expect, it } from 'vitest';
import { formatClock, formatUrlTime, parseMoment } from '../../../components/player/time.ts';
import { readMoment, writeMoment } from '../../../components/player/url.ts';

describe('clock (Go Duration.String)', () => {
  const table: [number, string][] = [
    [0, '0s'], [500, '500ms'], [1000, '1s'], [2500, '2.5s'], [59_999, '59.999s'], [60_000, '1m0s'],
    [503_000, '8m23s'], [600_000, '10m0s'], [3_600_000, '1h0m0s'], [3_725_000, '1h2m5s'],
  ];
  it.each(table)('%d ms → %s', (ms, want) => expect(formatClock(ms)).toBe(want));
  it('never shows a negative or fractional-millisecond time', () => {
    expect(formatClock(-5)).toBe('0s');
    expect(formatClock(1000.4)).toBe('1s');
  });
});

describe('moments typed or read from a URL', () => {
  const table: [string, number | undefined][] = [
    ['503s', 503_000], ['8m23s', 503_000], ['1.5s', 1500], ['250ms', 250], ['1h', 3_600_000], ['503', 503_000],
    ['0', 0], [' 12s ', 12_000], ['-3s', undefined], ['soon', undefined], ['', undefined], ['5x', undefined], ['3', 3000],
  ];
  it.each(table)('%j → %s', (text, want) => expect(parseMoment(text)).toBe(want));

  it('writes whole seconds as seconds and anything finer in milliseconds, and reads both back', () => {
    expect(formatUrlTime(503_000)).toBe('503s');
    expect(formatUrlTime(503_250)).toBe('503250ms');
    for (const ms of [0, 1, 999, 503_000, 503_250, 7_200_000]) expect(parseMoment(formatUrlTime(ms))).toBe(ms);
  });
});

describe('URL state', () => {
  it('applies the query to the player of the named scenario only', () => {
    expect(readMoment('?scenario=crash-loop&t=503s', 'crash-loop')).toBe(503_000);
    expect(readMoment('?scenario=crash-loop&t=503s', 'nginx')).toBeUndefined();
  });
  it('applies a query without a scenario to every player', () => {
    expect(readMoment('?t=8m23s', 'nginx')).toBe(503_000);
  });
  it('ignores a missing or unreadable t', () => {
    expect(readMoment('?scenario=crash-loop', 'crash-loop')).toBeUndefined();
    expect(readMoment('?scenario=crash-loop&t=later', 'crash-loop')).toBeUndefined();
    expect(readMoment('', 'crash-loop')).toBeUndefined();
  });
  it('records scenario and time, keeping other parameters and the fragment', () => {
    const href = writeMoment('https://podlife.dev/en/restarts/?lang=x&t=1s#syncpod-4', 'crash-loop', 503_000);
    const url = new URL(href);
    expect(url.pathname).toBe('/en/restarts/');
    expect(url.hash).toBe('#syncpod-4');
    expect(url.searchParams.get('lang')).toBe('x');
    expect(url.searchParams.getAll('t')).toEqual(['503s']);
    expect(url.searchParams.get('scenario')).toBe('crash-loop');
    expect(readMoment(url.search, 'crash-loop')).toBe(503_000);
  });
  it('takes over the query when another player on the page moves', () => {
    const first = writeMoment('https://podlife.dev/en/x/', 'nginx', 89_000);
    const second = writeMoment(first, 'crash-loop', 12_000);
    expect(readMoment(new URL(second).search, 'nginx')).toBeUndefined();
    expect(readMoment(new URL(second).search, 'crash-loop')).toBe(12_000);
  });
});
