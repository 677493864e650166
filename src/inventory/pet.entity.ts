import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PetStatus } from './pet-status.js';

// `id` is int64: on SQLite never read it through the entity (better-sqlite3 returns a JS number).
@Entity('pets')
@Check('CHK_pets_quantity', `"quantity" >= 0 AND "quantity" <= 2147483647`)
@Check('CHK_pets_status', `"status" IN ('available', 'pending', 'sold')`)
export class PetEntity {
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;

  @Column({ type: 'integer' })
  quantity!: number;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}
