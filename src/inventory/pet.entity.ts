import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PetStatus } from './pet-status.js';

/**
 * One animal of the catalogue and its stock level. The inventory operations read and write
 * `quantity`/`status`; the pets operation reads `name`/`status`.
 * `id` is an int64: never read it through the entity on SQLite (better-sqlite3 returns a JS
 * number); `InventoryRepository` casts it to text in SQL.
 */
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
