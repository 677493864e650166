import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { INT64 } from '../database/int64.js';
import type { PetStatus } from './pet-status.js';

@Entity('pets')
@Check('CHK_pets_quantity', `"quantity" >= 0 AND "quantity" <= 2147483647`)
@Check('CHK_pets_status', `"status" IN ('available', 'pending', 'sold')`)
export class PetEntity {
  @PrimaryColumn({ type: 'bigint', transformer: INT64 })
  id!: bigint;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;

  @Column({ type: 'integer' })
  quantity!: number;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}
