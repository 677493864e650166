import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import type { InventoryRow } from '../inventory-row.js';
import type { InventoryRepository } from './inventory.repository.js';
import { itemEtag } from './preconditions.js';
import type { StockLine } from './stock-lines.js';
import { decideLines, StockLinesService } from './stock-lines.service.js';
import type { StockCommitted } from './stock-committed.js';

const caller = { keyId: null, requestId: 'r' };
const line = (petId: bigint, change: Partial<StockLine>): StockLine => ({
  petId,
  reason: null,
  reference: null,
  ...change,
});
const rows = () =>
  new Map<string, InventoryRow>([
    ['1', { petId: '1', quantity: 5, status: 'pending' }],
    ['2', { petId: '2', quantity: 0, status: 'sold' }],
  ]);

describe('decideLines', () => {
  it('should keep held units from removals, and let a count or an addition apply as sent', () => {
    const held = () =>
      new Map<string, InventoryRow>([
        ['1', { petId: '1', quantity: 5, status: 'available', held: 3 }],
      ]);
    const removal = decideLines(held(), [line(1n, { delta: -3 })], caller).outcome;
    expect(removal).toMatchObject({ kind: 'refused', refusals: [{ code: 'insufficient_stock' }] });
    expect(decideLines(held(), [line(1n, { delta: -2 })], caller).outcome.kind).toBe('applied');
    expect(decideLines(held(), [line(1n, { quantity: 1 })], caller).outcome).toMatchObject({
      kind: 'applied',
      rows: [{ quantity: 1, held: 3 }],
    });
    const low = new Map<string, InventoryRow>([
      ['1', { petId: '1', quantity: 1, status: 'available', held: 3 }],
    ]);
    expect(decideLines(low, [line(1n, { delta: 1 })], caller).outcome.kind).toBe('applied');
  });

  it('should let each line see the lines before it, and the next call see an applied one', () => {
    const state = rows();
    const first = decideLines(
      state,
      [line(1n, { delta: -5 }), line(1n, { delta: 2, expectedQuantity: 0 })],
      caller,
    );
    expect(first.outcome).toEqual({
      kind: 'applied',
      rows: [
        { petId: '1', quantity: 0, status: 'sold' },
        { petId: '1', quantity: 2, status: 'available' },
      ],
    });
    expect(first.changes.map((c) => [c.before?.quantity, c.after.quantity])).toEqual([
      [5, 0],
      [0, 2],
    ]);
    expect(state.get('1')).toEqual({ petId: '1', quantity: 2, status: 'available' });
  });

  it('should leave the rows as they were when a call is refused', () => {
    const state = rows();
    const refused = decideLines(
      state,
      [line(2n, { quantity: 4 }), line(1n, { delta: -6 })],
      caller,
    );
    expect(refused).toEqual({
      outcome: {
        kind: 'refused',
        refusals: [{ index: 1, code: 'insufficient_stock', current: rows().get('1') }],
      },
      changes: [],
    });
    expect(state).toEqual(rows());
  });

  it('should match If-Match against the state the line meets, and * against any', () => {
    const state = rows();
    const etag = itemEtag(rows().get('1')!);
    expect(
      decideLines(
        state,
        [line(1n, { quantity: 3, ifMatch: [etag] }), line(2n, { quantity: 1, ifMatch: '*' })],
        caller,
      ).outcome.kind,
    ).toBe('applied');
    expect(
      decideLines(state, [line(1n, { quantity: 4, ifMatch: [etag] })], caller).outcome,
    ).toEqual({
      kind: 'refused',
      refusals: [
        {
          index: 0,
          code: 'precondition_failed',
          current: { petId: '1', quantity: 3, status: 'pending' },
        },
      ],
    });
  });
});

describe('StockLinesService groups', () => {
  /** Each group's transaction waits until the test fails it. */
  function serviceOverFailingTransactions() {
    const transactions: ((err: unknown) => void)[] = [];
    const repository = {
      transaction: vi.fn(() => new Promise((_resolve, reject) => transactions.push(reject))),
    };
    const service = new StockLinesService(
      repository as unknown as InventoryRepository,
      { notify: () => undefined } as unknown as StockCommitted,
    );
    const write = () => {
      const outcome: { error?: unknown } = {};
      service
        .applyLines([line(1n, { delta: 1 })], caller)
        .catch((err: unknown) => (outcome.error = err));
      return outcome;
    };
    return { transactions, repository, write };
  }
  it('should fail the calls queued behind a group of one that the database did not answer in time', async () => {
    const { transactions, repository, write } = serviceOverFailingTransactions();
    const first = write();
    await turn();
    const queued = [write(), write()];
    await turn();
    const timedOut = new Error('Query read timeout');
    transactions[0](timedOut);
    await turn();
    expect(first.error).toBe(timedOut);
    expect(queued.map((outcome) => outcome.error)).toEqual([timedOut, timedOut]);
    expect(repository.transaction).toHaveBeenCalledTimes(1);
  });

  it('should give the calls queued behind a group whose connection was lost a group of their own', async () => {
    const { transactions, repository, write } = serviceOverFailingTransactions();
    const first = write();
    await turn();
    const queued = write();
    await turn();
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    transactions[0](reset);
    await turn();
    await turn();
    expect(first.error).toBe(reset);
    expect(queued.error).toBeUndefined();
    expect(repository.transaction).toHaveBeenCalledTimes(2);
  });
});
