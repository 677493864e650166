import { Clock } from '../../src/rate-limit/clock.js';

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
