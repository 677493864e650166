import type { EntityManager } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/app-config.js';
import {
  scopeId,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type IdempotencyScope,
  type ScopedRecord,
} from '../../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../../idempotency/idempotency.service.js';
import { SystemClock } from '../../rate-limit/clock.js';
import type { InventoryRow } from '../inventory-row.js';
import type { InTransaction, StockLine, StockLinesOutcome } from '../writes/stock-lines.js';
import type { Caller } from '../writes/stock-write.js';
import { AdjustmentsService, StockLines } from './adjustments.service.js';
import type { InventoryBatch } from './dto/inventory-batch.dto.js';

const MANAGER = { name: 'the writer transaction' } as unknown as EntityManager;
const CALLER: Caller = { keyId: 3, requestId: 'req-1' };

/** Records as the table keeps them: one per scope, written only when the transaction commits. */
class FakeRecords {
  readonly committed = new Map<string, IdempotencyRecord>();
  readonly managers: EntityManager[] = [];
  /** Set to make the next insert meet a row a concurrent transaction committed. */
  raceWinner: IdempotencyRecord | undefined;

  find(scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    return Promise.resolve(this.committed.get(scopeId(scope)));
  }

  insertAll(manager: EntityManager, records: ScopedRecord[]): Promise<Set<string>> {
    this.managers.push(manager);
    const written = new Set<string>();
    for (const { scope, record } of records) {
      const id = scopeId(scope);
      if (this.raceWinner) {
        this.committed.set(id, this.raceWinner);
        this.raceWinner = undefined;
      }
      if (this.committed.has(id) || this.pending.has(id)) continue;
      this.pending.set(id, record);
      written.add(id);
    }
    return Promise.resolve(written);
  }

  rewriteAll(_manager: EntityManager, records: ScopedRecord[]): Promise<void> {
    for (const { scope, record } of records) this.pending.set(scopeId(scope), record);
    return Promise.resolve();
  }

  readonly pending = new Map<string, IdempotencyRecord>();
  commit(): void {
    for (const [id, record] of this.pending) this.committed.set(id, record);
    this.pending.clear();
  }
  rollback(): void {
    this.pending.clear();
  }
}

/**
 * A writer holding pets in memory, committing (or not) the hook's record with its lines; a call
 * whose record is not written is taken out before its lines are.
 */
class FakeWriter extends StockLines {
  readonly calls: StockLine[][] = [];
  fail: Error | undefined;

  constructor(
    private readonly pets: Map<string, InventoryRow>,
    private readonly records: FakeRecords,
  ) {
    super();
  }

  async applyLines(lines: readonly StockLine[], _caller: Caller, inTransaction?: InTransaction) {
    const next = new Map(this.pets);
    let outcome: StockLinesOutcome = { kind: 'applied', rows: [] };
    for (const [index, line] of lines.entries()) {
      const before = next.get(line.petId.toString());
      if (!before) {
        outcome = { kind: 'refused', refusals: [{ index, code: 'not_found' }] };
        break;
      }
      const quantity = line.quantity ?? before.quantity + line.delta!;
      if (quantity < 0) {
        outcome = {
          kind: 'refused',
          refusals: [{ index, code: 'insufficient_stock', current: before }],
        };
        break;
      }
      const after = { ...before, quantity };
      next.set(after.petId, after);
      if (outcome.kind === 'applied') outcome.rows.push(after);
    }
    const [error] = (await inTransaction?.work.run(MANAGER, [
      { item: inTransaction.item, outcome },
    ])) ?? [undefined];
    if (error !== undefined) throw error;
    this.calls.push([...lines]);
    if (this.fail) {
      this.records.rollback();
      throw this.fail;
    }
    if (outcome.kind === 'applied') for (const [id, row] of next) this.pets.set(id, row);
    this.records.commit();
    return outcome;
  }
}

function setup() {
  const pets = new Map<string, InventoryRow>([
    ['1', { petId: '1', quantity: 5, status: 'available' }],
  ]);
  const records = new FakeRecords();
  const writer = new FakeWriter(pets, records);
  const idempotency = new IdempotencyService(
    records as unknown as IdempotencyRepository,
    loadConfig({}),
    new SystemClock(),
  );
  return { pets, records, writer, service: new AdjustmentsService(writer, idempotency) };
}

