import { beforeEach, vi } from 'vitest';
import { Clock } from '../../src/rate-limit/clock.js';
import type { TestApp } from './create-test-app.js';

/** A clock that moves only when told to. */
export class ManualClock extends Clock {
  constructor(private time: number) {
    super();
  }

  now(): number {
    return this.time;
  }

  set(time: number): void {
    this.time = time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

const DAY = 86_400_000;
/** Half past a minute, so a minute window has 30 s left. */
export const CLOCK_START = Date.parse('2030-01-15T12:00:30.000Z');

/**
 * Puts the rate limiter of the given apps on one ManualClock. Each test starts on a day of its own
 * at CLOCK_START's time of day, so no counts or bans carry over from the test before.
 */
export function useRateLimitClock(...apps: (() => TestApp)[]): ManualClock {
  const clock = new ManualClock(CLOCK_START);
  let day = 0;
  beforeEach(() => {
    clock.set(CLOCK_START + ++day * DAY);
    for (const app of apps)
      vi.spyOn(app().app.get(Clock), 'now').mockImplementation(() => clock.now());
  });
  return clock;
}
