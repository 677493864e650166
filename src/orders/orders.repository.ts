import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { writeTransaction } from '../database/sql.js';
import { PetEntity } from '../inventory/pet.entity.js';
import { OrderEntity } from './order.entity.js';
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

  /** Ids and the ship date as text: exact on every driver, and the date without a zone shift. */
  listOrders(): Promise<OrderRow[]> {
    return this.dataSource.manager
      .createQueryBuilder(OrderEntity, 'o')
      .select('CAST(o.id AS TEXT)', 'id')
      .addSelect('CAST(o.pet_id AS TEXT)', 'petId')
      .addSelect('o.quantity', 'quantity')
      .addSelect('o.status', 'status')
      .addSelect('CAST(o.ship_date AS TEXT)', 'shipDate')
      .addSelect('o.complete', 'complete')
      .orderBy('o.id')
      .getRawMany<OrderRow>();
  }

  count(manager = this.dataSource.manager): Promise<number> {
    return manager.count(OrderEntity);
  }

  async existingPetIds(manager: EntityManager, ids: bigint[]): Promise<Set<bigint>> {
    const found = await this.existing(manager, PetEntity, ids);
    return new Set(found.map((id) => BigInt(id)));
  }

  private async existing(
    manager: EntityManager,
    entity: typeof PetEntity | typeof OrderEntity,
    ids: bigint[],
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await manager
      .createQueryBuilder(entity, 'e')
      .select('CAST(e.id AS TEXT)', 'id')
      .where('e.id IN (:...ids)', { ids: ids.map(String) })
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  async upsertBatch(manager: EntityManager, rows: OrderImportRow[]): Promise<number> {
    const existing = await this.existing(
      manager,
      OrderEntity,
      rows.map((row) => row.id),
    );
    // Not read back (updateEntity): the ids would come back as rounded numbers on SQLite.
    await manager
      .createQueryBuilder()
      .insert()
      .into(OrderEntity)
      .values(
        rows.map((row) => ({
          id: row.id,
          petId: row.petId,
          quantity: row.quantity,
          status: row.status,
          // As text without a zone: pg would write a Date in the server's local time.
          shipDate: row.shipDate ? () => `'${sqlTimestamp(row.shipDate!)}'` : null,
          complete: row.complete,
        })),
      )
      .orUpdate(['pet_id', 'quantity', 'status', 'ship_date', 'complete'], ['id'])
      .updateEntity(false)
      .execute();
    return rows.length - existing.length;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return writeTransaction(this.dataSource, work);
  }
}
