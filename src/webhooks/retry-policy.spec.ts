import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../config/app-config.js';
import { afterFailure, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-policy.js';

describe('afterFailure', () => {
  const schedule = DEFAULT_WEBHOOK_RETRY_SCHEDULE;

  it('should follow the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h without jitter', () => {
    const delays = schedule.map((_, i) => afterFailure(i + 1, schedule, { status: 500 }, 0));
    expect(delays).toEqual(
      [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => ({
        action: 'retry',
        delayMs: s * 1000,
      })),
    );
  });

  it('should add at most 20% jitter', () => {
    expect(afterFailure(2, schedule, {}, 0.999_999)).toEqual({ action: 'retry', delayMs: 360_000 });
    expect(afterFailure(2, schedule, {}, 0.5)).toEqual({ action: 'retry', delayMs: 330_000 });
  });

  it('should disable after the last retry failed', () => {
    expect(afterFailure(8, schedule, { status: 500 }, 0)).toMatchObject({ action: 'disable' });
  });

  it('should disable at once on 410', () => {
    expect(afterFailure(1, schedule, { status: 410 }, 0)).toEqual({
      action: 'disable',
      reason: 'the endpoint answered 410 Gone',
    });
  });

  it('should wait at least Retry-After on 429 and 503 only', () => {
    expect(afterFailure(1, schedule, { status: 429, retryAfterMs: 60_000 }, 0)).toEqual({
      action: 'retry',
      delayMs: 60_000,
    });
    expect(afterFailure(1, schedule, { status: 503, retryAfterMs: 1000 }, 0)).toEqual({
      action: 'retry',
      delayMs: 5000,
    });
    expect(afterFailure(1, schedule, { status: 500, retryAfterMs: 60_000 }, 0)).toEqual({
      action: 'retry',
      delayMs: 5000,
    });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('should read delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
  });

  it('should ignore junk and cap huge values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_MS);
  });
});
