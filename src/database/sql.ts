import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors.js';

type IsolationLevel = Parameters<DataSource['transaction']>[0] & string;

// SQLite: TypeORM shares one connection, so the transactions of this process take turns, and
// reads that must not see another's uncommitted rows (the listing, the feed) wait their turn too.
const turns = new WeakMap<DataSource, Promise<unknown>>();

function isSqlite(dataSource: DataSource): boolean {
  return dataSource.options.type === 'better-sqlite3';
}

/** Runs `work` alone among this process's SQLite transactions; at once on PostgreSQL. */
export function inTurn<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (!isSqlite(dataSource)) return work();
  const run = (turns.get(dataSource) ?? Promise.resolve()).then(work);
  turns.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * A write transaction. On SQLite its first statement takes the write lock (waiting up to the busy
 * timeout): a deferred transaction that read first would fail at once with SQLITE_BUSY when another
 * process committed in between. TypeORM's own transaction calls nest inside it (a savepoint).
 */
export function writeTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (!isSqlite(dataSource)) return transaction(dataSource, work);
  return inTurn(dataSource, () =>
    transaction(dataSource, async (manager) => {
      await manager.query(SQLITE_WRITE_LOCK);
      return work(manager);
    }),
  );
}

const SQLITE_WRITE_LOCK = `UPDATE inventory_version SET version = version WHERE id = 1`;

/** One consistent snapshot: REPEATABLE READ on PostgreSQL, one read transaction on SQLite. */
export function readSnapshot<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (!isSqlite(dataSource)) return transaction(dataSource, work, 'REPEATABLE READ');
  return inTurn(dataSource, () => transaction(dataSource, work));
}

/**
 * DataSource.transaction, except that a connection whose transaction could not be ended (its
 * ROLLBACK failed or timed out, say while the server froze), or that failed as unavailable, is
 * closed, not returned to the pool: the pool would hand it to the next request still inside the
 * old transaction.
 */
export async function transaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  isolation?: IsolationLevel,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  let unusable = false;
  try {
    await runner.startTransaction(isolation);
    const result = await work(runner.manager);
    await runner.commitTransaction();
    return result;
  } catch (err) {
    if (runner.isTransactionActive && !runner.isReleased) {
      // A PostgreSQL connection that timed out or broke would make ROLLBACK wait out its own
      // timeout too; closed instead, the server rolls the transaction back itself.
      if (!isSqlite(dataSource) && isDatabaseUnavailable(err)) unusable = true;
      else {
        try {
          await runner.rollbackTransaction();
        } catch {
          unusable = true;
        }
      }
    }
    throw err;
  } finally {
    if (unusable) await closeConnection(runner);
    await runner.release();
  }
}

// QueryRunner.connect() hands out the driver's connection (a pg Client); a client that has begun
// to end is dropped by the pool when released (pg-pool), instead of being reused.
async function closeConnection(runner: QueryRunner): Promise<void> {
  const client = (await runner.connect()) as { end?: () => Promise<void> };
  client.end?.().catch(() => undefined);
}

/**
 * Rows to write, as a query of columns of these SQL types: a `VALUES` list on SQLite, `unnest`
 * of one array per column on PostgreSQL, whose parse and bind of a few hundred parameters took
 * longer than running the statement, where a dozen arrays cost next to nothing. (TypeORM's query
 * builder spends longer still composing such a statement.) `castOnSqlite` types the values there
 * too.
 */
export function rowsQuery(
  postgres: boolean,
  rows: readonly (readonly unknown[])[],
  types: readonly string[],
  castOnSqlite = false,
): { sql: string; params: unknown[] } {
  if (postgres)
    return {
      sql: `SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`,
      params: types.map((_, i) => rows.map((row) => row[i])),
    };
  const tuple = `(${types.map((type) => (castOnSqlite ? `CAST(? AS ${type})` : '?')).join(', ')})`;
  // Not rows.flat(): V8's generic flat is slow on a batch's thousand values, on every write.
  const params: unknown[] = [];
  for (const row of rows) params.push(...row);
  return { sql: `VALUES ${rows.map(() => tuple).join(', ')}`, params };
}
