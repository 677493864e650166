import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { DialectType } from '../database/dialect-type.js';
import { INT64 } from '../database/int64.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

// On SQLite the id is the 64-bit rowid: SQLite autoincrements no other type.
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_endpoint', ['endpointId', 'id'])
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'increment', transformer: INT64 })
  @DialectType({ sqlite: 'integer' })
  id!: bigint;

  @Column({ type: 'integer', name: 'endpoint_id' })
  endpointId!: number;

  @ManyToOne(() => WebhookEndpointEntity, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_webhook_deliveries_endpoint' })
  endpoint?: Relation<WebhookEndpointEntity>;

  @Column({ type: 'bigint', name: 'change_id', transformer: INT64 })
  changeId!: bigint;

  @Column({ type: 'integer' })
  attempt!: number;

  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  @Column({ type: 'integer', name: 'duration_ms' })
  durationMs!: number;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  error!: string | null;

  @Column({ type: 'bigint', name: 'attempted_at', transformer: INT64 })
  attemptedAt!: bigint;
}
