import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { writeTransaction } from '../../database/sql.js';
import { InventoryRepository } from '../writes/inventory.repository.js';
import type { ChangeRow } from './change-record.js';
import { InventoryChangeEntity } from './inventory-change.entity.js';

const PRUNED = 'inventory_changes_pruned';

export interface ChangePage {
  through: bigint;
  changes: ChangeRow[];
}

@Injectable()
export class InventoryHistoryRepository {
  private readonly postgres: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly inventory: InventoryRepository,
  ) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  // Bound as numbers on SQLite, where text would not use the primary key; pg takes int64 text.
  private int64(value: bigint): bigint | string {
    return this.postgres ? value.toString() : value;
  }

  private async through(manager: EntityManager): Promise<bigint> {
    const row = await manager
      .createQueryBuilder()
      .select('CAST(pruned.through AS TEXT)', 'through')
      .from(PRUNED, 'pruned')
      .where('pruned.id = 1')
      .getRawOne<{ through: string }>();
    return BigInt(row?.through ?? 0);
  }

  /** Committed changes only, and the pruning horizon from the same snapshot. */
  page(after: bigint | undefined, limit: number, petId?: bigint): Promise<ChangePage> {
    return this.inventory.read(async (manager) => {
      // Ids and pet ids as text: better-sqlite3 would round them as numbers.
      let query = manager
        .createQueryBuilder(InventoryChangeEntity, 'c')
        .select('CAST(c.id AS TEXT)', 'id')
        .addSelect('CAST(c.pet_id AS TEXT)', 'petId')
        .addSelect('c.previous_quantity', 'previousQuantity')
        .addSelect('c.quantity', 'quantity')
        .addSelect('c.previous_status', 'previousStatus')
        .addSelect('c.status', 'status')
        .addSelect('c.reason', 'reason')
        .addSelect('c.reference', 'reference')
        .addSelect('c.source', 'source')
        .addSelect('c.key_id', 'keyId')
        .addSelect('c.request_id', 'requestId')
        .addSelect('c.changed_at', 'changedAt')
        .where('c.id > :after', { after: this.int64(after ?? -1n) });
      if (petId !== undefined)
        query = query.andWhere('c.pet_id = :petId', { petId: this.int64(petId) });
      const changes = await query.orderBy('c.id').limit(limit).getRawMany<ChangeRow>();
      return { through: await this.through(manager), changes };
    });
  }

  async petExists(petId: bigint): Promise<boolean> {
    return (await this.inventory.find(petId)) !== undefined;
  }

  // Only a run of the oldest goes, so every id up to the horizon is gone and none after it.
  async pruneBatch(cutoff: Date, batch: number): Promise<number> {
    return writeTransaction(this.dataSource, async (manager) => {
      const oldest = await manager
        .createQueryBuilder(InventoryChangeEntity, 'c')
        .select('CAST(c.id AS TEXT)', 'id')
        .addSelect('c.changed_at', 'changedAt')
        .orderBy('c.id')
        .limit(batch)
        .getRawMany<{ id: string; changedAt: string | Date }>();
      let count = 0;
      while (count < oldest.length && new Date(oldest[count].changedAt) < cutoff) count++;
      if (count === 0) return 0;
      const through = oldest[count - 1].id;
      await manager
        .createQueryBuilder()
        .delete()
        .from(InventoryChangeEntity)
        .where('id <= :through', { through })
        .execute();
      await manager
        .createQueryBuilder()
        .update(PRUNED)
        .set({ through })
        .where('id = 1 AND through < :through', { through })
        .execute();
      return count;
    });
  }
}
