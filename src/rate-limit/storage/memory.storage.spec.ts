import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/support/manual-clock.js';
import {
  CONTRACT_BAN,
  describeRateLimitStorage,
} from '../../../test/support/rate-limit-storage.contract.js';
import type { WindowSpec } from '../rate-limit.policy.js';
import { DEFAULT_MAX_CLIENTS, MemoryRateLimitStorage } from './memory.storage.js';

describeRateLimitStorage('memory', (clock, ban) => new MemoryRateLimitStorage(ban, clock));

const FREE: WindowSpec[] = [
  { name: 'minute', ttlMs: 60_000, limit: 60 },
  { name: 'day', ttlMs: 86_400_000, limit: 1000 },
];
const START = Date.parse('2030-01-15T00:00:00.000Z');

describe('MemoryRateLimitStorage memory', () => {
  it('should forget clients once their day is over', async () => {
    const clock = new ManualClock(START + 1000);
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, clock);
    for (let i = 0; i < 1000; i++) await storage.consume(`ip:${i}`, FREE);
    expect(storage.size).toBe(1000);
    clock.set(START + 86_400_000);
    for (let i = 0; i < 400; i++) await storage.consume('ip:next-day', FREE);
    expect(storage.size).toBe(1);
  });

  it('should keep a banned client past its day until the ban ends', async () => {
    const clock = new ManualClock(START + 86_400_000 - 60_000);
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, clock);
    const one: WindowSpec[] = [{ name: 'day', ttlMs: 86_400_000, limit: 1 }];
    for (let i = 0; i < 5; i++) await storage.consume('key:1', one);
    clock.set(START + 86_400_000 + 1000);
    expect((await storage.consume('key:1', one)).status).toBe('banned');
  });

  it('should hold no more than a day of clients, however many arrive over the days', async () => {
    const clock = new ManualClock(START);
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, clock);
    let largest = 0;
    for (let i = 0; i < 200_000; i++) {
      clock.advance(2000);
      await storage.consume(`ip:${i}`, FREE);
      largest = Math.max(largest, storage.size);
    }
    // One new client every 2 s: a day holds 43,200 of them.
    expect(largest).toBeLessThanOrEqual(43_200);
  });

  it('should hold no more than its cap of clients, however many distinct ones arrive at once', async () => {
    const cap = 1000;
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, new ManualClock(START), cap);
    let largest = 0;
    // Fifty times the cap, in one minute: none expires, so every one past the cap makes room.
    for (let i = 0; i < 50 * cap; i++) {
      await storage.consume(`ip:${i}`, FREE);
      largest = Math.max(largest, storage.size);
    }
    expect(largest).toBe(cap);
    // The latest clients are the ones kept.
    expect((await storage.consume(`ip:${50 * cap - 1}`, FREE)).windows[0].used).toBe(2);
    expect((await storage.consume(`ip:${49 * cap}`, FREE)).windows[0].used).toBe(2);
    expect((await storage.consume('ip:0', FREE)).windows[0].used).toBe(1);
  });

  it('should cap clients at DEFAULT_MAX_CLIENTS unless told otherwise', async () => {
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, new ManualClock(START));
    for (let i = 0; i <= DEFAULT_MAX_CLIENTS; i++) await storage.consume(`ip:${i}`, FREE);
    expect(storage.size).toBe(DEFAULT_MAX_CLIENTS);
    // The first client made room for the last, and starts afresh.
    expect((await storage.consume(`ip:${DEFAULT_MAX_CLIENTS}`, FREE)).windows[0].used).toBe(2);
    expect((await storage.consume('ip:0', FREE)).windows[0].used).toBe(1);
  });

  it('should never forget an active ban to make room, and forget anonymous clients first', async () => {
    const clock = new ManualClock(START);
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, clock, 100);
    const one: WindowSpec[] = [{ name: 'minute', ttlMs: 60_000, limit: 1 }];
    // The banned key arrived first: a store that evicts the oldest or soonest-expiring would drop it.
    while ((await storage.consume('key:banned', one)).status !== 'banned');
    await storage.consume('key:honest', FREE);
    for (let i = 0; i < 10_000; i++) await storage.consume(`ip:10.0.${i >> 8}.${i & 255}`, FREE);
    expect(storage.size).toBe(100);
    expect((await storage.consume('key:banned', one)).status).toBe('banned');
    expect((await storage.consume('key:honest', FREE)).windows[0].used).toBe(2);
  });

  it('should keep every active ban even when bans alone fill it', async () => {
    const clock = new ManualClock(START);
    const storage = new MemoryRateLimitStorage(CONTRACT_BAN, clock, 10);
    const one: WindowSpec[] = [{ name: 'minute', ttlMs: 60_000, limit: 1 }];
    for (let i = 0; i < 20; i++)
      while ((await storage.consume(`ip:${i}`, one)).status !== 'banned');
    expect(storage.size).toBe(20);
    for (let i = 0; i < 20; i++)
      expect((await storage.consume(`ip:${i}`, one)).status).toBe('banned');
  });
});
