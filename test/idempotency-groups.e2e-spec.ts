import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository.js';
import type { IdempotentRequest } from '../src/idempotency/idempotency.service.js';
import { AdjustmentsService } from '../src/inventory/adjustments/adjustments.service.js';
import type { InventoryBatch } from '../src/inventory/adjustments/dto/inventory-batch.dto.js';
import { InventoryRepository } from '../src/inventory/writes/inventory.repository.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const caller = { keyId: 7, requestId: 'req-1' };

describe('idempotent changes committed together (e2e)', () => {
  let t: TestApp;
  let adjustments: AdjustmentsService;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    adjustments = t.app.get(AdjustmentsService);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 10 },
      { petId: 2n, name: 'Tom', status: 'available', quantity: 10 },
    ]);
  });

  // Looked up already and not found, as a request that raced its duplicate: all of them reach the
  // writer in one turn, so they share one group.
  const request = (key: string, fingerprint = key): IdempotentRequest => ({
    keyId: 7,
    key,
    fingerprint,
    earlier: Promise.resolve(undefined),
  });
  const quantities = async () =>
    (
      (await dataSource.query(`SELECT quantity FROM pets ORDER BY id`)) as { quantity: number }[]
    ).map((row) => Number(row.quantity));
  const count = async (table: string) =>
    Number(
      ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: number }[])[0].n,
    );

  it('should take out only the calls whose key is held, and commit the others whole, once, with the answers they got', async () => {
    await adjustments.adjust(1n, { delta: -1 }, request('held'), caller);
    const transaction = vi.spyOn(t.app.get(InventoryRepository), 'transaction');
    const insertAll = vi.spyOn(t.app.get(IdempotencyRepository), 'insertAll');
    const rewriteAll = vi.spyOn(t.app.get(IdempotencyRepository), 'rewriteAll');
    const batch = {
      changes: [
        { petId: 1, delta: 3 },
        { petId: 2, delta: -4 },
      ],
    } as InventoryBatch;
    try {
      const outcomes = await Promise.all([
        adjustments.adjust(1n, { delta: 2 }, request('a'), caller),
        adjustments.adjust(2n, { delta: 5 }, request('dup'), caller),
        adjustments.adjust(2n, { delta: 5 }, request('dup'), caller),
        // Kept by the call above: found taken when the group's records are written.
        adjustments.adjust(1n, { delta: -1 }, request('held'), caller),
        adjustments.batch(batch, request('b'), caller),
        adjustments.adjust(2n, { delta: -100 }, request('refused'), caller),
      ]);
      expect(outcomes.map((o) => [o.answer.status, o.replayed])).toEqual([
        [200, false],
        [200, false],
        [200, true],
        [200, true],
        [200, false],
        [409, false],
      ]);
      expect(outcomes[2].answer).toEqual(outcomes[1].answer);
      expect(JSON.parse(outcomes[3].answer.body)).toMatchObject({ quantity: 9 });
      // Without the two held keys' lines, the batch and the refusal meet other quantities.
      expect(JSON.parse(outcomes[4].answer.body)).toEqual({
        items: [
          { petId: 1, quantity: 14, status: 'available', available: 14 },
          { petId: 2, quantity: 11, status: 'available', available: 11 },
        ],
      });
      expect(JSON.parse(outcomes[5].answer.body)).toMatchObject({
        details: { current: { quantity: 11 } },
      });
      // One transaction, the records written once and the two answers that changed rewritten.
      expect(transaction).toHaveBeenCalledTimes(1);
      expect(insertAll).toHaveBeenCalledTimes(1);
      expect(rewriteAll).toHaveBeenCalledTimes(1);
      expect(rewriteAll.mock.calls[0][1].map((r) => r.scope.key)).toEqual(['b', 'refused']);
      // Their retries are answered as they were.
      const retries = await Promise.all([
        adjustments.batch(batch, request('b'), caller),
        adjustments.adjust(2n, { delta: -100 }, request('refused'), caller),
      ]);
      expect(retries).toEqual([
        { ...outcomes[4], replayed: true },
        { ...outcomes[5], replayed: true },
      ]);
    } finally {
      transaction.mockRestore();
      insertAll.mockRestore();
      rewriteAll.mockRestore();
    }
    expect(await quantities()).toEqual([10 - 1 + 2 + 3, 10 + 5 - 4]);
    expect(await count(`inventory_changes WHERE source = 'api'`)).toBe(5);
    expect(await count('idempotency_keys')).toBe(5);
  });

  it('should answer 422 to a call in the group that reuses a key for another request', async () => {
    const outcomes = await Promise.allSettled([
      adjustments.adjust(1n, { delta: 1 }, request('k', 'first'), caller),
      adjustments.adjust(1n, { delta: 7 }, request('k', 'second'), caller),
      adjustments.adjust(2n, { delta: 1 }, request('other'), caller),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(await quantities()).toEqual([11, 11]);
  });
});