const request = (key: string, fingerprint = 'f1') => ({ keyId: 3, key, fingerprint });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('AdjustmentsService with IdempotencyService', () => {
  it('should write the answer in the transaction of the change, and replay it without writing', async () => {
    const { pets, records, writer, service } = setup();
    const first = await service.adjust(1n, { delta: -2 }, request('a'), CALLER);
    expect(first).toEqual({
      replayed: false,
      answer: {
        status: 200,
        body: '{"petId":1,"quantity":3,"status":"available","available":3}',
        etag: expect.any(String),
      },
    });
    expect(records.managers).toEqual([MANAGER]);
    const again = await service.adjust(1n, { delta: -2 }, request('a'), CALLER);
    expect(again).toEqual({ ...first, replayed: true });
    expect(writer.calls).toHaveLength(1);
    expect(pets.get('1')!.quantity).toBe(3);
  });

  it('should keep a refusal as the answer too', async () => {
    const { writer, service } = setup();
    const refused = await service.adjust(1n, { delta: -9 }, request('b'), CALLER);
    expect(refused.answer.status).toBe(409);
    expect(JSON.parse(refused.answer.body)).toMatchObject({
      code: 'insufficient_stock',
      details: { current: { petId: 1, quantity: 5 } },
    });
    expect((await service.adjust(1n, { delta: -9 }, request('b'), CALLER)).replayed).toBe(true);
    expect(writer.calls).toHaveLength(1);
  });

  it('should refuse a key kept for another request with 422, without writing', async () => {
    const { writer, service } = setup();
    await service.adjust(1n, { delta: -1 }, request('c', 'f1'), CALLER);
    const err = await failure(service.adjust(1n, { delta: -1 }, request('c', 'f2'), CALLER));
    expect(err).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(writer.calls).toHaveLength(1);
  });

  it('should take out a duplicate that lost the race before its lines are written, and answer it as the winner was answered', async () => {
    const { pets, records, service } = setup();
    const winner = {
      status: 200,
      body: '{"petId":1,"quantity":4,"status":"available","available":4}',
      etag: '"w"',
      fingerprint: 'f1',
    };
    records.raceWinner = winner;
    const outcome = await service.adjust(1n, { delta: -1 }, request('d'), CALLER);
    expect(outcome).toEqual({
      replayed: true,
      answer: { status: 200, body: winner.body, etag: '"w"' },
    });
    // The loser's own change was not written.
    expect(pets.get('1')!.quantity).toBe(5);
  });

  it('should answer 422 to a loser whose request differs from the winner', async () => {
    const { records, service } = setup();
    records.raceWinner = { status: 200, body: '{}', etag: null, fingerprint: 'other' };
    expect(await failure(service.adjust(1n, { delta: -1 }, request('e'), CALLER))).toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('should keep nothing when the write fails, so a retry runs again', async () => {
    const { records, writer, service } = setup();
    writer.fail = new Error('disk I/O error');
    expect(await failure(service.adjust(1n, { delta: -1 }, request('f'), CALLER))).toBe(
      writer.fail,
    );
    expect(records.committed.size).toBe(0);
    writer.fail = undefined;
    expect((await service.adjust(1n, { delta: -1 }, request('f'), CALLER)).replayed).toBe(false);
  });

  it('should pass batch lines in order with exact petIds, and answer each line', async () => {
    const { writer, service } = setup();
    const batch = {
      changes: [
        { petId: '1', delta: -1, reason: 'sold' },
        { petId: 1, quantity: 9, expectedQuantity: 4 },
      ],
    } as InventoryBatch;
    const { answer } = await service.batch(batch, request('g'), CALLER);
    expect(writer.calls[0]).toEqual([
      {
        petId: 1n,
        delta: -1,
        quantity: undefined,
        expectedQuantity: undefined,
        reason: 'sold',
        reference: null,
      },
      {
        petId: 1n,
        quantity: 9,
        delta: undefined,
        expectedQuantity: 4,
        reason: null,
        reference: null,
      },
    ]);
    expect(answer.body).toBe(
      '{"items":[{"petId":1,"quantity":4,"status":"available","available":4},{"petId":1,"quantity":9,"status":"available","available":9}]}',
    );
  });
});
