import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type QueryResult } from 'typeorm';
import { writeTransaction } from '../database/sql.js';
import type { ChangeRow } from '../inventory/history/change-record.js';

// Int64 ids are read as `CAST(id AS TEXT)`: better-sqlite3 would round them to JS numbers.
async function runSql<T>(
  dataSource: DataSource,
  sql: string,
  params: Record<string, unknown>,
  manager?: EntityManager,
): Promise<T[]> {
  const [text, values] = dataSource.driver.escapeQueryWithParameters(sql, params);
  const runner = manager?.queryRunner ?? dataSource.createQueryRunner();
  try {
    // A structured result has the rows as `records` on every driver.
    return ((await runner.query(text, values, true)) as QueryResult).records ?? [];
  } finally {
    if (runner !== manager?.queryRunner) await runner.release();
  }
}

export interface EndpointRow {
  id: number;
  url: string;
  description: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  cursor: bigint;
  /** Moves on at each `replay`, so a deliverer never writes back a cursor from before it. */
  generation: number;
  failures: number;
  nextAttemptAt: number | null;
  disabledAt: number | null;
  disabledReason: string | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  createdAt: number;
}

export interface DeliveryRow {
  id: string;
  changeId: string;
  attempt: number;
  status: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: number;
}

export type NewDelivery = Omit<DeliveryRow, 'id'>;

const ENDPOINT_COLUMNS = `id, url, description, secret, previous_secret AS "previousSecret",
  CAST(previous_secret_until AS TEXT) AS "previousSecretUntil", CAST(cursor AS TEXT) AS cursor, generation, failures,
  CAST(next_attempt_at AS TEXT) AS "nextAttemptAt", CAST(disabled_at AS TEXT) AS "disabledAt",
  disabled_reason AS "disabledReason", lease_owner AS "leaseOwner", CAST(lease_until AS TEXT) AS "leaseUntil",
  CAST(created_at AS TEXT) AS "createdAt"`;

// The feed's own columns (see inventory-history.repository.ts), read-only.
const CHANGE_COLUMNS = `CAST(id AS TEXT) AS id, CAST(pet_id AS TEXT) AS "petId", previous_quantity AS "previousQuantity",
  quantity, previous_status AS "previousStatus", status, reason, reference, source, key_id AS "keyId",
  request_id AS "requestId", changed_at AS "changedAt"`;

/** Attempts kept per endpoint for `webhooks deliveries`; older ones are removed as new ones come. */
export const KEPT_DELIVERIES = 1000;

type Raw<T> = { [K in keyof T]: unknown };

function toEndpoint(raw: Raw<EndpointRow>): EndpointRow {
  const ms = (value: unknown) => (value === null ? null : Number(value));
  return {
    id: Number(raw.id),
    url: raw.url as string,
    description: raw.description as string | null,
    secret: raw.secret as string,
    previousSecret: raw.previousSecret as string | null,
    previousSecretUntil: ms(raw.previousSecretUntil),
    cursor: BigInt(raw.cursor as string),
    generation: Number(raw.generation),
    failures: Number(raw.failures),
    nextAttemptAt: ms(raw.nextAttemptAt),
    disabledAt: ms(raw.disabledAt),
    disabledReason: raw.disabledReason as string | null,
    leaseOwner: raw.leaseOwner as string | null,
    leaseUntil: ms(raw.leaseUntil),
    createdAt: Number(raw.createdAt),
  };
}

/** Webhook endpoints, their delivery log and leases, and a read-only view of the change feed. */
@Injectable()
export class WebhookRepository {
  private readonly postgres: boolean;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  // pg takes int64 as text; better-sqlite3 needs a number or bigint to use the primary key.
  private int64(value: bigint): string | bigint {
    return this.postgres ? value.toString() : value;
  }

