import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BanPolicy, WindowSpec } from '../../src/rate-limit/rate-limit.policy.js';
import type { RateLimitStorage } from '../../src/rate-limit/storage/rate-limit.storage.js';
import { ManualClock } from './manual-clock.js';

export const CONTRACT_BAN: BanPolicy = { threshold: 3, durationMs: 600_000 };
const MINUTE = 60_000;
const DAY = 86_400_000;
const NOON = Date.parse('2030-01-15T12:00:30.000Z');
const windows = (perMinute: number, perDay: number): WindowSpec[] => [
  { name: 'minute', ttlMs: MINUTE, limit: perMinute },
  { name: 'day', ttlMs: DAY, limit: perDay },
];

type Closable = RateLimitStorage & { close?: () => Promise<void> };

/**
 * The behaviour every RateLimitStorage shares, run against each implementation. `create` gets a
 * clock the storage must read and the ban policy it must apply; a storage with `close` is closed
 * after each test.
 */
export function describeRateLimitStorage(
  name: string,
  create: (clock: ManualClock, ban: BanPolicy) => Closable | Promise<Closable>,
): void {
  describe(`${name} storage`, () => {
    let clock: ManualClock;
    let storage: Closable;
    let client: string;

    beforeEach(async () => {
      clock = new ManualClock(NOON);
      storage = await create(clock, CONTRACT_BAN);
      client = `client-${randomUUID()}`;
    });
    afterEach(() => storage.close?.());

    const statuses = async (count: number, specs = windows(5, 8), key = client) => {
      const result: string[] = [];
      for (let i = 0; i < count; i++) result.push((await storage.consume(key, specs)).status);
      return result;
    };

    it('should count a request in both windows and report when each resets', async () => {
      const outcome = await storage.consume(client, windows(5, 8));
      expect(outcome).toEqual({
        status: 'allowed',
        now: NOON,
        retryAt: 0,
        windows: [
          {
            name: 'minute',
            ttlMs: MINUTE,
            limit: 5,
            used: 1,
            resetAt: Date.parse('2030-01-15T12:01:00.000Z'),
          },
          {
            name: 'day',
            ttlMs: DAY,
            limit: 8,
            used: 1,
            resetAt: Date.parse('2030-01-16T00:00:00.000Z'),
          },
        ],
      });
    });

    it('should accept exactly the minute limit, then reject until the next minute', async () => {
      expect(await statuses(6)).toEqual([
        'allowed',
        'allowed',
        'allowed',
        'allowed',
        'allowed',
        'limited',
      ]);
      const rejected = await storage.consume(client, windows(5, 8));
      expect(rejected).toMatchObject({
        status: 'limited',
        retryAt: Date.parse('2030-01-15T12:01:00.000Z'),
      });
      expect(rejected.windows.map((w) => w.used)).toEqual([5, 5]);
      clock.set(Date.parse('2030-01-15T12:01:00.000Z'));
      const next = await storage.consume(client, windows(5, 8));
      expect(next.status).toBe('allowed');
      expect(next.windows.map((w) => w.used)).toEqual([1, 6]);
    });

    it('should hold a spent day until UTC midnight', async () => {
      clock.set(Date.parse('2030-01-15T23:58:00.000Z'));
      await statuses(5);
      clock.advance(MINUTE);
      expect(await statuses(4)).toEqual(['allowed', 'allowed', 'allowed', 'limited']);
      expect((await storage.consume(client, windows(5, 8))).retryAt).toBe(
        Date.parse('2030-01-16T00:00:00.000Z'),
      );
      clock.set(Date.parse('2030-01-16T00:00:00.000Z'));
      const outcome = await storage.consume(client, windows(5, 8));
      expect(outcome.status).toBe('allowed');
      expect(outcome.windows.map((w) => w.used)).toEqual([1, 1]);
    });

    it('should keep clients apart', async () => {
      await statuses(5);
      expect(await statuses(1)).toEqual(['limited']);
      expect(await statuses(1, windows(5, 8), `${client}-other`)).toEqual(['allowed']);
    });

    it('should ban past the threshold, for longer than the window, and then let the client back', async () => {
      await statuses(5);
      expect(await statuses(4)).toEqual(['limited', 'limited', 'limited', 'banned']);
      const banEnd = NOON + CONTRACT_BAN.durationMs;
      clock.advance(2 * MINUTE);
      const banned = await storage.consume(client, windows(5, 8));
      expect(banned).toMatchObject({ status: 'banned', retryAt: banEnd });
      expect(banned.windows.map((w) => w.used)).toEqual([0, 5]);
      clock.set(banEnd - 1);
      expect(await statuses(1)).toEqual(['banned']);
      clock.set(banEnd);
      expect(await statuses(3)).toEqual(['allowed', 'allowed', 'allowed']);
    });

    it('should let exactly the limit through when requests arrive at once', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, () => storage.consume(client, windows(10, 100))),
      );
      expect(outcomes.filter((o) => o.status === 'allowed')).toHaveLength(10);
      expect(outcomes.filter((o) => o.status === 'limited')).toHaveLength(3);
      expect(outcomes.filter((o) => o.status === 'banned')).toHaveLength(27);
    });

    it('should peek at a new client as untouched, counting nothing', async () => {
      for (let i = 0; i < 3; i++) {
        expect(await storage.peek(client, windows(5, 8))).toEqual({
          status: 'allowed',
          now: NOON,
          retryAt: 0,
          windows: [
            { name: 'minute', ttlMs: MINUTE, limit: 5, used: 0, resetAt: NOON + 30_000 },
            {
              name: 'day',
              ttlMs: DAY,
              limit: 8,
              used: 0,
              resetAt: Date.parse('2030-01-16T00:00:00.000Z'),
            },
          ],
        });
      }
      expect((await storage.consume(client, windows(5, 8))).windows.map((w) => w.used)).toEqual([
        1, 1,
      ]);
    });

    it('should peek at the counts of the current windows without changing them', async () => {
      await statuses(3);
      for (let i = 0; i < 10; i++) {
        const peeked = await storage.peek(client, windows(5, 8));
        expect(peeked.status).toBe('allowed');
        expect(peeked.windows.map((w) => w.used)).toEqual([3, 3]);
      }
      expect(await statuses(3)).toEqual(['allowed', 'allowed', 'limited']);
      clock.advance(MINUTE);
      expect((await storage.peek(client, windows(5, 8))).windows.map((w) => w.used)).toEqual([
        0, 5,
      ]);
    });

    it('should peek at a spent window as limited until it resets, without earning a ban', async () => {
      await statuses(5);
      for (let i = 0; i < CONTRACT_BAN.threshold * 3; i++) {
        expect(await storage.peek(client, windows(5, 8))).toMatchObject({
          status: 'limited',
          retryAt: Date.parse('2030-01-15T12:01:00.000Z'),
        });
      }
      expect(await statuses(CONTRACT_BAN.threshold)).toEqual(
        Array(CONTRACT_BAN.threshold).fill('limited'),
      );
    });

    it('should peek at a ban and when it ends', async () => {
      await statuses(5 + CONTRACT_BAN.threshold + 1);
      const banEnd = NOON + CONTRACT_BAN.durationMs;
      clock.advance(2 * MINUTE);
      const peeked = await storage.peek(client, windows(5, 8));
      expect(peeked).toMatchObject({ status: 'banned', retryAt: banEnd });
      expect(peeked.windows.map((w) => w.used)).toEqual([0, 5]);
      clock.set(banEnd);
      expect((await storage.peek(client, windows(5, 8))).status).toBe('allowed');
    });

    it('should serve a stock ThrottlerGuard through increment', async () => {
      expect(await storage.increment(client, MINUTE, 2, MINUTE, 'default')).toEqual({
        totalHits: 1,
        timeToExpire: 30,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
      await storage.increment(client, MINUTE, 2, MINUTE, 'default');
      expect(await storage.increment(client, MINUTE, 2, MINUTE, 'default')).toEqual({
        totalHits: 3,
        timeToExpire: 30,
        isBlocked: true,
        timeToBlockExpire: 30,
      });
    });

    it('should ban through increment as through consume, past the threshold', async () => {
      const hits = [];
      for (let i = 0; i < 2 + CONTRACT_BAN.threshold + 1; i++)
        hits.push(await storage.increment(client, MINUTE, 2, MINUTE, 'default'));
      expect(hits.map((h) => h.isBlocked)).toEqual([false, false, true, true, true, true]);
      expect(hits[hits.length - 1].timeToBlockExpire).toBe(CONTRACT_BAN.durationMs / 1000);
      clock.advance(MINUTE);
      expect((await storage.increment(client, MINUTE, 2, MINUTE, 'default')).isBlocked).toBe(true);
    });

    it('should charge a request of several units to every window, all or nothing', async () => {
      const charge = (cost: number) => storage.consume(client, windows(5, 8), { cost, bans: true });
      expect((await charge(4)).windows.map((w) => w.used)).toEqual([4, 4]);
      const refused = await charge(2);
      expect(refused).toMatchObject({ status: 'limited', retryAt: NOON + 30_000 });
      expect(refused.windows.map((w) => w.used)).toEqual([4, 4]);
      expect((await charge(1)).windows.map((w) => w.used)).toEqual([5, 5]);
      clock.advance(MINUTE);
      // The day has 3 left: 4 does not fit there, and the minute is not charged either.
      expect((await charge(4)).status).toBe('limited');
      expect((await charge(3)).windows.map((w) => w.used)).toEqual([3, 8]);
    });

    it('should never ban a request charged without bans, however often it is refused', async () => {
      const quiet = { cost: 1, bans: false };
      const outcomes = [];
      for (let i = 0; i < 5 + CONTRACT_BAN.threshold * 3; i++)
        outcomes.push((await storage.consume(client, windows(5, 8), quiet)).status);
      expect(outcomes.filter((s) => s === 'limited')).toHaveLength(CONTRACT_BAN.threshold * 3);
      expect((await storage.peek(client, windows(5, 8))).status).toBe('limited');
    });

    it('should keep a window with its own counter apart from the window of the same name', async () => {
      const own: WindowSpec[] = [
        { name: 'minute', ttlMs: MINUTE, limit: 2, counter: 'minute@route' },
      ];
      await statuses(2);
      expect((await storage.consume(client, own)).windows[0].used).toBe(1);
      expect((await storage.consume(client, own)).status).toBe('allowed');
      expect((await storage.consume(client, own)).status).toBe('limited');
      expect((await storage.peek(client, windows(5, 8))).windows.map((w) => w.used)).toEqual([
        2, 2,
      ]);
    });
  });
}
