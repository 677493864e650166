import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runSql, writeTransaction } from '../../database/sql.js';
import { CHANGE_COLUMNS, type ChangeRow } from './change-record.js';

const THROUGH_SQL = `SELECT CAST(through AS TEXT) AS through FROM inventory_changes_pruned WHERE id = 1`;

export interface ChangePage {
  through: bigint;
  changes: ChangeRow[];
}

@Injectable()
export class InventoryHistoryRepository {
  private readonly postgres: boolean;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  // One statement, so the page and the pruning horizon come from one snapshot.
  async page(after: bigint | undefined, limit: number, petId?: bigint): Promise<ChangePage> {
    // Bound as numbers on SQLite, where text would not use the primary key; pg takes int64 text.
    const int64 = (value: bigint) => (this.postgres ? value.toString() : value);
    const params: Record<string, unknown> = { limit, after: int64(after ?? -1n) };
    if (petId !== undefined) params.petId = int64(petId);
    const rows = await runSql<ChangeRow & { through: string }>(
      this.dataSource,
      `SELECT (${THROUGH_SQL}) AS through, ${CHANGE_COLUMNS} FROM inventory_changes
       WHERE inventory_changes.id > :after ${petId === undefined ? '' : 'AND pet_id = :petId'}
       ORDER BY inventory_changes.id LIMIT :limit`,
      params,
    );
    if (rows.length === 0) {
      const [row] = await runSql<{ through: string }>(this.dataSource, THROUGH_SQL, {});
      return { through: BigInt(row?.through ?? 0), changes: [] };
    }
    return {
      through: BigInt(rows[0].through),
      changes: rows.map(({ through: _, ...row }) => row),
    };
  }

  async petExists(petId: bigint): Promise<boolean> {
    const rows = await runSql(this.dataSource, `SELECT 1 AS found FROM pets WHERE id = :petId`, {
      petId: petId.toString(),
    });
    return rows.length > 0;
  }

  // Only a run of the oldest goes, so every id up to the horizon is gone and none after it.
  async pruneBatch(cutoff: Date, batch: number): Promise<number> {
    return writeTransaction(this.dataSource, async (manager) => {
      const oldest = await runSql<{ id: string; changedAt: string | Date }>(
        this.dataSource,
        `SELECT CAST(id AS TEXT) AS id, changed_at AS "changedAt" FROM inventory_changes ORDER BY inventory_changes.id LIMIT :batch`,
        { batch },
        manager,
      );
      let count = 0;
      while (count < oldest.length && new Date(oldest[count].changedAt) < cutoff) count++;
      if (count === 0) return 0;
      const through = oldest[count - 1].id;
      await runSql(
        this.dataSource,
        `DELETE FROM inventory_changes WHERE id <= :through`,
        { through },
        manager,
      );
      await runSql(
        this.dataSource,
        `UPDATE inventory_changes_pruned SET through = :through WHERE id = 1 AND through < :through`,
        { through },
        manager,
      );
      return count;
    });
  }
}
