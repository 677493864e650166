import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LookupPermits, LOOKUPS_BUSY, lookupPermitsFor } from './lookup-permits.js';

describe('LookupPermits', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('should size the share at a quarter of the pool, at least one', () => {
    expect([1, 4, 8, 10, 40].map(lookupPermitsFor)).toEqual([1, 1, 2, 2, 10]);
    expect(lookupPermitsFor(undefined)).toBe(1);
  });

  it('should hand a released permit to the longest waiter', async () => {
    const permits = new LookupPermits(1, 1_000, 10);
    await permits.acquire();
    const order: number[] = [];
    const waiting = [1, 2].map((n) => permits.acquire().then(() => order.push(n)));
    permits.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([1]);
    permits.release();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2]);
    expect(permits.inUse).toBe(1);
  });

  it('should refuse a waiter once its wait is over, and at once past the bound on waiters', async () => {
    const permits = new LookupPermits(1, 1_000, 1);
    expect(permits.tryAcquire()).toBe(true);
    expect(permits.tryAcquire()).toBe(false);
    const waiter = permits.acquire().catch((err: unknown) => err);
    await expect(permits.acquire()).rejects.toBe(LOOKUPS_BUSY);
    await vi.advanceTimersByTimeAsync(999);
    permits.release();
    await expect(waiter).resolves.toBeUndefined();
    const late = permits.acquire().catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(late).resolves.toBe(LOOKUPS_BUSY);
    // The refused waiter left the queue: a release frees the permit.
    permits.release();
    expect(permits.inUse).toBe(0);
  });
});
