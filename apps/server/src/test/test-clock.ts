import type { Clock } from '../lib/clock.ts';

/** A clock tests move by hand; it starts at the real time so tokens from real providers stay valid. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function createTestClock(start = new Date()): TestClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}
