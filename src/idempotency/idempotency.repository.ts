import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runSql } from '../database/sql.js';

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
    const [row] = await runSql<IdempotencyRecord>(
      this.dataSource,
      `SELECT fingerprint, status, etag, body FROM idempotency_keys
       WHERE key_id = :keyId AND idempotency_key = :key AND created_at >= :keptSince`,
      { keyId: scope.keyId, key: scope.key, keptSince: keptSince.toISOString() },
    );
    return row && { ...row, status: Number(row.status) };
  }

  /**
   * Inside the transaction of the changes. A record past retention that was not pruned yet gives
   * way; a live one, or one a concurrent transaction holds (waited for until it commits), makes
   * this return false and insert nothing.
   */
  async insert(
    manager: EntityManager,
    scope: IdempotencyScope,
    record: IdempotencyRecord,
    now: Date,
    keptSince: Date,
  ): Promise<boolean> {
    const inserted = await runSql(
      this.dataSource,
      `INSERT INTO idempotency_keys (key_id, idempotency_key, fingerprint, status, etag, body, created_at)
       VALUES (:keyId, :key, :fingerprint, :status, :etag, :body, :createdAt)
       ON CONFLICT (key_id, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
         status = excluded.status, etag = excluded.etag, body = excluded.body, created_at = excluded.created_at
       WHERE idempotency_keys.created_at < :keptSince
       RETURNING key_id`,
      {
        keyId: scope.keyId,
        key: scope.key,
        fingerprint: record.fingerprint,
        status: record.status,
        etag: record.etag,
        body: record.body,
        createdAt: now.toISOString(),
        keptSince: keptSince.toISOString(),
      },
      manager,
    );
    return inserted.length === 1;
  }

  /** Removes up to `batch` records created before `cutoff`; returns how many. */
  async pruneBatch(cutoff: Date, batch: number): Promise<number> {
    const removed = await runSql<{ keyId: number }>(
      this.dataSource,
      `DELETE FROM idempotency_keys WHERE (key_id, idempotency_key) IN (
         SELECT key_id, idempotency_key FROM idempotency_keys WHERE created_at < :cutoff LIMIT :batch)
       RETURNING key_id AS "keyId"`,
      { cutoff: cutoff.toISOString(), batch },
    );
    return removed.length;
  }
}
