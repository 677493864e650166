import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AppEnv } from '../config/app-config.js';
import type { Plan } from './plans.js';

/** An API key as stored: never the raw key, only its SHA-256 hash and a display prefix. */
@Entity('api_keys')
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

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @Column({ type: Date, name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
