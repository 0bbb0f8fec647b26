// The server's virtual clock with a fake real clock: speed, pause, resume, jumps, a delayed start.

import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/server/clock.ts';

function fake(start = 1_000_000) {
  let now = start;
  return { realTime: () => now, pass: (ms: number) => (now += ms) };
}

describe('VirtualClock', () => {
  it.each([1, 10, 60])('runs at %dx', (speed) => {
    const r = fake();
    const c = new VirtualClock({ speed, paused: false, realTime: r.realTime });
    expect(c.target()).toBe(0);
    r.pass(1500);
    expect(c.target()).toBe(1500 * speed);
  });

  it('stands still while paused and moves only when told to', () => {
    const r = fake();
    const c = new VirtualClock({ speed: 1, paused: true, realTime: r.realTime });
    r.pass(10_000);
    expect(c.target()).toBe(0);
    c.jumpTo(503_000);
    r.pass(10_000);
    expect(c.target()).toBe(503_000);
  });

  it('pause keeps the time reached; resume runs on from it', () => {
    const r = fake();
    const c = new VirtualClock({ speed: 10, paused: false, realTime: r.realTime });
    r.pass(1000);
    c.pause();
    r.pass(5000);
    expect(c.target()).toBe(10_000);
    c.resume();
    r.pass(200);
    expect(c.target()).toBe(12_000);
  });

  it('a jump while running continues from the jump', () => {
    const r = fake();
    const c = new VirtualClock({ speed: 1, paused: false, realTime: r.realTime });
    r.pass(1000);
    c.jumpTo(60_000);
    r.pass(500);
    expect(c.target()).toBe(60_500);
  });

  it('a start in the future holds virtual time at 0 until then', () => {
    const r = fake();
    const c = new VirtualClock({ speed: 1, paused: false, startAt: 1_000_700, realTime: r.realTime });
    r.pass(500);
    expect(c.target()).toBe(0);
    r.pass(1200);
    expect(c.target()).toBe(1000);
  });

  it('a speed change keeps the time reached', () => {
    const r = fake();
    const c = new VirtualClock({ speed: 1, paused: false, realTime: r.realTime });
    r.pass(2000);
    c.setSpeed(60);
    r.pass(1000);
    expect(c.target()).toBe(62_000);
    expect(() => c.setSpeed(0)).toThrow(RangeError);
  });
});
