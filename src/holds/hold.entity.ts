import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { INT64 } from '../database/int64.js';
import type { HoldStatus } from './hold-status.js';

// Instants are Unix milliseconds (bigint), compared in SQL against the clock that wrote them, the
// same on both dialects. `expired` is stored only once a sweep has seen it: reads decide it from
// `expires_at` (contract: a hold ends at expiresAt on every instance).
@Entity('holds')
@Index('IDX_holds_pet_created', ['petId', 'status', 'createdAt', 'id'])
@Index('IDX_holds_status', ['status', 'expiresAt'])
@Index('IDX_holds_ended', ['endedAt'])
export class HoldEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'bigint', name: 'pet_id', transformer: INT64 })
  petId!: bigint;

  @Column({ type: 'integer' })
  quantity!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: HoldStatus;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reference!: string | null;

  @Column({ type: 'bigint', name: 'created_at', transformer: INT64 })
  createdAt!: bigint;

  @Column({ type: 'bigint', name: 'expires_at', transformer: INT64 })
  expiresAt!: bigint;

  @Column({ type: 'bigint', name: 'ended_at', nullable: true, transformer: INT64 })
  endedAt!: bigint | null;
}
