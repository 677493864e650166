import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type EntityManager } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdempotencyKeyEntity } from '../src/idempotency/idempotency-key.entity.js';
import { PetEntity } from '../src/inventory/pet.entity.js';
import { InventoryChangeEntity } from '../src/inventory/history/inventory-change.entity.js';
import { InventoryRepository } from '../src/inventory/writes/inventory.repository.js';
import { itemEtag } from '../src/inventory/writes/preconditions.js';
import type {
  GroupWork,
  InTransaction,
  StockLine,
  StockLinesOutcome,
} from '../src/inventory/writes/stock-lines.js';
import { StockLinesService } from '../src/inventory/writes/stock-lines.service.js';
import { integrationDatabaseEnv } from './integration/support/context.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const caller = { keyId: 7, requestId: 'req-1' };
const line = (petId: bigint, change: Partial<StockLine>): StockLine => ({
  petId,
  reason: null,
  reference: null,
  ...change,
});

describe('stock lines (all or nothing, in line order)', () => {
  let t: TestApp;
  let lines: StockLinesService;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    lines = t.app.get(StockLinesService);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 2n, name: 'Tom', status: 'pending', quantity: 2 },
      { petId: 9007199254740993n, name: 'Kit', status: 'sold', quantity: 0 },
    ]);
    await dataSource.getRepository(InventoryChangeEntity).clear();
  });

  const stock = async () =>
    (await t.app
      .get(DataSource)
      .query(`SELECT CAST(id AS TEXT) AS id, quantity, status FROM pets ORDER BY id`)) as {
      id: string;
      quantity: number;
      status: string;
    }[];
  const changes = () =>
    // petId left out: better-sqlite3 would read 9007199254740993 as a rounded number.
    dataSource.getRepository(InventoryChangeEntity).find({
      select: {
        id: true,
        previousQuantity: true,
        quantity: true,
        previousStatus: true,
        status: true,
        reason: true,
        reference: true,
        source: true,
        keyId: true,
        requestId: true,
      },
      order: { id: 'ASC' },
    });

  it('should apply sets and adjustments in line order and append their changes in that order', async () => {
    const outcome = await lines.applyLines(
      [
        line(2n, { delta: -2, reason: 'damaged' }),
        line(1n, { quantity: 9, reference: 'PO-1' }),
        line(2n, { delta: 4, expectedQuantity: 0 }),
        line(9007199254740993n, { delta: 3 }),
      ],
      caller,
    );
    expect(outcome).toEqual({
      kind: 'applied',
      rows: [
        { petId: '2', quantity: 0, status: 'sold' },
        { petId: '1', quantity: 9, status: 'available' },
        { petId: '2', quantity: 4, status: 'available' },
        { petId: '9007199254740993', quantity: 3, status: 'available' },
      ],
    });
    expect(await stock()).toEqual([
      { id: '1', quantity: 9, status: 'available' },
      { id: '2', quantity: 4, status: 'available' },
      { id: '9007199254740993', quantity: 3, status: 'available' },
    ]);
    const appended = await changes();
    expect(
      appended.map((c) => [c.previousQuantity, c.quantity, c.previousStatus, c.status, c.reason]),
    ).toEqual([
      [2, 0, 'pending', 'sold', 'damaged'],
      [5, 9, 'available', 'available', null],
      [0, 4, 'sold', 'available', null],
      [0, 3, 'sold', 'available', null],
    ]);
    expect(appended[1].reference).toBe('PO-1');
    for (const change of appended) {
      expect(change.keyId).toBe(7);
      expect(change.requestId).toBe('req-1');
      expect(change.source).toBe('api');
    }
    const ids = appended.map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    // Pet 2 is written once for its two changes; the counter still ends at the last change.
    expect(await t.app.get(InventoryRepository).version()).toBe(ids.at(-1));
  });

  it('should append nothing for a line that changes nothing', async () => {
    const outcome = await lines.applyLines([line(1n, { quantity: 5 })], caller);
    expect(outcome).toEqual({
      kind: 'applied',
      rows: [{ petId: '1', quantity: 5, status: 'available' }],
    });
    expect(await changes()).toEqual([]);
  });

  it('should refuse the whole call, naming every line at fault with its current state', async () => {
    const before = await stock();
    const rex = { petId: '1', quantity: 5, status: 'available' as const };
    const tom = { petId: '2', quantity: 2, status: 'pending' as const };
    const outcome = await lines.applyLines(
      [
        line(1n, { quantity: 1 }),
        line(4n, { quantity: 1 }),
        line(1n, { delta: 1, ifMatch: ['"stale"'] }),
        line(2n, { delta: 1, expectedQuantity: 3 }),
        line(2n, { delta: -3 }),
        line(2n, { delta: 2147483646 }),
        line(1n, { delta: 1, ifMatch: [itemEtag({ ...rex, quantity: 1 })] }),
      ],
      caller,
    );
    expect(outcome).toEqual({
      kind: 'refused',
      refusals: [
        { index: 1, code: 'not_found' },
        { index: 2, code: 'precondition_failed', current: { ...rex, quantity: 1 } },
        { index: 3, code: 'quantity_mismatch', current: tom },
        { index: 4, code: 'insufficient_stock', current: tom },
        { index: 5, code: 'quantity_out_of_range', current: tom },
      ],
    });
    expect(await stock()).toEqual(before);
    expect(await changes()).toEqual([]);
  });

  const kept = () =>
    dataSource
      .getRepository(IdempotencyKeyEntity)
      .find({ select: { idempotencyKey: true, body: true }, order: { idempotencyKey: 'ASC' } })
      .then((rows) => rows.map((row) => [row.idempotencyKey, row.body]));
  const record = (key: string, body: string) => ({
    keyId: 7,
    idempotencyKey: key,
    fingerprint: 'f',
    status: 200,
    etag: null,
    body,
    createdAt: new Date().toISOString(),
  });
  /** A record per call, the outcome its body; a call whose key is held is refused. */
  const records: GroupWork<{ key: string }> = {
    async run(manager, calls) {
      const errors: unknown[] = [];
      for (const { item, outcome } of calls) {
        const held = await manager.existsBy(IdempotencyKeyEntity, {
          keyId: 7,
          idempotencyKey: item.key,
        });
        if (!held) await manager.insert(IdempotencyKeyEntity, record(item.key, outcome.kind));
        errors.push(held ? new Error(`${item.key} is held`) : undefined);
      }
      return errors;
    },
    async revise(manager, calls) {
      for (const { item, outcome } of calls)
        await manager.update(
          IdempotencyKeyEntity,
          { keyId: 7, idempotencyKey: item.key },
          { body: `${outcome.kind} again` },
        );
    },
  };
  const remember = (key: string): InTransaction => ({ work: records, item: { key } });
  /** Work of one call of its own. */
  const alone = (
    work: (manager: EntityManager, outcome: StockLinesOutcome) => Promise<void>,
  ): InTransaction => ({
    work: {
      async run(manager, calls) {
        for (const { outcome } of calls) await work(manager, outcome);
        return calls.map(() => undefined);
      },
      revise: () => Promise.resolve(),
    },
    item: undefined,
  });

  it('should run the work given inside the transaction, for either outcome, before the lines are written, and undo all if it throws', async () => {
    const seen: string[] = [];
    await lines.applyLines(
      [line(1n, { delta: 1 })],
      caller,
      alone(async (manager, outcome) => {
        seen.push(outcome.kind);
        const pet = await manager
          .createQueryBuilder(PetEntity, 'pet')
          .select('pet.quantity', 'quantity')
          .where('pet.id = 1')
          .getRawOne<{ quantity: number }>();
        expect(Number(pet!.quantity)).toBe(5);
        await manager.insert(IdempotencyKeyEntity, record('x', outcome.kind));
      }),
    );
    await lines.applyLines(
      [line(1n, { delta: -100 })],
      caller,
      alone(async (_m, outcome) => void seen.push(outcome.kind)),
    );
    expect(seen).toEqual(['applied', 'refused']);
    expect(await kept()).toEqual([['x', 'applied']]);

    const failure = new Error('the record could not be kept');
    await expect(
      lines.applyLines(
        [line(1n, { delta: 1 }), line(2n, { quantity: 0 })],
        caller,
        alone(async (manager) => {
          await manager.insert(IdempotencyKeyEntity, record('y', 'applied'));
          throw failure;
        }),
      ),
    ).rejects.toBe(failure);
    expect((await stock()).map((row) => row.quantity)).toEqual([6, 2, 0]);
    expect(await changes()).toHaveLength(1);
    expect(await kept()).toEqual([['x', 'applied']]);
  });

  it('should commit the calls that arrive together in one transaction, those with work of their own too', async () => {
    const transaction = vi.spyOn(t.app.get(InventoryRepository), 'transaction');
    try {
      await Promise.all([
        lines.applyLines([line(1n, { delta: 1 })], caller),
        lines.applyLines([line(2n, { delta: 1 })], caller, remember('a')),
        lines.applyLines([line(1n, { delta: 1 })], caller, remember('b')),
      ]);
      expect(transaction).toHaveBeenCalledTimes(1);
    } finally {
      transaction.mockRestore();
    }
    expect((await stock()).map((row) => row.quantity)).toEqual([7, 3, 0]);
    expect(await kept()).toEqual([
      ['a', 'applied'],
      ['b', 'applied'],
    ]);
  });

  it('should split calls that arrive together once a group holds 5,000 lines', async () => {
    const transaction = vi.spyOn(t.app.get(InventoryRepository), 'transaction');
    try {
      const calls = Array.from({ length: 60 }, () =>
        lines.applyLines(
          Array.from({ length: 100 }, (_, i) => line(i % 2 === 0 ? 1n : 2n, { delta: 1 })),
          caller,
        ),
      );
      expect((await Promise.all(calls)).every((o) => o.kind === 'applied')).toBe(true);
      expect(transaction).toHaveBeenCalledTimes(2);
    } finally {
      transaction.mockRestore();
    }
    expect((await stock()).map((row) => row.quantity)).toEqual([5 + 3000, 2 + 3000, 0]);
    expect(await changes()).toHaveLength(6000);
  });

  it('should take out only the call whose work is refused in a group, and decide the calls after it again without it', async () => {
    const results = await Promise.allSettled([
      lines.applyLines([line(1n, { delta: 1 })], caller, remember('k')),
      lines.applyLines([line(2n, { delta: -1 })], caller),
      // The same key again, refused as a concurrent duplicate is. Without it, the last call's
      // expectedQuantity holds.
      lines.applyLines([line(1n, { delta: 10 }), line(2n, { quantity: 0 })], caller, remember('k')),
      lines.applyLines([line(1n, { delta: 1, expectedQuantity: 6 })], caller, remember('m')),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[3] as PromiseFulfilledResult<StockLinesOutcome>).value).toEqual({
      kind: 'applied',
      rows: [{ petId: '1', quantity: 7, status: 'available' }],
    });
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('k is held'));
    expect((await stock()).map((row) => row.quantity)).toEqual([7, 1, 0]);
    // The work was given the others' outcomes, decided again: m's now applies.
    expect(await kept()).toEqual([
      ['k', 'applied again'],
      ['m', 'applied again'],
    ]);
    const appended = await changes();
    expect(appended.map((c) => [c.previousQuantity, c.quantity])).toEqual([
      [5, 6],
      [2, 1],
      [6, 7],
    ]);
    expect(await t.app.get(InventoryRepository).version()).toBe(appended.at(-1)!.id);
  });

  /** A statement that fails for one call's sake: the history refuses the reference `poison`. */
  const poisonReferences = async () => {
    if (dataSource.options.type === 'postgres') {
      await dataSource.query(
        `ALTER TABLE inventory_changes ADD CONSTRAINT poison CHECK (reference IS DISTINCT FROM 'poison')`,
      );
      return () => dataSource.query(`ALTER TABLE inventory_changes DROP CONSTRAINT poison`);
    }
    await dataSource.query(
      `CREATE TRIGGER poison BEFORE INSERT ON inventory_changes WHEN NEW.reference = 'poison'
       BEGIN SELECT RAISE(ABORT, 'poisoned reference'); END`,
    );
    return () => dataSource.query(`DROP TRIGGER poison`);
  };

  it('should fail alone a call whose statement fails in a group, and commit the others together', async () => {
    const cure = await poisonReferences();
    const transaction = vi.spyOn(t.app.get(InventoryRepository), 'transaction');
    let results: PromiseSettledResult<StockLinesOutcome>[];
    try {
      results = await Promise.allSettled([
        lines.applyLines([line(1n, { delta: 1 })], caller, remember('a')),
        lines.applyLines([line(1n, { delta: 5, reference: 'poison' })], caller, remember('p')),
        lines.applyLines([line(2n, { delta: 1 })], caller),
        // Decided after the poisoned call is out: it meets 6, not 11.
        lines.applyLines([line(1n, { delta: 1, expectedQuantity: 6 })], caller, remember('b')),
        lines.applyLines([line(2n, { delta: 1, reference: 'poison' })], caller),
      ]);
      expect(transaction).toHaveBeenCalledTimes(1);
    } finally {
      transaction.mockRestore();
      await cure();
    }
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/poison/);
    expect((results[3] as PromiseFulfilledResult<StockLinesOutcome>).value).toEqual({
      kind: 'applied',
      rows: [{ petId: '1', quantity: 7, status: 'available' }],
    });
    expect((await stock()).map((row) => row.quantity)).toEqual([7, 3, 0]);
    expect(await kept()).toEqual([
      ['a', 'applied'],
      ['b', 'applied'],
    ]);
    const appended = await changes();
    expect(appended.map((c) => [c.previousQuantity, c.quantity, c.reference])).toEqual([
      [5, 6, null],
      [2, 3, null],
      [6, 7, null],
    ]);
    expect(appended.map((c) => c.id)).toEqual([1n, 2n, 3n].map((n) => appended[0].id + n - 1n));
    expect(await t.app.get(InventoryRepository).version()).toBe(appended.at(-1)!.id);
  });

  it('should lose no adjustment when many arrive at once, and keep each call on its own', async () => {
    const calls = Array.from({ length: 60 }, (_, i) =>
      lines.applyLines([line(1n, { delta: i % 3 === 0 ? -1 : 2 })], {
        keyId: null,
        requestId: `r${i}`,
      }),
    );
    // One call that cannot apply, among them: only it is refused.
    calls.push(lines.applyLines([line(2n, { delta: -3 })], caller));
    const outcomes = await Promise.all(calls);
    expect(outcomes.slice(0, 60).every((o) => o.kind === 'applied')).toBe(true);
    expect(outcomes[60].kind).toBe('refused');
    expect((await stock())[0].quantity).toBe(5 + 40 * 2 - 20);
    const appended = await changes();
    expect(appended).toHaveLength(60);
    // Each change starts where the one before it ended: none lost, none reordered.
    for (let i = 1; i < appended.length; i++)
      expect(appended[i].previousQuantity).toBe(appended[i - 1].quantity);
  });
});