  private sql<T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
    return runSql<T>(this.dataSource, sql, params);
  }

  /** Where a new endpoint starts: after every change committed so far (and after any pruned). */
  async feedHead(): Promise<bigint> {
    const [row] = await this.sql<{ head: string | null; through: string | null }>(
      `SELECT CAST((SELECT MAX(id) FROM inventory_changes) AS TEXT) AS head,
        CAST((SELECT through FROM inventory_changes_pruned WHERE id = 1) AS TEXT) AS through`,
    );
    const head = BigInt(row?.head ?? 0);
    const through = BigInt(row?.through ?? 0);
    return head > through ? head : through;
  }

  async prunedThrough(): Promise<bigint> {
    const [row] = await this.sql<{ through: string }>(
      `SELECT CAST(through AS TEXT) AS through FROM inventory_changes_pruned WHERE id = 1`,
    );
    return BigInt(row?.through ?? 0);
  }

  async changesAfter(cursor: bigint, limit: number): Promise<ChangeRow[]> {
    return this.sql<ChangeRow>(
      `SELECT ${CHANGE_COLUMNS} FROM inventory_changes WHERE inventory_changes.id > :cursor ORDER BY inventory_changes.id LIMIT :limit`,
      { cursor: this.int64(cursor), limit },
    );
  }

  async insert(input: {
    url: string;
    description: string | null;
    secret: string;
    cursor: bigint;
    now: number;
  }): Promise<EndpointRow> {
    const [row] = await this.sql<{ id: number }>(
      `INSERT INTO webhook_endpoints (url, description, secret, cursor, failures, created_at)
        VALUES (:url, :description, :secret, :cursor, 0, :now) RETURNING id`,
      { ...input, cursor: this.int64(input.cursor) },
    );
    return (await this.find(Number(row.id)))!;
  }

  async find(id: number): Promise<EndpointRow | undefined> {
    const [row] = await this.sql<Raw<EndpointRow>>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = :id`,
      { id },
    );
    return row && toEndpoint(row);
  }

  async list(): Promise<EndpointRow[]> {
    const rows = await this.sql<Raw<EndpointRow>>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY id`,
    );
    return rows.map(toEndpoint);
  }

  async remove(id: number): Promise<boolean> {
    return writeTransaction(this.dataSource, async (manager) => {
      await runSql(
        this.dataSource,
        `DELETE FROM webhook_deliveries WHERE endpoint_id = :id`,
        { id },
        manager,
      );
      const rows = await runSql(
        this.dataSource,
        `DELETE FROM webhook_endpoints WHERE id = :id RETURNING id`,
        { id },
        manager,
      );
      return rows.length > 0;
    });
  }

  async enable(id: number): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failures = 0,
        next_attempt_at = NULL WHERE id = :id RETURNING id`,
      { id },
    );
    return rows.length > 0;
  }

  async rollSecret(id: number, secret: string, previousUntil: number): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = :previousUntil,
        secret = :secret WHERE id = :id RETURNING id`,
      { id, secret, previousUntil },
    );
    return rows.length > 0;
  }

  /** Moves the endpoint's cursor back (or forward); its deliverer notices at its next step. */
  async replay(id: number, cursor: bigint): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE webhook_endpoints SET cursor = :cursor, generation = generation + 1, failures = 0,
        next_attempt_at = NULL WHERE id = :id RETURNING id`,
      { id, cursor: this.int64(cursor) },
    );
    return rows.length > 0;
  }

  async deliveries(id: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.sql<Raw<DeliveryRow>>(
      `SELECT CAST(id AS TEXT) AS id, CAST(change_id AS TEXT) AS "changeId", attempt, status,
        duration_ms AS "durationMs", error, CAST(attempted_at AS TEXT) AS "attemptedAt"
        FROM webhook_deliveries WHERE endpoint_id = :id ORDER BY webhook_deliveries.id DESC LIMIT :limit`,
      { id, limit },
    );
    return rows.map((row) => ({
      id: row.id as string,
      changeId: row.changeId as string,
      attempt: Number(row.attempt),
      status: row.status === null ? null : Number(row.status),
      durationMs: Number(row.durationMs),
      error: row.error as string | null,
      attemptedAt: Number(row.attemptedAt),
    }));
  }

  // Lease instants come from the database's clock on PostgreSQL, so instances on hosts whose
  // clocks disagree still agree on when a lease ends; SQLite is one host, and takes the app's.
  private leaseNow(): string {
    return this.postgres ? `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS bigint)` : ':now';
  }

  /** Enabled endpoints whose lease is free, expired or already this owner's. */
  async claimable(owner: string, now: number): Promise<number[]> {
    const rows = await this.sql<{ id: number }>(
      `SELECT id FROM webhook_endpoints WHERE disabled_at IS NULL
        AND (lease_owner IS NULL OR lease_owner = :owner OR lease_until < ${this.leaseNow()}) ORDER BY id`,
      { owner, now },
    );
    return rows.map((row) => Number(row.id));
  }

  /** One statement, so of two instances racing for a free lease exactly one gets it. */
  async claim(id: number, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE webhook_endpoints SET lease_owner = :owner, lease_until = ${this.leaseNow()} + :leaseMs
        WHERE id = :id AND disabled_at IS NULL
        AND (lease_owner IS NULL OR lease_owner = :owner OR lease_until < ${this.leaseNow()}) RETURNING id`,
      { id, owner, now, leaseMs },
    );
    return rows.length > 0;
  }

  async renew(id: number, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE webhook_endpoints SET lease_until = ${this.leaseNow()} + :leaseMs
        WHERE id = :id AND lease_owner = :owner RETURNING id`,
      { id, owner, now, leaseMs },
    );
    return rows.length > 0;
  }

  async release(id: number, owner: string): Promise<void> {
    await this.sql(
      `UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = :id AND lease_owner = :owner`,
      { id, owner },
    );
  }

  /**
   * Records attempts and moves the endpoint's state, only while `owner` holds the lease and no
   * `replay` came since it read `generation`: false otherwise, and nothing changes.
   */
  async advance(
    id: number,
    owner: string,
    generation: number,
    next: {
      cursor: bigint;
      failures: number;
      nextAttemptAt: number | null;
      disable?: { at: number; reason: string };
    },
    attempts: readonly NewDelivery[],
  ): Promise<boolean> {
    return writeTransaction(this.dataSource, async (manager) => {
      const updated = await runSql(
        this.dataSource,
        `UPDATE webhook_endpoints SET cursor = :cursor, failures = :failures, next_attempt_at = :nextAttemptAt,
          disabled_at = :disabledAt, disabled_reason = :disabledReason
          WHERE id = :id AND lease_owner = :owner AND generation = :generation RETURNING id`,
        {
          id,
          owner,
          generation,
          cursor: this.int64(next.cursor),
          failures: next.failures,
          nextAttemptAt: next.nextAttemptAt,
          disabledAt: next.disable?.at ?? null,
          disabledReason: next.disable?.reason ?? null,
        },
        manager,
      );
      if (updated.length === 0) return false;
      await this.insertAttempts(id, attempts, manager);
      return true;
    });
  }

  private async insertAttempts(
    id: number,
    attempts: readonly NewDelivery[],
    manager: EntityManager,
  ): Promise<void> {
    for (let start = 0; start < attempts.length; start += 100) {
      const params: Record<string, unknown> = { endpointId: id };
      const values = attempts.slice(start, start + 100).map((attempt, i) => {
        params[`c${i}`] = this.int64(BigInt(attempt.changeId));
        params[`a${i}`] = attempt.attempt;
        params[`s${i}`] = attempt.status;
        params[`d${i}`] = attempt.durationMs;
        params[`e${i}`] = attempt.error;
        params[`t${i}`] = attempt.attemptedAt;
        return `(:endpointId, :c${i}, :a${i}, :s${i}, :d${i}, :e${i}, :t${i})`;
      });
      await runSql(
        this.dataSource,
        `INSERT INTO webhook_deliveries (endpoint_id, change_id, attempt, status, duration_ms, error, attempted_at)
          VALUES ${values.join(', ')}`,
        params,
        manager,
      );
    }
  }

  /** Records attempts outside a cursor move (a lost lease still leaves its trace). */
  async recordAttempts(id: number, attempts: readonly NewDelivery[]): Promise<void> {
    if (attempts.length === 0) return;
    await writeTransaction(this.dataSource, (manager) =>
      this.insertAttempts(id, attempts, manager),
    );
  }

  async pruneDeliveries(id: number): Promise<void> {
    await this.sql(
      `DELETE FROM webhook_deliveries WHERE endpoint_id = :id AND id <= (
        SELECT id FROM webhook_deliveries WHERE endpoint_id = :id ORDER BY id DESC LIMIT 1 OFFSET :kept)`,
      { id, kept: KEPT_DELIVERIES },
    );
  }
}
