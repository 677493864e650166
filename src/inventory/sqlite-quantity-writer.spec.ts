import { createRequire } from 'node:module';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase, SqliteStatement } from './sqlite-handle.js';
import { SqliteQuantityWriter } from './sqlite-quantity-writer.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
) => SqliteDatabase & {
  exec(sql: string): void;
};

const SCHEMA = `
  CREATE TABLE pets (id INTEGER PRIMARY KEY, status TEXT NOT NULL, quantity INTEGER NOT NULL CHECK (quantity >= 0));
  CREATE TABLE inventory_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
  INSERT INTO inventory_version VALUES (1, 10);
  CREATE TRIGGER bump AFTER UPDATE ON pets BEGIN UPDATE inventory_version SET version = version + 1 WHERE id = 1; END;
  INSERT INTO pets VALUES (1, 'available', 5), (2, 'pending', 2), (3, 'available', 7);
`;
const UPDATE_SQL = `UPDATE pets SET quantity = :quantity WHERE id = :petId RETURNING CAST(id AS TEXT) AS "petId", quantity, status`;

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
        pluck: () => statement.pluck(),
      } as SqliteStatement;
    },
    close: () => db.close(),
  };
}

describe('SqliteQuantityWriter', () => {
  let db: SqliteDatabase & { exec(sql: string): void };
  let log: string[];
  let failCommit: { next: boolean };
  let writer: SqliteQuantityWriter;

  const quantities = () => db.prepare('SELECT quantity FROM pets ORDER BY id').pluck().all();

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(SCHEMA);
    log = [];
    failCommit = { next: false };
    const connection = recorded(db, log, failCommit);
    writer = new SqliteQuantityWriter(
      connection,
      connection.prepare(UPDATE_SQL),
      db.prepare('SELECT version FROM inventory_version WHERE id = 1').pluck(),
    );
  });

  it('should commit the updates of one turn of the event loop in one transaction, each with the version it produced', async () => {
    const updates = await Promise.all([
      writer.setQuantity(1n, 0),
      writer.setQuantity(9n, 4),
      writer.setQuantity(3n, 1),
    ]);
    expect(log).toEqual(['BEGIN', 'UPDATE', 'UPDATE', 'UPDATE', 'COMMIT']);
    expect(updates).toEqual([
      { row: { petId: '1', quantity: 0, status: 'available' }, version: 11n },
      { row: undefined, version: undefined },
      { row: { petId: '3', quantity: 1, status: 'available' }, version: 12n },
    ]);

    log.length = 0;
    await writer.setQuantity(2n, 8);
    expect(log).toEqual(['BEGIN', 'UPDATE', 'COMMIT']);
    expect(quantities()).toEqual([0, 8, 1]);
  });

  it('should refuse only the update whose statement failed, and commit the others', async () => {
    const [first, bad, last] = await Promise.allSettled([
      writer.setQuantity(1n, 3),
      writer.setQuantity(2n, -1),
      writer.setQuantity(3n, 4),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_CONSTRAINT_CHECK' } });
    expect(first).toMatchObject({ status: 'fulfilled', value: { version: 11n } });
    expect(last).toMatchObject({ status: 'fulfilled', value: { version: 12n } });
    expect(quantities()).toEqual([3, 2, 4]);
  });

  it('should refuse every update of a transaction that failed to commit, and keep none of them', async () => {
    failCommit.next = true;
    const results = await Promise.allSettled([
      writer.setQuantity(1n, 3),
      writer.setQuantity(2n, 9),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(db.inTransaction).toBe(false);
    expect(quantities()).toEqual([5, 2, 7]);
    await expect(writer.setQuantity(1n, 6)).resolves.toMatchObject({ version: 11n });
  });

  it('should leave updates to a transaction of this process already open, with no version', async () => {
    db.exec('BEGIN');
    const update = await writer.setQuantity(1n, 0);
    expect(update).toEqual({ row: { petId: '1', quantity: 0, status: 'available' } });
    expect(log).toEqual(['UPDATE']);
    db.exec('ROLLBACK');
    expect(quantities()).toEqual([5, 2, 7]);
  });
});
