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

export interface ListingChanges {
  version: bigint;
  rows: InventoryRow[];
}

export interface ListingReader {
  version(): Promise<bigint>;
  /** One consistent snapshot, serialised in chunks so the event loop is free between them. */
  snapshot<T>(build: BuildListing<T>): Promise<T>;
  /** Undefined when a changed pet is gone or the change log does not reach back to `since`. */
  changesSince(since: bigint, max: number): Promise<ListingChanges | undefined>;
  close(): Promise<void>;
}

// CAST(id AS TEXT): better-sqlite3 returns INTEGER as a JS number, which rounds ids above 2^53.
export const ITEM_COLUMNS = `CAST(id AS TEXT) AS "petId", quantity, status`;
export const VERSION_SQL = `SELECT version FROM inventory_version WHERE id = 1`;

// Byte for byte what inventoryItemsJson writes. Pages are taken by id, so a chunk holds the same
// pets as a slice of the table.
const CHUNK_SQL = `SELECT CAST(MIN(id) AS TEXT) AS "firstId", CAST(MAX(id) AS TEXT) AS "lastId",
    group_concat('{"petId":' || id || ',"quantity":' || quantity || ',"status":"' || status || '"}', ',' ORDER BY id) AS json
  FROM (SELECT id, quantity, status FROM pets WHERE id > :after ORDER BY id LIMIT ${LISTING_CHUNK_ROWS})`;
const BEFORE_ANY_ID = -(2n ** 63n);
// One history change per counter version, the version as its id: as many changes after `since`
// as versions means they name every pet that differs.
const LOGGED_SQL = `SELECT COUNT(*) AS entries, COUNT(DISTINCT pet_id) AS pets FROM inventory_changes WHERE id > :since`;
const CHANGED_SQL = `SELECT ${ITEM_COLUMNS} FROM pets WHERE id IN (SELECT pet_id FROM inventory_changes WHERE id > :since) ORDER BY id`;

type Query = <T>(sql: string, params?: Record<string, unknown>) => Promise<T[]>;
type InSnapshot = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

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

// PostgreSQL, and SQLite in memory. Version and rows come from one REPEATABLE READ snapshot: the
// version is the listing's X-Changes-Cursor, so it must name exactly the changes the rows show.
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

// A SQLite file: TypeORM's one connection may be inside an uncommitted import, so versions and
// listings are read on read-only connections of their own, a listing from one WAL snapshot.
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

  /** One read transaction that runs to its end without yielding, so nothing interleaves. */
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
