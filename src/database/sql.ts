import type { DataSource, EntityManager, QueryResult } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel.js';

// Int64 ids are read through here as `CAST(id AS TEXT)`: better-sqlite3 would round them to JS
// numbers.
export async function runSql<T>(
  dataSource: DataSource,
  sql: string,
  params: Record<string, unknown>,
  manager?: EntityManager,
): Promise<T[]> {
  const [text, values] = dataSource.driver.escapeQueryWithParameters(sql, params);
  const runner = manager?.queryRunner ?? dataSource.createQueryRunner();
  try {
    // A structured result has the rows as `records` on every driver (pg's UPDATE raw is [rows, count]).
    return ((await runner.query(text, values, true)) as QueryResult).records ?? [];
  } finally {
    if (runner !== manager?.queryRunner) await runner.release();
  }
}

export async function existingIds(
  dataSource: DataSource,
  table: 'pets' | 'orders',
  ids: string[],
  manager?: EntityManager,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await runSql<{ id: string }>(
    dataSource,
    `SELECT CAST(id AS TEXT) AS id FROM ${table} WHERE id IN (:...ids)`,
    { ids },
    manager,
  );
  return rows.map((row) => row.id);
}

// BEGIN IMMEDIATE on SQLite: a deferred transaction that reads then writes fails at once with
// SQLITE_BUSY when another process committed in between (its WAL snapshot is stale).
export async function writeTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (dataSource.options.type !== 'better-sqlite3') return transaction(dataSource, work);
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('BEGIN IMMEDIATE');
    try {
      const result = await work(runner.manager);
      await runner.query('COMMIT');
      return result;
    } catch (err) {
      await runner.query('ROLLBACK');
      throw err;
    }
  } finally {
    await runner.release();
  }
}

/**
 * DataSource.transaction, except that a connection whose transaction could not be ended (its
 * ROLLBACK failed or timed out, say while the server froze) is closed, not returned to the pool:
 * TypeORM would hand it to the next request still inside the old transaction.
 */
export async function transaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  isolation?: IsolationLevel,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  let unusable: unknown;
  try {
    await runner.startTransaction(isolation);
    const result = await work(runner.manager);
    await runner.commitTransaction();
    return result;
  } catch (err) {
    if (runner.isTransactionActive && !runner.isReleased) {
      try {
        await runner.rollbackTransaction();
      } catch (rollbackError) {
        unusable = rollbackError;
      }
    }
    throw err;
  } finally {
    const discard = (runner as { releasePostgresConnection?: (err: unknown) => Promise<void> })
      .releasePostgresConnection;
    if (unusable !== undefined && discard) await discard.call(runner, unusable);
    else await runner.release();
  }
}
