import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { readSnapshot, writeTransaction } from '../database/sql.js';
import type { HoldPosition } from './hold-cursor.js';
import { HoldEntity } from './hold.entity.js';
import type { HoldRow } from './hold-row.js';
import type { HoldStatus } from './hold-status.js';

interface RawHold extends Omit<HoldRow, 'createdAt' | 'expiresAt' | 'endedAt'> {
  createdAt: string | number;
  expiresAt: string | number;
  endedAt: string | number | null;
}

const rowOf = (raw: RawHold): HoldRow => ({
  ...raw,
  createdAt: Number(raw.createdAt),
  expiresAt: Number(raw.expiresAt),
  endedAt: raw.endedAt === null ? null : Number(raw.endedAt),
});

export const PRUNE_BATCH = 1000;

/** The one owner of the `holds` table. */
@Injectable()
export class HoldsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Holds as HoldRows, pet ids exact: better-sqlite3 would round them as numbers. */
  private holds(manager: EntityManager): SelectQueryBuilder<HoldEntity> {
    return manager
      .createQueryBuilder(HoldEntity, 'hold')
      .select('hold.id', 'holdId')
      .addSelect('CAST(hold.petId AS TEXT)', 'petId')
      .addSelect('hold.quantity', 'quantity')
      .addSelect('hold.status', 'status')
      .addSelect('hold.reference', 'reference')
      .addSelect('hold.createdAt', 'createdAt')
      .addSelect('hold.expiresAt', 'expiresAt')
      .addSelect('hold.endedAt', 'endedAt');
  }

  /** Committed rows only: on SQLite the one connection may be inside another's transaction. */
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return readSnapshot(this.dataSource, work);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return writeTransaction(this.dataSource, work);
  }

  async find(manager: EntityManager, holdId: string): Promise<HoldRow | undefined> {
    const raw = await this.holds(manager)
      .where('hold.id = :holdId', { holdId })
      .getRawOne<RawHold>();
    return raw && rowOf(raw);
  }

  /** A page of a pet's active holds, oldest first, after a position of the list. */
  async active(
    manager: EntityManager,
    petId: bigint,
    now: number,
    page: { after?: HoldPosition; limit: number },
  ): Promise<HoldRow[]> {
    const query = this.holds(manager)
      .where('hold.petId = :petId', { petId: petId.toString() })
      .andWhere(`hold.status = 'active'`)
      .andWhere('hold.expiresAt > :now', { now });
    if (page.after)
      // A row comparison: the index on (pet, status, created_at, id) starts the scan at the cursor.
      query.andWhere('(hold.createdAt, hold.id) > (:createdAt, :holdId)', page.after);
    const raws = await query
      .orderBy('hold.createdAt')
      .addOrderBy('hold.id')
      .limit(page.limit)
      .getRawMany<RawHold>();
    return raws.map(rowOf);
  }

  countActive(now: number): Promise<number> {
    return this.read((manager) =>
      manager
        .createQueryBuilder(HoldEntity, 'hold')
        .where(`hold.status = 'active'`)
        .andWhere('hold.expiresAt > :now', { now })
        .getCount(),
    );
  }

  async insertAll(manager: EntityManager, rows: readonly HoldRow[]): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(HoldEntity)
      .values(
        rows.map((row) => ({
          id: row.holdId,
          petId: BigInt(row.petId),
          quantity: row.quantity,
          status: row.status,
          reference: row.reference,
          createdAt: BigInt(row.createdAt),
          expiresAt: BigInt(row.expiresAt),
          endedAt: null,
        })),
      )
      .updateEntity(false)
      .execute();
  }

  async end(
    manager: EntityManager,
    holdId: string,
    status: Extract<HoldStatus, 'confirmed' | 'released'>,
    at: number,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(HoldEntity)
      .set({ status, endedAt: BigInt(at) })
      .where('id = :holdId', { holdId })
      .execute();
  }

  /**
   * Writes `expired` on holds whose time has come (reads already tell them so): an UPDATE of a
   * row counts on one instance only, so the expiries are counted once.
   */
  async markExpired(now: number): Promise<number> {
    const result = await this.transaction((manager) =>
      manager
        .createQueryBuilder()
        .update(HoldEntity)
        .set({ status: 'expired', endedAt: () => 'expires_at' })
        .where(`status = 'active'`)
        .andWhere('expires_at <= :now', { now })
        .execute(),
    );
    return result.affected ?? 0;
  }

  pruneBatch(cutoff: number): Promise<number> {
    return this.transaction(async (manager) => {
      const ids = await manager
        .createQueryBuilder(HoldEntity, 'hold')
        .select('hold.id', 'id')
        .where(`hold.status <> 'active'`)
        .andWhere('hold.endedAt < :cutoff', { cutoff })
        .limit(PRUNE_BATCH)
        .getRawMany<{ id: string }>();
      if (ids.length === 0) return 0;
      await manager
        .createQueryBuilder()
        .delete()
        .from(HoldEntity)
        .whereInIds(ids.map((row) => row.id))
        .execute();
      return ids.length;
    });
  }
}
