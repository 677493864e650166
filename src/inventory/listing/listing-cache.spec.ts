import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import type { InventoryRepository } from '../writes/inventory.repository.js';
import { ListingCache } from './listing-cache.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function cacheOverReads() {
  const reads: ReturnType<typeof deferred<bigint>>[] = [];
  const repository = {
    clock: { now: () => Date.now() },
    version: vi.fn(() => {
      const read = deferred<bigint>();
      reads.push(read);
      return read.promise;
    }),
    snapshot: vi.fn(async () => ({ version: 1n, rows: [], until: undefined })),
  };
  return {
    cache: new ListingCache(repository as unknown as InventoryRepository),
    reads,
    repository,
  };
}

function outcomeOf(promise: Promise<unknown>) {
  const outcome: { error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    () => (outcome.settled = true),
    (err: unknown) => Object.assign(outcome, { settled: true, error: err }),
  );
  return outcome;
}

describe('ListingCache', () => {
  it('should fail the callers who waited behind a counter read that timed out, with no read of their own', async () => {
    const { cache, reads, repository } = cacheOverReads();
    const first = outcomeOf(cache.listing());
    await turn();
    const waiting = outcomeOf(cache.listing());
    await turn();
    const timedOut = new Error('Query read timeout');
    reads[0].reject(timedOut);
    await turn();
    await turn();
    expect(first).toEqual({ settled: true, error: timedOut });
    expect(waiting).toEqual({ settled: true, error: timedOut });
    expect(repository.version).toHaveBeenCalledTimes(1);

    // The next caller reads again.
    const later = cache.listing();
    await turn();
    reads[1].resolve(1n);
    await expect(later).resolves.toMatchObject({ version: 1n });
  });

  it('should read again for the callers who waited behind a read whose connection was lost', async () => {
    const { cache, reads, repository } = cacheOverReads();
    const first = outcomeOf(cache.listing());
    await turn();
    const waiting = cache.listing();
    await turn();
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    reads[0].reject(reset);
    await turn();
    await turn();
    expect(first).toEqual({ settled: true, error: reset });
    expect(repository.version).toHaveBeenCalledTimes(2);
    reads[1].resolve(1n);
    await expect(waiting).resolves.toMatchObject({ version: 1n });
  });
});