describe('stock lines from two instances sharing one database', () => {
  let dir: string;
  let drop: (() => Promise<void>) | undefined;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // PostgreSQL under the integration suite, else a SQLite file both open.
    const database = await integrationDatabaseEnv();
    dir = mkdtempSync(join(tmpdir(), 'petstore-lines-'));
    drop = database?.drop;
    const env = database?.env ?? { DATABASE_URL: `sqlite:${join(dir, 'shared.sqlite')}` };
    a = await createTestApp(env);
    b = await createTestApp(env);
    await a.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 100 },
      { petId: 2n, name: 'Tom', status: 'available', quantity: 100 },
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should lose no adjustment and keep every change in commit order', async () => {
    const before = await a.app.get(DataSource).getRepository(InventoryChangeEntity).count();
    const calls = Array.from({ length: 40 }, (_, i) =>
      (i % 2 === 0 ? a : b).app
        .get(StockLinesService)
        .applyLines([line(1n, { delta: i % 4 === 0 ? -3 : 2 }), line(2n, { delta: 1 })], caller),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((outcome) => outcome.kind === 'applied')).toBe(true);
    const rows = (await a.app
      .get(DataSource)
      .query(`SELECT CAST(id AS TEXT) AS id, quantity FROM pets ORDER BY id`)) as {
      id: string;
      quantity: number;
    }[];
    expect(rows.map((row) => Number(row.quantity))).toEqual([100 + 10 * -3 + 30 * 2, 140]);
    const changes = await a.app
      .get(DataSource)
      .getRepository(InventoryChangeEntity)
      .find({ select: { id: true, previousQuantity: true, quantity: true }, order: { id: 'ASC' } });
    const ofPet1 = changes.slice(before).filter((_, i) => i % 2 === 0);
    expect(changes.length - before).toBe(80);
    for (let i = 1; i < ofPet1.length; i++)
      expect(ofPet1[i].previousQuantity).toBe(ofPet1[i - 1].quantity);
  });
});
