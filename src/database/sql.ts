import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors.js';

type IsolationLevel = Parameters<DataSource['transaction']>[0] & string;

// SQLite: one shared connection, so transactions, and reads that must not see theirs, take turns.
const turns = new WeakMap<DataSource, Promise<unknown>>();

function isSqlite(dataSource: DataSource): boolean {
  return dataSource.options.type === 'better-sqlite3';
}

export function inTurn<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (!isSqlite(dataSource)) return work();
  const run = (turns.get(dataSource) ?? Promise.resolve()).then(work);
  turns.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}

// Write lock first: a deferred transaction that read first could fail at once with SQLITE_BUSY.
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

export function readSnapshot<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (!isSqlite(dataSource)) return transaction(dataSource, work, 'REPEATABLE READ');
  return inTurn(dataSource, () => transaction(dataSource, work));
}

// A connection left mid-transaction is closed: the pool would hand it on still inside it.
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
      if (closedWithoutRollback(dataSource, err)) unusable = true;
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

// A broken or mute connection would make ROLLBACK wait out its timeout; closed, the server rolls
// back. SQLite's one connection is never closed.
function closedWithoutRollback(dataSource: DataSource, err: unknown): boolean {
  return !isSqlite(dataSource) && isDatabaseUnavailable(err);
}

/**
 * A savepoint in a `transaction()`. Unlike a nested `EntityManager.transaction`, it sends no
 * ROLLBACK TO SAVEPOINT on a connection `transaction()` will close.
 */
export async function savepoint<T>(
  manager: EntityManager,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = manager.queryRunner;
  if (runner === undefined) throw new Error('A savepoint needs a transaction to be in');
  await runner.startTransaction();
  try {
    const result = await work(runner.manager);
    await runner.commitTransaction();
    return result;
  } catch (err) {
    if (!closedWithoutRollback(manager.dataSource, err)) await runner.rollbackTransaction();
    throw err;
  }
}

// pg-pool drops a client that has begun to end instead of reusing it.
async function closeConnection(runner: QueryRunner): Promise<void> {
  const client = (await runner.connect()) as { end?: () => Promise<void> };
  client.end?.().catch(() => undefined);
}

/** unnest on PostgreSQL: binding hundreds of parameters took longer than running the statement. */
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
