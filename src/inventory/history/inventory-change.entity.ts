import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DialectType } from '../../database/dialect-type.js';
import { INT64 } from '../../database/int64.js';
import type { PetStatus } from '../pet-status.js';
import type { ChangeSource } from './change-record.js';

// The id is the write counter's value after the change (migration InventoryHistory), so ids
// follow commit order; on SQLite it is the rowid, so an append adds no second index.
// `changed_at` is timestamptz on PostgreSQL and RFC 3339 text on SQLite.
@Entity('inventory_changes')
@Index('IDX_inventory_changes_pet', ['petId', 'id'])
export class InventoryChangeEntity {
  @PrimaryColumn({ type: 'bigint', transformer: INT64 })
  @DialectType({ sqlite: 'integer' })
  id!: bigint;

  @Column({ type: 'bigint', name: 'pet_id', transformer: INT64 })
  petId!: bigint;

  @Column({ type: 'integer', name: 'previous_quantity', nullable: true })
  previousQuantity!: number | null;

  @Column({ type: 'integer' })
  quantity!: number;

  @Column({ type: 'varchar', length: 16, name: 'previous_status', nullable: true })
  previousStatus!: PetStatus | null;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;

  @Column({ type: 'varchar', length: 16, nullable: true })
  reason!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reference!: string | null;

  @Column({ type: 'varchar', length: 8 })
  source!: ChangeSource;

  @Column({ type: 'integer', name: 'key_id', nullable: true })
  keyId!: number | null;

  @Column({ type: 'varchar', length: 128, name: 'request_id', nullable: true })
  requestId!: string | null;

  @Column({ type: 'varchar', length: 24, name: 'changed_at' })
  @DialectType({ postgres: 'timestamptz' })
  changedAt!: string;
}
