import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { InventoryRow } from './inventory.repository.js';
import { type SqliteConstructor, type SqliteDatabase, type SqliteStatement, sqliteHandle } from './sqlite-handle.js';

/** The reads behind the cached inventory listing (InventoryService). */
export interface ListingReader {
  /** The committed write counter of `pets` (migration InventoryVersion): any change bumps it. */
  version(): Promise<bigint>;
  /**
   * Reads the listing as one consistent snapshot: the snapshot's version, then its rows in
   * `petId` order, `chunkRows` at a time, with the event loop free between chunks.
   */
  snapshot<T>(chunkRows: number, build: (version: bigint, chunks: AsyncIterable<InventoryRow[]>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/*
 * Ids are selected as `CAST(id AS TEXT)`: better-sqlite3 returns INTEGER columns as JS numbers,
 * which would round ids above 2^53, and pg returns bigint as text anyway.
 */
export const ITEM_COLUMNS = `CAST(id AS TEXT) AS "petId", quantity, status`;
const LIST_SQL = `SELECT ${ITEM_COLUMNS} FROM pets ORDER BY id`;
export const VERSION_SQL = `SELECT version FROM inventory_version WHERE id = 1`;

type Query = <T>(sql: string) => Promise<T[]>;

/** Picks the reader for the data source: its own connections on a SQLite file, plain queries elsewhere. */
export function createListingReader(dataSource: DataSource, query: Query): ListingReader {
  const sqlite = sqliteHandle(dataSource);
  if (sqlite?.file !== undefined) return new SqliteFileListingReader(sqlite.Database, sqlite.file, sqlite.busyTimeoutMs);
  return new QueryListingReader(dataSource.options.type === 'postgres', query);
}

/**
 * PostgreSQL, and SQLite in memory (one connection only, tests). The version is read before the
 * rows, in its own statement: the rows then hold at least that version's state, so a cache
 * tagged with it can only be rebuilt once too often, never served stale. pg parses a large
 * result as it arrives, so one SELECT does not hold the event loop; serialising it is chunked.
 */
class QueryListingReader implements ListingReader {
  private readonly versionSql: string;

  constructor(
    postgres: boolean,
    private readonly query: Query,
  ) {
    this.versionSql = postgres
      ? `SELECT CAST(SUM(version) AS TEXT) AS version FROM inventory_version`
      : `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE id = 1`;
  }

  async version(): Promise<bigint> {
    const [row] = await this.query<{ version: string | null }>(this.versionSql);
    return BigInt(row?.version ?? 0);
  }

  async snapshot<T>(chunkRows: number, build: (version: bigint, chunks: AsyncIterable<InventoryRow[]>) => Promise<T>): Promise<T> {
    const version = await this.version();
    const rows = await this.query<InventoryRow>(LIST_SQL);
    return build(version, chunked(rows, chunkRows));
  }

  async close(): Promise<void> {}
}

/**
 * A SQLite file, read through two read-only connections of its own beside TypeORM's single
 * one. That one may be inside an open transaction of this process (an import), whose
 * uncommitted changes must neither be listed nor counted. One connection answers the
 * per-request version check, each time from the latest commit; the other reads a listing as
 * one read transaction (version and rows from the same WAL snapshot), stepping through the
 * rows a chunk at a time so that 100,000 of them never hold the event loop. Listings are
 * read one at a time: a connection with an open cursor runs nothing else.
 */
class SqliteFileListingReader implements ListingReader {
  private versionStatement: SqliteStatement | undefined;
  private snapshotStatements: { begin: SqliteStatement; version: SqliteStatement; rows: SqliteStatement; commit: SqliteStatement } | undefined;
  private readonly connections: SqliteDatabase[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly Database: SqliteConstructor,
    private readonly path: string,
    private readonly timeout: number,
  ) {}

  private open(): SqliteDatabase {
    const db = new this.Database(this.path, { readonly: true, fileMustExist: true, timeout: this.timeout });
    this.connections.push(db);
    return db;
  }

  async version(): Promise<bigint> {
    this.versionStatement ??= this.open().prepare(VERSION_SQL).pluck();
    return BigInt(this.versionStatement.get() as number);
  }

  snapshot<T>(chunkRows: number, build: (version: bigint, chunks: AsyncIterable<InventoryRow[]>) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.readSnapshot(chunkRows, build));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async readSnapshot<T>(
    chunkRows: number,
    build: (version: bigint, chunks: AsyncIterable<InventoryRow[]>) => Promise<T>,
  ): Promise<T> {
    if (!this.snapshotStatements) {
      const db = this.open();
      this.snapshotStatements = {
        begin: db.prepare('BEGIN'),
        version: db.prepare(VERSION_SQL).pluck(),
        rows: db.prepare(LIST_SQL),
        commit: db.prepare('COMMIT'),
      };
    }
    const statements = this.snapshotStatements;
    statements.begin.run();
    let cursor: IterableIterator<InventoryRow> | undefined;
    try {
      // The first read fixes the transaction's snapshot; the rows come from the same one.
      const version = BigInt(statements.version.get() as number);
      cursor = statements.rows.iterate() as IterableIterator<InventoryRow>;
      return await build(version, chunked(cursor, chunkRows));
    } finally {
      cursor?.return?.();
      statements.commit.run();
    }
  }

  async close(): Promise<void> {
    await this.queue;
    for (const db of this.connections.splice(0)) db.close();
    this.versionStatement = this.snapshotStatements = undefined;
  }
}

/** Steps through a cursor a chunk at a time; returning early (or throwing) closes the cursor. */
async function* chunked<T>(rows: Iterable<T>, size: number): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
      await yieldToEventLoop();
    }
  }
  if (chunk.length > 0) yield chunk;
}
