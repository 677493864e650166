import { describe, expect, it } from 'vitest';
import {
  applyRequest,
  type ClientState,
  type RateLimitOutcome,
  type WindowSpec,
  windowEnd,
} from './rate-limit.policy.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const at = (iso: string) => Date.parse(iso);
const windows = (perMinute: number, perDay: number): WindowSpec[] => [
  { name: 'minute', ttlMs: MINUTE, limit: perMinute },
  { name: 'day', ttlMs: DAY, limit: perDay },
];
const ban = { threshold: 3, durationMs: 600 * SECOND };

function client() {
  const state: ClientState = { windows: [], banUntil: 0 };
  return (now: number, specs = windows(5, 8)): RateLimitOutcome =>
    applyRequest(state, specs, now, ban);
}

describe('window maths', () => {
  it('should end a minute window on the next whole minute, with the boundary in the next window', () => {
    expect(windowEnd(MINUTE, at('2030-01-15T12:00:00.000Z'))).toBe(at('2030-01-15T12:01:00.000Z'));
    expect(windowEnd(MINUTE, at('2030-01-15T12:00:59.999Z'))).toBe(at('2030-01-15T12:01:00.000Z'));
    expect(windowEnd(MINUTE, at('2030-01-15T12:01:00.000Z'))).toBe(at('2030-01-15T12:02:00.000Z'));
  });

  it('should end a day window at the next UTC midnight', () => {
    expect(windowEnd(DAY, at('2030-01-15T00:00:00.000Z'))).toBe(at('2030-01-16T00:00:00.000Z'));
    expect(windowEnd(DAY, at('2030-01-15T23:59:59.999Z'))).toBe(at('2030-01-16T00:00:00.000Z'));
    expect(windowEnd(DAY, at('2030-12-31T18:00:00.000Z'))).toBe(at('2031-01-01T00:00:00.000Z'));
  });
});

describe('applyRequest', () => {
  const noon = at('2030-01-15T12:00:30.000Z');

  it('should accept up to the minute limit, counting each accepted request in both windows', () => {
    const hit = client();
    for (let i = 1; i <= 5; i++) {
      const outcome = hit(noon);
      expect(outcome.status).toBe('allowed');
      expect(outcome.windows.map((w) => w.used)).toEqual([i, i]);
    }
    const rejected = hit(noon);
    expect(rejected).toMatchObject({ status: 'limited', retryAt: at('2030-01-15T12:01:00.000Z') });
    expect(rejected.windows.map((w) => [w.used, w.resetAt])).toEqual([
      [5, at('2030-01-15T12:01:00.000Z')],
      [5, at('2030-01-16T00:00:00.000Z')],
    ]);
  });

  it('should start a fresh minute exactly on the boundary, not a millisecond before', () => {
    const hit = client();
    for (let i = 0; i < 5; i++) hit(noon);
    expect(hit(at('2030-01-15T12:00:59.999Z')).status).toBe('limited');
    const next = hit(at('2030-01-15T12:01:00.000Z'));
    expect(next.status).toBe('allowed');
    expect(next.windows.map((w) => w.used)).toEqual([1, 6]);
  });

  it('should not charge rejected requests to the day', () => {
    const hit = client();
    for (let i = 0; i < 5; i++) hit(noon);
    for (let i = 0; i < 3; i++) expect(hit(noon).status).toBe('limited');
    expect(hit(noon + MINUTE).windows[1].used).toBe(6);
  });

  it('should block on the day until UTC midnight once the day is used up, whatever the minute', () => {
    const hit = client();
    for (let i = 0; i < 5; i++) hit(at('2030-01-15T23:58:10.000Z'));
    for (let i = 0; i < 3; i++) expect(hit(at('2030-01-15T23:59:10.000Z')).status).toBe('allowed');
    const rejected = hit(at('2030-01-15T23:59:20.000Z'));
    expect(rejected).toMatchObject({ status: 'limited', retryAt: at('2030-01-16T00:00:00.000Z') });
    const afterMidnight = hit(at('2030-01-16T00:00:00.000Z'));
    expect(afterMidnight.status).toBe('allowed');
    expect(afterMidnight.windows.map((w) => w.used)).toEqual([1, 1]);
  });

  it('should make the client wait for the later window when both are used up', () => {
    const hit = client();
    for (let i = 0; i < 5; i++) hit(noon, windows(5, 5));
    expect(hit(noon, windows(5, 5)).retryAt).toBe(at('2030-01-16T00:00:00.000Z'));
  });

  it('should ban on the rejection after the threshold and keep rejecting until the ban ends', () => {
    const hit = client();
    for (let i = 0; i < 5; i++) hit(noon);
    for (let i = 0; i < 3; i++) expect(hit(noon).status).toBe('limited');
    const banned = hit(noon + SECOND);
    expect(banned).toMatchObject({ status: 'banned', retryAt: noon + SECOND + 600 * SECOND });

    // The ban outlives the minute that caused it, and banned requests count for nothing.
    const later = hit(noon + 5 * MINUTE);
    expect(later).toMatchObject({ status: 'banned', retryAt: banned.retryAt });
    expect(later.windows.map((w) => w.used)).toEqual([0, 5]);
    expect(hit(banned.retryAt - 1).status).toBe('banned');

    const back = hit(banned.retryAt);
    expect(back.status).toBe('allowed');
    expect(back.windows.map((w) => w.used)).toEqual([1, 6]);
  });

  it('should count rejections per window, so a new window starts below the threshold', () => {
    const hit = client();
    const specs = windows(5, 100);
    for (let i = 0; i < 5; i++) hit(noon, specs);
    for (let i = 0; i < 3; i++) expect(hit(noon, specs).status).toBe('limited');
    for (let i = 0; i < 5; i++) hit(noon + MINUTE, specs);
    for (let i = 0; i < 3; i++) expect(hit(noon + MINUTE, specs).status).toBe('limited');
    expect(hit(noon + MINUTE, specs).status).toBe('banned');
  });

  it('should give a client back from a ban the whole threshold again', () => {
    const hit = client();
    const specs = windows(100, 1);
    hit(noon, specs);
    for (let i = 0; i < 3; i++) hit(noon, specs);
    const { status, retryAt: banEnd } = hit(noon, specs);
    expect(status).toBe('banned');
    for (let i = 0; i < 3; i++) expect(hit(banEnd, specs).status).toBe('limited');
    expect(hit(banEnd, specs).status).toBe('banned');
  });
});
