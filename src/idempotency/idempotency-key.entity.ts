import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DialectType } from '../database/dialect-type.js';

// One per (API key, Idempotency-Key): the primary key makes a concurrent duplicate's transaction
// fail instead of applying twice. `created_at` is timestamptz on PostgreSQL, RFC 3339 text on
// SQLite.
@Entity('idempotency_keys')
@Index('IDX_idempotency_keys_created_at', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'integer', name: 'key_id' })
  keyId!: number;

  @PrimaryColumn({ type: 'varchar', length: 255, name: 'idempotency_key' })
  idempotencyKey!: string;

  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  @Column({ type: 'integer' })
  status!: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  etag!: string | null;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'varchar', name: 'created_at' })
  @DialectType({ postgres: 'timestamptz' })
  createdAt!: string;
}
