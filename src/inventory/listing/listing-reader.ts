import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { runSql, transaction } from '../../database/sql.js';
import { LISTING_CHUNK_ROWS, type SerialisedChunk, serialiseChunk } from './inventory-listing.js';
import type { InventoryRow } from '../inventory-row.js';
import {
  type SqliteConstructor,
  type SqliteDatabase,
  type SqliteStatement,
  sqliteHandle,
} from '../sqlite-handle.js';

export type BuildListing<T> = (
  version: bigint,
  chunks: AsyncIterable<SerialisedChunk>,
) => Promise<T>;

/** The pets changed after a version, each in its state at `version`, in `petId` order. */
export interface ListingChanges {
  version: bigint;
  rows: InventoryRow[];
}

/** The reads behind the cached inventory listing (ListingCache). */
export interface ListingReader {
  /** The committed write counter of `pets` (migration InventoryVersion): any change bumps it. */
  version(): Promise<bigint>;
  /**
   * Reads the listing as one consistent snapshot: the snapshot's version, then its items in
   * `petId` order, serialised LISTING_CHUNK_ROWS at a time, the event loop free between chunks.
   */
  snapshot<T>(build: BuildListing<T>): Promise<T>;
  /**
   * The pets changed after `since`, from one consistent snapshot, when they can be told and
   * are at most `max` writes: undefined when a changed pet is gone (deleted, or its id
   * changed), when the change log no longer reaches back to `since`, or when there is no log.
   */
  changesSince(since: bigint, max: number): Promise<ListingChanges | undefined>;
  close(): Promise<void>;
}

/*
 * Ids are selected as `CAST(id AS TEXT)`: better-sqlite3 returns INTEGER columns as JS numbers,
 * which would round ids above 2^53, and pg returns bigint as text anyway.
 */
export const ITEM_COLUMNS = `CAST(id AS TEXT) AS "petId", quantity, status`;
export const VERSION_SQL = `SELECT version FROM inventory_version WHERE id = 1`;

/**
 * One chunk of the listing, serialised by SQLite itself, byte for byte what
 * inventoryItemsJson writes (integers print exactly; status is one of three words): for
 * 100,000 pets less than half the time of building the rows as objects and the JSON in
 * JavaScript. Pages are taken by id, so a chunk holds the same pets as a slice of the table.
 */
const CHUNK_SQL = `SELECT CAST(MIN(id) AS TEXT) AS "firstId", CAST(MAX(id) AS TEXT) AS "lastId",
    group_concat('{"petId":' || id || ',"quantity":' || quantity || ',"status":"' || status || '"}', ',' ORDER BY id) AS json
  FROM (SELECT id, quantity, status FROM pets WHERE id > :after ORDER BY id LIMIT ${LISTING_CHUNK_ROWS})`;
const BEFORE_ANY_ID = -(2n ** 63n);
/*
 * The stock history (migration InventoryHistory) holds one change per version of the counter,
 * with the version as its id: as many changes after `since` as versions means it names every
 * pet that differs.
 */
const LOGGED_SQL = `SELECT COUNT(*) AS entries, COUNT(DISTINCT pet_id) AS pets FROM inventory_changes WHERE id > :since`;
const CHANGED_SQL = `SELECT ${ITEM_COLUMNS} FROM pets WHERE id IN (SELECT pet_id FROM inventory_changes WHERE id > :since) ORDER BY id`;

type Query = <T>(sql: string, params?: Record<string, unknown>) => Promise<T[]>;
/** Runs `work` with queries that all read one snapshot. */
type InSnapshot = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

/** Picks the reader for the data source: its own connections on a SQLite file, plain queries elsewhere. */
export function createListingReader(dataSource: DataSource, query: Query): ListingReader {
  const sqlite = sqliteHandle(dataSource);
  if (sqlite?.file !== undefined)
    return new SqliteFileListingReader(sqlite.Database, sqlite.file, sqlite.busyTimeoutMs);
  const postgres = dataSource.options.type === 'postgres';
  const inSnapshot: InSnapshot = postgres
    ? (work) =>
        transaction(
          dataSource,
          (manager) => work((sql, params = {}) => runSql(dataSource, sql, params, manager)),
          'REPEATABLE READ',
        )
    : (work) => work(query);
  return new QueryListingReader(postgres, query, inSnapshot);
}

/**
 * PostgreSQL, and SQLite in memory (one connection only, tests). A listing's version and rows
 * come from one snapshot (REPEATABLE READ): the version is also the listing's place in the
 * change feed (X-Changes-Cursor), so it must name exactly the changes the rows show. pg parses
 * a large result as it arrives, so one SELECT does not hold the event loop; serialising it is
 * chunked.
 */
class QueryListingReader implements ListingReader {
  private readonly versionSql: string;

  constructor(
    postgres: boolean,
    private readonly query: Query,
    private readonly inSnapshot: InSnapshot,
  ) {
    this.versionSql = postgres
      ? `SELECT CAST(SUM(version) AS TEXT) AS version FROM inventory_version`
      : `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE id = 1`;
  }

  async version(query = this.query): Promise<bigint> {
    const [row] = await query<{ version: string | null }>(this.versionSql);
    return BigInt(row?.version ?? 0);
  }

