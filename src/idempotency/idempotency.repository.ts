import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { inTurn } from '../database/sql.js';
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

/** A live record holds this (API key, Idempotency-Key); the insert was not made. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('A live record holds this Idempotency-Key');
  }
}

// Plain SQL on the path of every adjustment: TypeORM's query builder costs more than the query.
const SQL = {
  find: `SELECT fingerprint, status, etag, body FROM idempotency_keys
    WHERE key_id = :1 AND idempotency_key = :2 AND created_at >= :3`,
  insert: `INSERT INTO idempotency_keys
      (key_id, idempotency_key, fingerprint, status, etag, body, created_at)
    VALUES (:1, :2, :3, :4, :5, :6, :7)
    ON CONFLICT (key_id, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
      status = excluded.status, etag = excluded.etag, body = excluded.body,
      created_at = excluded.created_at
    WHERE idempotency_keys.created_at < :8
    RETURNING key_id`,
};

/** The one owner of the `idempotency_keys` table. */
@Injectable()
export class IdempotencyRepository {
  private readonly sql: typeof SQL;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const postgres = dataSource.options.type === 'postgres';
    const place = (text: string) =>
      text.replace(/:(\d)/g, (_, n: string) => (postgres ? `$${n}` : '?'));
    this.sql = { find: place(SQL.find), insert: place(SQL.insert) };
  }

  async find(scope: IdempotencyScope, keptSince: Date): Promise<IdempotencyRecord | undefined> {
    // In turn on SQLite: its one connection may be inside a group's transaction, whose record
    // is not committed and may yet be rolled back.
    const [row] = (await inTurn(this.dataSource, () =>
      this.dataSource.query(this.sql.find, [scope.keyId, scope.key, keptSince.toISOString()]),
    )) as IdempotencyRecord[];
    return row
      ? { fingerprint: row.fingerprint, status: row.status, etag: row.etag, body: row.body }
      : undefined;
  }

  /**
   * Inside the transaction of the changes. A record past retention that was not pruned yet gives
   * way; a live one, or one a concurrent transaction holds (waited for until it commits), makes
   * the insert throw IdempotencyKeyTaken.
   */
  async insert(
    manager: EntityManager,
    scope: IdempotencyScope,
    record: IdempotencyRecord,
    now: Date,
    keptSince: Date,
  ): Promise<void> {
    const inserted = (await manager.query(this.sql.insert, [
      scope.keyId,
      scope.key,
      record.fingerprint,
      record.status,
      record.etag,
      record.body,
      now.toISOString(),
      keptSince.toISOString(),
    ])) as unknown[];
    if (inserted.length === 0) throw new IdempotencyKeyTaken();
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
