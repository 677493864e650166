import { createRequire } from 'node:module';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase, SqliteStatement } from '../sqlite-handle.js';
import { SqliteStockWriter } from './sqlite-stock-writer.js';
import type { StockWrite } from './stock-write.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
) => SqliteDatabase & {
  exec(sql: string): void;
};

const SCHEMA = `
  CREATE TABLE pets (id INTEGER PRIMARY KEY, status TEXT NOT NULL, quantity INTEGER NOT NULL CHECK (quantity >= 0), updated_at TEXT);
  CREATE TABLE inventory_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
  INSERT INTO inventory_version VALUES (1, 10);
  CREATE TRIGGER bump AFTER UPDATE ON pets BEGIN UPDATE inventory_version SET version = version + 1 WHERE id = 1; END;
  CREATE TABLE inventory_changes (id INTEGER PRIMARY KEY, pet_id INTEGER NOT NULL, previous_quantity INTEGER, quantity INTEGER NOT NULL,
    previous_status TEXT, status TEXT NOT NULL, reason TEXT, reference TEXT, source TEXT NOT NULL, key_id INTEGER, request_id TEXT, changed_at TEXT NOT NULL);
  INSERT INTO pets (id, status, quantity) VALUES (1, 'available', 5), (2, 'pending', 2), (3, 'available', 7);
`;

const write = (petId: bigint, quantity: number): StockWrite => ({
  petId,
  quantity,
  reason: null,
  reference: null,
  caller: { keyId: 7, requestId: 'r' },
});

/** The connection, with every statement it runs written down and COMMIT made to fail on demand. */
function recorded(
  db: SqliteDatabase,
  log: string[],
  failCommit: { next: boolean },
): SqliteDatabase {
  return {
    get inTransaction() {
      return db.inTransaction;
    },
    prepare(sql: string): SqliteStatement {
      const statement = db.prepare(sql);
      const name = sql.split(' ')[0];
      const wrap =
        (method: 'get' | 'run') =>
        (...params: unknown[]) => {
          log.push(name);
          if (name === 'COMMIT' && failCommit.next) {
            failCommit.next = false;
            throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
          }
          return statement[method](...params);
        };
      return {
        ...statement,
        get: wrap('get'),
        run: wrap('run'),
        pluck() {
          statement.pluck();
          return this;
        },
      } as SqliteStatement;
    },
    close: () => db.close(),
  };
}

describe('SqliteStockWriter', () => {
  let db: SqliteDatabase & { exec(sql: string): void };
  let log: string[];
  let failCommit: { next: boolean };
  let writer: SqliteStockWriter;

  const quantities = () => db.prepare('SELECT quantity FROM pets ORDER BY id').pluck().all();
  const changes = () =>
    db
      .prepare(
        'SELECT id, pet_id AS petId, previous_quantity AS q0, quantity AS q FROM inventory_changes ORDER BY id',
      )
      .all() as { id: number }[];

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(SCHEMA);
    log = [];
    failCommit = { next: false };
    const connection = recorded(db, log, failCommit);
    writer = new SqliteStockWriter(connection);
  });

  it('should commit the updates of one turn of the event loop in one transaction, each with its record and version', async () => {
    const updates = await Promise.all([
      writer.write(write(1n, 0)),
      writer.write(write(9n, 4)),
      writer.write(write(3n, 1)),
    ]);
    expect(log.filter((name) => name !== 'SELECT')).toEqual([
      'BEGIN',
      'UPDATE',
      'INSERT',
      'UPDATE',
      'INSERT',
      'COMMIT',
    ]);
    expect(updates).toEqual([
      { kind: 'written', row: { petId: '1', quantity: 0, status: 'sold' }, version: 11n },
      { kind: 'not_found' },
      { kind: 'written', row: { petId: '3', quantity: 1, status: 'available' }, version: 12n },
    ]);
    expect(changes()).toEqual([
      { id: 11, petId: 1, q0: 5, q: 0 },
      { id: 12, petId: 3, q0: 7, q: 1 },
    ]);
  });

  it('should write and record nothing for an update that changes nothing', async () => {
    expect(await writer.write(write(2n, 2))).toEqual({
      kind: 'written',
      row: { petId: '2', quantity: 2, status: 'pending' },
    });
    expect(log).not.toContain('UPDATE');
    expect(changes()).toEqual([]);
  });

  it('should refuse only the update whose statement failed, and commit the others', async () => {
    const [first, bad, last] = await Promise.allSettled([
      writer.write(write(1n, 3)),
      writer.write(write(2n, -1)),
      writer.write(write(3n, 4)),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_CONSTRAINT_CHECK' } });
    expect(first).toMatchObject({ status: 'fulfilled', value: { version: 11n } });
    expect(last).toMatchObject({ status: 'fulfilled', value: { version: 12n } });
    expect(quantities()).toEqual([3, 2, 4]);
    expect(changes().map((change) => change.id)).toEqual([11, 12]);
  });

  it('should refuse every update of a transaction that failed to commit, and keep none of them nor their records', async () => {
    failCommit.next = true;
    const results = await Promise.allSettled([
      writer.write(write(1n, 3)),
      writer.write(write(2n, 9)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(db.inTransaction).toBe(false);
    expect(quantities()).toEqual([5, 2, 7]);
    expect(changes()).toEqual([]);
    await expect(writer.write(write(1n, 6))).resolves.toMatchObject({ version: 11n });
  });

  it('should refuse the whole batch, and keep no update, when a change cannot be numbered', async () => {
    db.exec('DELETE FROM inventory_version');
    const results = await Promise.allSettled([
      writer.write(write(1n, 3)),
      writer.write(write(3n, 4)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(db.inTransaction).toBe(false);
    expect(quantities()).toEqual([5, 2, 7]);
    expect(changes()).toEqual([]);
  });

  it('should leave updates to a transaction of this process already open, with no version', async () => {
    db.exec('BEGIN');
    const update = await writer.write(write(1n, 0));
    expect(update).toEqual({ kind: 'written', row: { petId: '1', quantity: 0, status: 'sold' } });
    db.exec('ROLLBACK');
    expect(quantities()).toEqual([5, 2, 7]);
    expect(changes()).toEqual([]);
  });
});
