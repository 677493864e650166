import { describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT, PostgresStockWriter } from './postgres-stock-writer.js';
import type { StockWrite, WriteOutcome } from './stock-write.js';

const update = (petId: number, quantity = 1): StockWrite => ({
  petId: BigInt(petId),
  quantity,
  reason: null,
  reference: null,
  caller: { keyId: 1, requestId: null },
});

const written = (write: StockWrite): WriteOutcome => ({
  kind: 'written',
  row: { petId: write.petId.toString(), quantity: write.quantity, status: 'available' },
});

describe('PostgresStockWriter', () => {
  it('should send the updates of one turn as one batch, and answer each with its own outcome', async () => {
    const batches: StockWrite[][] = [];
    const writer = new PostgresStockWriter((writes) => {
      batches.push(writes);
      return Promise.resolve(writes.map(written));
    });
    const outcomes = await Promise.all([1, 2, 3].map((id) => writer.write(update(id, id * 10))));
    expect(batches.map((batch) => batch.map((write) => Number(write.petId)))).toEqual([[1, 2, 3]]);
    expect(outcomes.map((outcome) => outcome.kind === 'written' && outcome.row.quantity)).toEqual([
      10, 20, 30,
    ]);
  });

  it('should refuse every update of a failed batch, and only those', async () => {
    let calls = 0;
    const writer = new PostgresStockWriter((writes) =>
      ++calls === 1 ? Promise.reject(new Error('lost')) : Promise.resolve(writes.map(written)),
    );
    const failed = [writer.write(update(1)), writer.write(update(2))];
    await expect(failed[0]).rejects.toThrow('lost');
    await expect(failed[1]).rejects.toThrow('lost');
    await expect(writer.write(update(3))).resolves.toMatchObject({ kind: 'written' });
  });

  it(`should keep at most ${MAX_IN_FLIGHT} batches under way, and send what waited together`, async () => {
    const releases: (() => void)[] = [];
    const batches: number[] = [];
    const writer = new PostgresStockWriter(
      (writes) =>
        new Promise((resolve) => {
          batches.push(writes.length);
          releases.push(() => resolve(writes.map(written)));
        }),
    );
    const all: Promise<WriteOutcome>[] = [];
    for (let turn = 0; turn < MAX_IN_FLIGHT + 3; turn++) {
      all.push(writer.write(update(turn)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(batches).toHaveLength(MAX_IN_FLIGHT);
    releases[0]();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([...Array<number>(MAX_IN_FLIGHT).fill(1), 3]);
    for (const release of releases.slice(1)) release();
    await expect(Promise.all(all)).resolves.toHaveLength(MAX_IN_FLIGHT + 3);
  });
});
