import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { INT64 } from '../database/int64.js';

// Instants in Unix ms (migration Webhooks): compared in SQL against the clock that wrote them.
@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 64 })
  secret!: string;

  @Column({ type: 'varchar', length: 64, name: 'previous_secret', nullable: true })
  previousSecret!: string | null;

  @Column({ type: 'bigint', name: 'previous_secret_until', nullable: true, transformer: INT64 })
  previousSecretUntil!: bigint | null;

  @Column({ type: 'bigint', transformer: INT64 })
  cursor!: bigint;

  @Column({ type: 'integer', default: 0 })
  generation!: number;

  @Column({ type: 'integer', default: 0 })
  failures!: number;

  @Column({ type: 'bigint', name: 'next_attempt_at', nullable: true, transformer: INT64 })
  nextAttemptAt!: bigint | null;

  @Column({ type: 'bigint', name: 'disabled_at', nullable: true, transformer: INT64 })
  disabledAt!: bigint | null;

  @Column({ type: 'varchar', length: 255, name: 'disabled_reason', nullable: true })
  disabledReason!: string | null;

  @Column({ type: 'varchar', length: 64, name: 'lease_owner', nullable: true })
  leaseOwner!: string | null;

  @Column({ type: 'bigint', name: 'lease_until', nullable: true, transformer: INT64 })
  leaseUntil!: bigint | null;

  @Column({ type: 'bigint', name: 'created_at', transformer: INT64 })
  createdAt!: bigint;
}
