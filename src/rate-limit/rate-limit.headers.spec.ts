import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, retryAfterSeconds } from './rate-limit.headers.js';
import type { RateLimitOutcome, RateLimitStatus } from './rate-limit.policy.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const now = Date.parse('2030-01-15T12:00:30.250Z');
const minuteEnd = Date.parse('2030-01-15T12:01:00.000Z');
const dayEnd = Date.parse('2030-01-16T00:00:00.000Z');

function outcome(
  status: RateLimitStatus,
  [perMinute, perDay]: [number, number],
  [usedMinute, usedDay]: [number, number],
  retryAt = 0,
): RateLimitOutcome {
  return {
    status,
    now,
    retryAt,
    windows: [
      { name: 'minute', ttlMs: MINUTE, limit: perMinute, used: usedMinute, resetAt: minuteEnd },
      { name: 'day', ttlMs: DAY, limit: perDay, used: usedDay, resetAt: dayEnd },
    ],
  };
}

describe('rateLimitHeaders', () => {
  it("should describe a free key's first request: the minute, with this request counted", () => {
    expect(rateLimitHeaders(outcome('allowed', [60, 1000], [1, 1]))).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': String(minuteEnd / 1000),
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=59;t=30, "day";r=999;t=43170',
    });
  });

  it('should describe the day once it has less left than the minute', () => {
    const headers = rateLimitHeaders(outcome('allowed', [60, 1000], [3, 990]));
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '10',
      'X-RateLimit-Reset': String(dayEnd / 1000),
    });
  });

  it('should describe the shorter window on a tie', () => {
    const headers = rateLimitHeaders(outcome('allowed', [10, 20], [5, 15]));
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '5',
      'X-RateLimit-Reset': String(minuteEnd / 1000),
    });
  });

  it('should show nothing remaining on a rejection, with the minute reset when both windows are spent', () => {
    const headers = rateLimitHeaders(outcome('limited', [5, 5], [5, 5], dayEnd));
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(minuteEnd / 1000),
    });
    expect(headers.RateLimit).toBe('"minute";r=0;t=30, "day";r=0;t=43170');
  });

  it('should show nothing remaining until the ban ends while banned', () => {
    const banEnd = now + 600_000;
    const headers = rateLimitHeaders(outcome('banned', [60, 1000], [60, 80], banEnd));
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(banEnd / 1000)),
    });
    expect(headers.RateLimit).toBe('"minute";r=0;t=600, "day";r=0;t=600');
  });

  it('should give a spent day its own reset in RateLimit when it ends after the ban', () => {
    const banEnd = now + 600_000;
    const headers = rateLimitHeaders(outcome('banned', [60, 100], [0, 100], banEnd));
    expect(headers).toMatchObject({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Reset': String(Math.ceil(banEnd / 1000)),
    });
    expect(headers.RateLimit).toBe('"minute";r=0;t=600, "day";r=0;t=43170');
  });
});

describe('retryAfterSeconds', () => {
  it('should round up to whole seconds until the blocking window resets', () => {
    expect(retryAfterSeconds(outcome('limited', [5, 8], [5, 5], minuteEnd))).toBe(30);
    expect(retryAfterSeconds(outcome('limited', [5, 8], [5, 8], dayEnd))).toBe(43170);
  });

  it('should never say less than one second', () => {
    expect(retryAfterSeconds({ ...outcome('limited', [5, 8], [5, 5], now + 1), now })).toBe(1);
    expect(retryAfterSeconds({ ...outcome('limited', [5, 8], [5, 5], now), now })).toBe(1);
  });

  it('should give the time left of a ban', () => {
    expect(retryAfterSeconds(outcome('banned', [5, 8], [5, 5], now + 599_001))).toBe(600);
  });
});
