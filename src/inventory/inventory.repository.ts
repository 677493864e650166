import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { existingIds, runSql, writeTransaction } from '../database/sql.js';
import {
  createListingReader,
  ITEM_COLUMNS,
  type ListingReader,
  VERSION_SQL,
} from './listing-reader.js';
import { NEXT_STATUS_SQL, type PetStatus } from './pet-status.js';
import { sqliteHandle } from './sqlite-handle.js';
import { SqliteQuantityWriter } from './sqlite-quantity-writer.js';

/** A stock row as SQL returns it; `petId` is int64 text, exact on every driver. */
export interface InventoryRow {
  petId: string;
  quantity: number;
  status: PetStatus;
}

export interface QuantityUpdate {
  /** The updated entry; undefined when no pet has the id. */
  row: InventoryRow | undefined;
  /**
   * The write counter this update produced, where it is known exactly (SQLite, outside a
   * transaction of this process). It lets the listing cache apply the row instead of re-reading.
   */
  version?: bigint;
}

const SET_QUANTITY_SQL = `UPDATE pets SET quantity = :quantity, status = ${NEXT_STATUS_SQL}, updated_at = CURRENT_TIMESTAMP
  WHERE id = :petId RETURNING ${ITEM_COLUMNS}`;

export interface ImportRow {
  petId: bigint;
  quantity: number;
  status: PetStatus;
  name: string | null;
}

@Injectable()
export class InventoryRepository implements OnModuleInit, OnModuleDestroy {
  private reader: ListingReader | undefined;
  private sqliteWriter: SqliteQuantityWriter | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Reads for the cached listing: a write counter and consistent snapshots (see ListingReader). */
  get listing(): ListingReader {
    this.reader ??= createListingReader(this.dataSource, (sql) => this.query(sql, {}));
    return this.reader;
  }

  onModuleInit(): void {
    this.sqliteWriter = this.createSqliteWriter();
  }

  async onModuleDestroy(): Promise<void> {
    await this.reader?.close();
  }

  /** Sets a quantity and applies the status rule in one atomic statement. */
  async setQuantity(petId: bigint, quantity: number): Promise<QuantityUpdate> {
    if (this.sqliteWriter) return this.sqliteWriter.setQuantity(petId, quantity);
    const rows = await this.query<InventoryRow>(SET_QUANTITY_SQL, {
      quantity,
      petId: petId.toString(),
    });
    return { row: rows[0] };
  }

  /**
   * On SQLite the updates run as a prepared statement on TypeORM's connection (better-sqlite3
   * is synchronous, so this is what TypeORM would do, without re-parsing the SQL per call),
   * committed together per turn of the event loop (SqliteQuantityWriter).
   */
  private createSqliteWriter(): SqliteQuantityWriter | undefined {
    const sqlite = sqliteHandle(this.dataSource);
    if (!sqlite) return undefined;
    const db = sqlite.connection;
    return new SqliteQuantityWriter(
      db,
      db.prepare(SET_QUANTITY_SQL),
      db.prepare(VERSION_SQL).pluck(),
    );
  }

  async count(manager?: EntityManager): Promise<number> {
    const [row] = await this.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM pets`,
      {},
      manager,
    );
    return Number(row.n);
  }

  /** Upserts one batch inside the caller's transaction; returns how many ids were new. */
  async upsertBatch(manager: EntityManager, rows: ImportRow[]): Promise<number> {
    const ids = rows.map((row) => row.petId.toString());
    const existing = await existingIds(this.dataSource, 'pets', ids, manager);
    const params: Record<string, unknown> = {};
    const values = rows.map((row, i) => {
      Object.assign(params, {
        [`id${i}`]: ids[i],
        [`n${i}`]: row.name,
        [`s${i}`]: row.status,
        [`q${i}`]: row.quantity,
      });
      return `(:id${i}, :n${i}, :s${i}, :q${i}, CURRENT_TIMESTAMP)`;
    });
    await this.query(
      `INSERT INTO pets (id, name, status, quantity, updated_at) VALUES ${values.join(', ')}
       ON CONFLICT (id) DO UPDATE SET name = COALESCE(excluded.name, pets.name), status = excluded.status,
         quantity = excluded.quantity, updated_at = excluded.updated_at`,
      params,
      manager,
    );
    return rows.length - existing.length;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return writeTransaction(this.dataSource, work);
  }

  private query<T>(
    sql: string,
    params: Record<string, unknown>,
    manager?: EntityManager,
  ): Promise<T[]> {
    return runSql<T>(this.dataSource, sql, params, manager);
  }
}
