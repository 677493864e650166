/** Where the limiter reads the time, so tests can move it without sleeping. */
export abstract class Clock {
  /** Milliseconds since the Unix epoch. */
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}
