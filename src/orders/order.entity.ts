import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { INT64 } from '../database/int64.js';
import { PetEntity } from '../inventory/pet.entity.js';
import type { OrderStatus } from './order-status.js';

// int64 ids are read as text on SQLite (OrdersRepository; int64.ts); `ship_date` is UTC. Pets, and so their orders, leave the catalogue only through maintenance, never the API.
@Entity('orders')
@Check('CHK_orders_quantity', `"quantity" >= 1 AND "quantity" <= 2147483647`)
@Check('CHK_orders_status', `"status" IN ('placed', 'approved', 'delivered')`)
export class OrderEntity {
  @PrimaryColumn({ type: 'bigint', transformer: INT64 })
  id!: bigint;

  @Index('IDX_orders_pet_id')
  @Column({ type: 'bigint', name: 'pet_id', transformer: INT64 })
  petId!: bigint;

  @ManyToOne(() => PetEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_orders_pet_id' })
  pet?: Relation<PetEntity>;

  @Column({ type: 'integer' })
  quantity!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: OrderStatus;

  @Column({ type: Date, name: 'ship_date', nullable: true })
  shipDate!: Date | null;

  @Column({ type: 'boolean', default: false })
  complete!: boolean;
}