  async snapshot<T>(build: BuildListing<T>): Promise<T> {
    const { version, rows } = await this.inSnapshot(async (query) => ({
      version: await this.version(query),
      rows: await query<InventoryRow>(`SELECT ${ITEM_COLUMNS} FROM pets ORDER BY id`),
    }));
    return build(version, serialisedChunks(rows));
  }

  changesSince(since: bigint, max: number): Promise<ListingChanges | undefined> {
    return this.inSnapshot(async (query) => {
      const version = await this.version(query);
      const ahead = version - since;
      if (ahead < 0n || ahead > BigInt(max)) return undefined;
      const params = { since: since.toString() };
      const [logged] = await query<{ entries: number | string; pets: number | string }>(
        LOGGED_SQL,
        params,
      );
      if (BigInt(logged.entries) !== ahead) return undefined;
      const rows = await query<InventoryRow>(CHANGED_SQL, params);
      return rows.length === Number(logged.pets) ? { version, rows } : undefined;
    });
  }

  async close(): Promise<void> {}
}

async function* serialisedChunks(rows: InventoryRow[]): AsyncGenerator<SerialisedChunk> {
  for (let start = 0; start < rows.length; start += LISTING_CHUNK_ROWS) {
    if (start > 0) await yieldToEventLoop();
    yield serialiseChunk(rows.slice(start, start + LISTING_CHUNK_ROWS));
  }
}

/**
 * A SQLite file, read through two read-only connections of its own beside TypeORM's single
 * one. That one may be inside an open transaction of this process (an import), whose
 * uncommitted changes must neither be listed nor counted. One connection answers the
 * per-request version check, each time from the latest commit; the other reads a listing in
 * one read transaction (version and every chunk from the same WAL snapshot), a chunk per
 * statement, so that 100,000 pets never hold the event loop. Listings are read one at a time.
 */
class SqliteFileListingReader implements ListingReader {
  private versionStatements:
    | {
        version: SqliteStatement;
        begin: SqliteStatement;
        logged: SqliteStatement;
        changed: SqliteStatement;
        commit: SqliteStatement;
      }
    | undefined;
  private snapshotStatements:
    | {
        begin: SqliteStatement;
        version: SqliteStatement;
        chunk: SqliteStatement;
        commit: SqliteStatement;
      }
    | undefined;
  private readonly connections: SqliteDatabase[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly Database: SqliteConstructor,
    private readonly path: string,
    private readonly timeout: number,
  ) {}

  private open(): SqliteDatabase {
    const db = new this.Database(this.path, {
      readonly: true,
      fileMustExist: true,
      timeout: this.timeout,
    });
    this.connections.push(db);
    return db;
  }

  private get statements() {
    if (!this.versionStatements) {
      const db = this.open();
      this.versionStatements = {
        version: db.prepare(VERSION_SQL).pluck(),
        begin: db.prepare('BEGIN'),
        logged: db.prepare(LOGGED_SQL),
        changed: db.prepare(CHANGED_SQL),
        commit: db.prepare('COMMIT'),
      };
    }
    return this.versionStatements;
  }

  async version(): Promise<bigint> {
    return BigInt(this.statements.version.get() as number);
  }

  /**
   * On the version connection, in one read transaction that nothing can interleave with: it
   * runs to its end without yielding. The log holds one entry per version, so as many entries
   * after `since` as versions means it reaches back that far.
   */
  async changesSince(since: bigint, max: number): Promise<ListingChanges | undefined> {
    const statements = this.statements;
    statements.begin.run();
    try {
      const version = BigInt(statements.version.get() as number);
      const ahead = version - since;
      if (ahead < 0n || ahead > BigInt(max)) return undefined;
      const logged = statements.logged.get({ since }) as { entries: number; pets: number };
      if (BigInt(logged.entries) !== ahead) return undefined;
      const rows = statements.changed.all({ since }) as InventoryRow[];
      return rows.length === logged.pets ? { version, rows } : undefined;
    } finally {
      statements.commit.run();
    }
  }

  snapshot<T>(build: BuildListing<T>): Promise<T> {
    const run = this.queue.then(() => this.readSnapshot(build));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async readSnapshot<T>(build: BuildListing<T>): Promise<T> {
    if (!this.snapshotStatements) {
      const db = this.open();
      this.snapshotStatements = {
        begin: db.prepare('BEGIN'),
        version: db.prepare(VERSION_SQL).pluck(),
        chunk: db.prepare(CHUNK_SQL),
        commit: db.prepare('COMMIT'),
      };
    }
    const statements = this.snapshotStatements;
    statements.begin.run();
    try {
      // The first read fixes the transaction's snapshot; every chunk comes from the same one.
      const version = BigInt(statements.version.get() as number);
      return await build(version, this.chunks(statements.chunk));
    } finally {
      statements.commit.run();
    }
  }

  private async *chunks(statement: SqliteStatement): AsyncGenerator<SerialisedChunk> {
    for (let after = BEFORE_ANY_ID; ;) {
      const chunk = statement.get({ after }) as {
        firstId: string | null;
        lastId: string;
        json: string;
      };
      if (chunk.firstId === null) return;
      yield { firstId: chunk.firstId, lastId: chunk.lastId, json: chunk.json };
      after = BigInt(chunk.lastId);
      await yieldToEventLoop();
    }
  }

  async close(): Promise<void> {
    await this.queue;
    for (const db of this.connections.splice(0)) db.close();
    this.versionStatements = this.snapshotStatements = undefined;
  }
}
