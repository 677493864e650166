import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import type { AppEnv } from '../config/app-config.js';
import { DialectType } from '../database/dialect-type.js';
import type { KeyScope } from './key-scope.js';
import type { Plan } from './plans.js';

@Entity('api_keys')
@Check('CHK_api_keys_scope', `"scope" IN ('read', 'write')`)
export class ApiKeyEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  name!: string | null;

  @Index('UQ_api_keys_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, name: 'key_hash' })
  keyHash!: string;

  @Column({ type: 'varchar', length: 20, name: 'key_prefix' })
  keyPrefix!: string;

  @Column({ type: 'varchar', length: 16 })
  plan!: Plan;

  @Column({ type: 'integer', name: 'per_minute', nullable: true })
  perMinute!: number | null;

  @Column({ type: 'integer', name: 'per_day', nullable: true })
  perDay!: number | null;

  @Column({ type: 'varchar', length: 16 })
  environment!: AppEnv;

  @Column({ type: 'varchar', length: 8, default: 'write' })
  scope!: KeyScope;

  @CreateDateColumn({ type: Date, name: 'created_at' })
  @DialectType({ postgres: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: Date, name: 'revoked_at', nullable: true })
  @DialectType({ postgres: 'timestamptz' })
  revokedAt!: Date | null;

  @Column({ type: Date, name: 'expires_at', nullable: true })
  @DialectType({ postgres: 'timestamptz' })
  expiresAt!: Date | null;

  @Column({ type: 'integer', name: 'replaced_by_id', nullable: true })
  replacedById!: number | null;

  @ManyToOne(() => ApiKeyEntity, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'replaced_by_id', foreignKeyConstraintName: 'FK_api_keys_replaced_by_id' })
  replacedBy?: Relation<ApiKeyEntity>;

  @Column({ type: Date, name: 'rolled_at', nullable: true })
  @DialectType({ postgres: 'timestamptz' })
  rolledAt!: Date | null;
}
