import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryResult } from 'typeorm';
import { NEXT_STATUS_SQL, type PetStatus } from './pet-status.js';

/** A stock row as SQL returns it; `petId` is int64 text, exact on every driver. */
export interface InventoryRow {
  petId: string;
  quantity: number;
  status: PetStatus;
}

export interface ImportRow {
  petId: bigint;
  quantity: number;
  status: PetStatus;
  name: string | null;
}

/*
 * Ids are selected as `CAST(id AS TEXT)`: better-sqlite3 returns INTEGER columns as JS numbers,
 * which would round ids above 2^53, and pg returns bigint as text anyway. This is the one place
 * int64 ids cross the database boundary.
 */
const ITEM_COLUMNS = `CAST(id AS TEXT) AS "petId", quantity, status`;

@Injectable()
export class InventoryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async listItems(): Promise<InventoryRow[]> {
    return this.query(`SELECT ${ITEM_COLUMNS} FROM pets ORDER BY id`, {});
  }

  /** Sets a quantity and applies the status rule in one atomic statement. */
  async setQuantity(petId: bigint, quantity: number): Promise<InventoryRow | undefined> {
    const rows = await this.query<InventoryRow>(
      `UPDATE pets SET quantity = :quantity, status = ${NEXT_STATUS_SQL}, updated_at = CURRENT_TIMESTAMP
       WHERE id = :petId RETURNING ${ITEM_COLUMNS}`,
      { quantity, petId: petId.toString() },
    );
    return rows[0];
  }

  async count(manager?: EntityManager): Promise<number> {
    const [row] = await this.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM pets`, {}, manager);
    return Number(row.n);
  }

  /** Upserts one batch inside the caller's transaction; returns how many ids were new. */
  async upsertBatch(manager: EntityManager, rows: ImportRow[]): Promise<number> {
    const ids = rows.map((row) => row.petId.toString());
    const existing = await this.query<{ id: string }>(
      `SELECT CAST(id AS TEXT) AS id FROM pets WHERE id IN (:...ids)`,
      { ids },
      manager,
    );
    const params: Record<string, unknown> = {};
    const values = rows.map((row, i) => {
      Object.assign(params, { [`id${i}`]: ids[i], [`n${i}`]: row.name, [`s${i}`]: row.status, [`q${i}`]: row.quantity });
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
    return this.dataSource.transaction(work);
  }

  private async query<T>(sql: string, params: Record<string, unknown>, manager?: EntityManager): Promise<T[]> {
    const [text, values] = this.dataSource.driver.escapeQueryWithParameters(sql, params);
    const runner = manager?.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      // A structured result has the rows as `records` on every driver (pg's UPDATE raw is [rows, count]).
      return ((await runner.query(text, values, true)) as QueryResult).records ?? [];
    } finally {
      if (runner !== manager?.queryRunner) await runner.release();
    }
  }
}
