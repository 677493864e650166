import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** The first answer to a request, as it is sent again to its retries. */
export interface StoredAnswer {
  status: number;
  body: string;
  etag: string | null;
}

export interface IdempotencyRecord extends StoredAnswer {
  fingerprint: string;
}

export interface IdempotencyScope {
  keyId: number;
  key: string;
}

/** The one owner of the `idempotency_keys` table. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(scope: IdempotencyScope, keptSince: Date): Promise<IdempotencyRecord | undefined> {
    const row = await this.dataSource
      .createQueryBuilder(IdempotencyKeyEntity, 'k')
      .select(['k.fingerprint', 'k.status', 'k.etag', 'k.body'])
      .where('k.keyId = :keyId AND k.idempotencyKey = :key AND k.createdAt >= :keptSince', {
        keyId: scope.keyId,
        key: scope.key,
        keptSince: keptSince.toISOString(),
      })
      .getOne();
    return row
      ? { fingerprint: row.fingerprint, status: row.status, etag: row.etag, body: row.body }
      : undefined;
  }

  /**
   * Inside the transaction of the changes. A record past retention that was not pruned yet gives
   * way; a live one, or one a concurrent transaction holds (waited for until it commits), makes
   * the insert fail on the primary key.
   */
  async insert(
    manager: EntityManager,
    scope: IdempotencyScope,
    record: IdempotencyRecord,
    now: Date,
    keptSince: Date,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKeyEntity)
      .where('key_id = :keyId AND idempotency_key = :key AND created_at < :keptSince', {
        keyId: scope.keyId,
        key: scope.key,
        keptSince: keptSince.toISOString(),
      })
      .execute();
    await manager
      .createQueryBuilder()
      .insert()
      .into(IdempotencyKeyEntity)
      .values({
        keyId: scope.keyId,
        idempotencyKey: scope.key,
        fingerprint: record.fingerprint,
        status: record.status,
        etag: record.etag,
        body: record.body,
        createdAt: now.toISOString(),
      })
      .execute();
  }

  /** Removes the records created before `cutoff`; returns how many. */
  async prune(cutoff: Date): Promise<number> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKeyEntity)
      .where('created_at < :cutoff', { cutoff: cutoff.toISOString() })
      .execute();
    return result.affected ?? 0;
  }
}
