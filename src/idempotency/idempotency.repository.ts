import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { inTurn, rowsQuery } from '../database/sql.js';
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

/** One string per scope. */
export function scopeId(scope: IdempotencyScope): string {
  return `${scope.keyId}:${scope.key}`;
}

/** A live record holds this (API key, Idempotency-Key); the insert was not made. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('A live record holds this Idempotency-Key');
  }
}

// Plain SQL on the path of every adjustment: TypeORM's query builder costs more than the query,
// and on SQLite it leaves out the WHERE of ON CONFLICT DO UPDATE.
const FIND_SQL = `SELECT fingerprint, status, etag, body FROM idempotency_keys
    WHERE key_id = :1 AND idempotency_key = :2 AND created_at >= :3`;
const INSERT_SQL = {
  into: `INSERT INTO idempotency_keys
      (key_id, idempotency_key, fingerprint, status, etag, body, created_at) `,
  // A row past retention gives way; a live one (or one a concurrent transaction commits) is not
  // returned.
  conflict: ` ON CONFLICT (key_id, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
      status = excluded.status, etag = excluded.etag, body = excluded.body,
      created_at = excluded.created_at
    WHERE idempotency_keys.created_at < `,
  returning: ` RETURNING key_id, idempotency_key`,
};
// The columns of idempotency_keys in INSERT_SQL's order (migration IdempotencyKeys).
const INSERT_TYPES = ['integer', 'varchar', 'varchar', 'integer', 'varchar', 'text', 'timestamptz'];
const REWRITE_TYPES = ['integer', 'varchar', 'integer', 'varchar', 'text'];

/** A record to keep, with the scope it answers for. */
export interface ScopedRecord {
  scope: IdempotencyScope;
  record: IdempotencyRecord;
}

/** The one owner of the `idempotency_keys` table. */
@Injectable()
export class IdempotencyRepository {
  private readonly postgres: boolean;
  private readonly findSql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
    this.findSql = FIND_SQL.replace(/:(\d)/g, (_, n: string) => this.slot(Number(n)));
  }

  private slot(n: number): string {
    return this.postgres ? `$${n}` : '?';
  }

  async find(scope: IdempotencyScope, keptSince: Date): Promise<IdempotencyRecord | undefined> {
    // In turn on SQLite: its one connection may be inside a group's transaction, whose record
    // is not committed and may yet be rolled back.
    const [row] = (await inTurn(this.dataSource, () =>
      this.dataSource.query(this.findSql, [scope.keyId, scope.key, keptSince.toISOString()]),
    )) as IdempotencyRecord[];
    return row
      ? { fingerprint: row.fingerprint, status: row.status, etag: row.etag, body: row.body }
      : undefined;
  }

  /**
   * Inside the transaction of the changes, all in one statement; the scopes must differ. A record
   * past retention that was not pruned yet gives way; a live one, or one a concurrent transaction
   * holds (waited for until it commits), is left alone. Answers the records written, by
   * `scopeId`.
   */
  async insertAll(
    manager: EntityManager,
    records: readonly ScopedRecord[],
    now: Date,
    keptSince: Date,
  ): Promise<Set<string>> {
    if (records.length === 0) return new Set();
    const createdAt = now.toISOString();
    const rows = records.map(({ scope, record }) => [
      scope.keyId,
      scope.key,
      record.fingerprint,
      record.status,
      record.etag,
      record.body,
      createdAt,
    ]);
    const { sql: source, params } = rowsQuery(this.postgres, rows, INSERT_TYPES);
    params.push(keptSince.toISOString());
    const sql =
      INSERT_SQL.into +
      source +
      INSERT_SQL.conflict +
      this.slot(params.length) +
      INSERT_SQL.returning;
    const written = (await manager.query(sql, params)) as {
      key_id: number | string;
      idempotency_key: string;
    }[];
    return new Set(
      written.map((row) => scopeId({ keyId: Number(row.key_id), key: row.idempotency_key })),
    );
  }

  /** Replaces the answers of records this transaction wrote, in one statement. */
  async rewriteAll(manager: EntityManager, records: readonly ScopedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const { sql, params } = rowsQuery(
      this.postgres,
      records.map(({ scope, record }) => [
        scope.keyId,
        scope.key,
        record.status,
        record.etag,
        record.body,
      ]),
      REWRITE_TYPES,
    );
    await manager.query(
      `WITH v (key_id, idempotency_key, status, etag, body) AS (${sql})
       UPDATE idempotency_keys SET status = v.status, etag = v.etag, body = v.body
       FROM v WHERE idempotency_keys.key_id = v.key_id
         AND idempotency_keys.idempotency_key = v.idempotency_key`,
      params,
    );
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
