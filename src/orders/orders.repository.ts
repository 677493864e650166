import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { existingIds, runSql, writeTransaction } from '../database/sql.js';
import type { OrderStatus } from './order-status.js';

/** An order as SQL returns it: int64 ids and the ship date as text, exact on every driver. */
export interface OrderRow {
  id: string;
  petId: string;
  quantity: number;
  status: OrderStatus;
  shipDate: string | null;
  complete: boolean | number;
}

export interface OrderImportRow {
  id: bigint;
  petId: bigint;
  quantity: number;
  status: OrderStatus;
  shipDate: Date | null;
  complete: boolean;
}

/** A UTC timestamp as both dialects store it without a zone (TypeORM's own datetime form). */
function sqlTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

@Injectable()
export class OrdersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Sorted by the column: a bare `id` would name the text alias and sort 20 before 3. */
  listOrders(): Promise<OrderRow[]> {
    return this.query(
      `SELECT CAST(id AS TEXT) AS id, CAST(pet_id AS TEXT) AS "petId", quantity, status,
         CAST(ship_date AS TEXT) AS "shipDate", complete
       FROM orders ORDER BY orders.id`,
      {},
    );
  }

  async count(manager?: EntityManager): Promise<number> {
    const [row] = await this.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM orders`,
      {},
      manager,
    );
    return Number(row.n);
  }

  async existingPetIds(manager: EntityManager, ids: bigint[]): Promise<Set<bigint>> {
    const found = await existingIds(this.dataSource, 'pets', ids.map(String), manager);
    return new Set(found.map((id) => BigInt(id)));
  }

  async upsertBatch(manager: EntityManager, rows: OrderImportRow[]): Promise<number> {
    const ids = rows.map((row) => row.id.toString());
    const existing = await existingIds(this.dataSource, 'orders', ids, manager);
    const params: Record<string, unknown> = {};
    const values = rows.map((row, i) => {
      Object.assign(params, {
        [`id${i}`]: ids[i],
        [`p${i}`]: row.petId.toString(),
        [`q${i}`]: row.quantity,
        [`s${i}`]: row.status,
        [`d${i}`]: row.shipDate ? sqlTimestamp(row.shipDate) : null,
        // better-sqlite3 binds no booleans; PostgreSQL reads '1'/'0' as boolean input.
        [`c${i}`]: row.complete ? 1 : 0,
      });
      return `(:id${i}, :p${i}, :q${i}, :s${i}, :d${i}, :c${i})`;
    });
    await this.query(
      `INSERT INTO orders (id, pet_id, quantity, status, ship_date, complete) VALUES ${values.join(', ')}
       ON CONFLICT (id) DO UPDATE SET pet_id = excluded.pet_id, quantity = excluded.quantity,
         status = excluded.status, ship_date = excluded.ship_date, complete = excluded.complete`,
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
