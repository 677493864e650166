import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import type { StockCommitted } from '../inventory/writes/stock-committed.js';
import type { InventoryRepository } from '../inventory/writes/inventory.repository.js';
import type { IdempotencyService, IdempotentRequest } from '../idempotency/idempotency.service.js';
import type { HoldsRepository } from './holds.repository.js';
import { HoldsService } from './holds.service.js';

/** Each group's transaction waits until the test fails it. */
function serviceOverFailingTransactions() {
  const transactions: ((err: unknown) => void)[] = [];
  const inventory = {
    transaction: vi.fn(() => new Promise((_resolve, reject) => transactions.push(reject))),
  };
  const idempotency = {
    once: (_request: unknown, _answer: unknown, work: (keep: unknown) => Promise<unknown>) =>
      work({ work: {} }),
  };
  const service = new HoldsService(
    {} as HoldsRepository,
    inventory as unknown as InventoryRepository,
    idempotency as unknown as IdempotencyService,
    { notify: () => undefined } as unknown as StockCommitted,
  );
  const hold = () => {
    const outcome: { error?: unknown } = {};
    service
      .create(1n, { quantity: 1 }, {} as IdempotentRequest)
      .catch((err: unknown) => (outcome.error = err));
    return outcome;
  };
  return { transactions, inventory, hold };
}

describe('HoldsService groups', () => {
  it('should fail the holds queued behind a group the database did not answer in time', async () => {
    const { transactions, inventory, hold } = serviceOverFailingTransactions();
    const first = hold();
    await turn();
    const queued = [hold(), hold()];
    await turn();
    const timedOut = new Error('Query read timeout');
    transactions[0](timedOut);
    await turn();
    await turn();
    expect([first, ...queued].map((outcome) => outcome.error)).toEqual([
      timedOut,
      timedOut,
      timedOut,
    ]);
    expect(inventory.transaction).toHaveBeenCalledTimes(1);
  });
});
