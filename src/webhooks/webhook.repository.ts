import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  type EntityManager,
  type EntityTarget,
  type FindOptionsWhere,
  IsNull,
  LessThan,
  type ObjectLiteral,
  Raw,
  type SelectQueryBuilder,
} from 'typeorm';
import { writeTransaction } from '../database/sql.js';
import type { ChangeRow } from '../inventory/history/change-record.js';
import { InventoryChangeEntity } from '../inventory/history/inventory-change.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';

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

export const KEPT_DELIVERIES = 1000;

const PRUNED = 'inventory_changes_pruned';

// Leases use PostgreSQL's clock, so instances whose clocks disagree agree on when one ends.
const DATABASE_NOW = 'CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS bigint)';

type Selected<T> = { [K in keyof T]: unknown };

/** int64 columns as text: better-sqlite3 would round them. */
function selectExact<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  alias: string,
): SelectQueryBuilder<T> {
  const query = manager.createQueryBuilder(entity, alias).select([]);
  for (const column of manager.connection.getMetadata(entity).columns) {
    const path = `${alias}.${column.propertyPath}`;
    query.addSelect(column.type === 'bigint' ? `CAST(${path} AS TEXT)` : path, column.propertyName);
  }
  return query;
}

const ms = (value: unknown) => (value === null ? null : Number(value));
const column = (ms: number | null) => (ms === null ? null : BigInt(ms));

function toEndpoint(raw: Selected<EndpointRow>): EndpointRow {
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

@Injectable()
export class WebhookRepository {
  private readonly postgres: boolean;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  private get manager(): EntityManager {
    return this.dataSource.manager;
  }

  // pg takes int64 as text; better-sqlite3 needs a number or bigint to use the primary key.
  private int64(value: bigint): string | bigint {
    return this.postgres ? value.toString() : value;
  }

  async feedHead(): Promise<bigint> {
    const row = await this.manager
      .createQueryBuilder()
      .select((q) => q.select('CAST(MAX(c.id) AS TEXT)').from(InventoryChangeEntity, 'c'), 'head')
      .addSelect('CAST(p.through AS TEXT)', 'through')
      .from(PRUNED, 'p')
      .where('p.id = 1')
      .getRawOne<{ head: string | null; through: string | null }>();
    const head = BigInt(row?.head ?? 0);
    const through = BigInt(row?.through ?? 0);
    return head > through ? head : through;
  }

  async prunedThrough(): Promise<bigint> {
    const row = await this.manager
      .createQueryBuilder()
      .select('CAST(p.through AS TEXT)', 'through')
      .from(PRUNED, 'p')
      .where('p.id = 1')
      .getRawOne<{ through: string }>();
    return BigInt(row?.through ?? 0);
  }

  changesAfter(cursor: bigint, limit: number): Promise<ChangeRow[]> {
    return selectExact(this.manager, InventoryChangeEntity, 'c')
      .where('c.id > :cursor', { cursor: this.int64(cursor) })
      .orderBy('c.id')
      .limit(limit)
      .getRawMany<ChangeRow>();
  }

  async insert(input: {
    url: string;
    description: string | null;
    secret: string;
    cursor: bigint;
    now: number;
  }): Promise<EndpointRow> {
    const { identifiers } = await this.manager.insert(WebhookEndpointEntity, {
      url: input.url,
      description: input.description,
      secret: input.secret,
      cursor: input.cursor,
      failures: 0,
      createdAt: BigInt(input.now),
    });
    return (await this.find(Number(identifiers[0].id)))!;
  }

  private endpoints(): SelectQueryBuilder<WebhookEndpointEntity> {
    return selectExact(this.manager, WebhookEndpointEntity, 'e');
  }

  async find(id: number): Promise<EndpointRow | undefined> {
    const row = await this.endpoints().where({ id }).getRawOne<Selected<EndpointRow>>();
    return row ? toEndpoint(row) : undefined;
  }

  async list(): Promise<EndpointRow[]> {
    const rows = await this.endpoints().orderBy('e.id').getRawMany<Selected<EndpointRow>>();
    return rows.map(toEndpoint);
  }

  async remove(id: number): Promise<boolean> {
    return writeTransaction(this.dataSource, async (manager) => {
      await manager.delete(WebhookDeliveryEntity, { endpointId: id });
      const { affected } = await manager.delete(WebhookEndpointEntity, { id });
      return (affected ?? 0) > 0;
    });
  }

  private async updated(result: Promise<{ affected?: number }>): Promise<boolean> {
    return ((await result).affected ?? 0) > 0;
  }

  enable(id: number): Promise<boolean> {
    return this.updated(
      this.manager.update(
        WebhookEndpointEntity,
        { id },
        { disabledAt: null, disabledReason: null, failures: 0, nextAttemptAt: null },
      ),
    );
  }

  rollSecret(id: number, secret: string, previousUntil: number): Promise<boolean> {
    return this.updated(
      this.manager.update(
        WebhookEndpointEntity,
        { id },
        { previousSecret: () => 'secret', previousSecretUntil: BigInt(previousUntil), secret },
      ),
    );
  }

  replay(id: number, cursor: bigint): Promise<boolean> {
    return this.updated(
      this.manager.update(
        WebhookEndpointEntity,
        { id },
        { cursor, generation: () => 'generation + 1', failures: 0, nextAttemptAt: null },
      ),
    );
  }

  async deliveries(id: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await selectExact(this.manager, WebhookDeliveryEntity, 'd')
      .where({ endpointId: id })
      .orderBy('d.id', 'DESC')
      .limit(limit)
      .getRawMany<Selected<DeliveryRow>>();
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

  private leaseFree(owner: string, now: number): FindOptionsWhere<WebhookEndpointEntity>[] {
    const expired = this.postgres
      ? Raw((until) => `${until} < ${DATABASE_NOW}`)
      : LessThan(BigInt(now));
    return [{ leaseOwner: IsNull() }, { leaseOwner: owner }, { leaseUntil: expired }].map(
      (lease) => ({ ...lease, disabledAt: IsNull() }),
    );
  }

  private leaseEnd(now: number, leaseMs: number): bigint | (() => string) {
    return this.postgres ? () => `${DATABASE_NOW} + :leaseMs` : BigInt(now + leaseMs);
  }

  async claimable(owner: string, now: number): Promise<number[]> {
    const rows = await this.manager.find(WebhookEndpointEntity, {
      select: { id: true },
      where: this.leaseFree(owner, now),
      order: { id: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  /** One statement, so of two instances racing for a free lease exactly one gets it. */
  claim(id: number, owner: string, now: number, leaseMs: number): Promise<boolean> {
    return this.updated(
      this.manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set({ leaseOwner: owner, leaseUntil: this.leaseEnd(now, leaseMs) })
        .where(this.leaseFree(owner, now).map((free) => ({ ...free, id })))
        .setParameters({ leaseMs })
        .execute(),
    );
  }

  renew(id: number, owner: string, now: number, leaseMs: number): Promise<boolean> {
    return this.updated(
      this.manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set({ leaseUntil: this.leaseEnd(now, leaseMs) })
        .where({ id, leaseOwner: owner })
        .setParameters({ leaseMs })
        .execute(),
    );
  }

  async release(id: number, owner: string): Promise<void> {
    await this.manager.update(
      WebhookEndpointEntity,
      { id, leaseOwner: owner },
      { leaseOwner: null, leaseUntil: null },
    );
  }

  /** Only while `owner` holds the lease and no `replay` came since it read `generation`. */
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
      const { affected } = await manager.update(
        WebhookEndpointEntity,
        { id, leaseOwner: owner, generation },
        {
          cursor: next.cursor,
          failures: next.failures,
          nextAttemptAt: column(next.nextAttemptAt),
          disabledAt: column(next.disable?.at ?? null),
          disabledReason: next.disable?.reason ?? null,
        },
      );
      if (!affected) return false;
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
      await manager
        .createQueryBuilder()
        .insert()
        .into(WebhookDeliveryEntity)
        .values(
          attempts.slice(start, start + 100).map((attempt) => ({
            endpointId: id,
            changeId: BigInt(attempt.changeId),
            attempt: attempt.attempt,
            status: attempt.status,
            durationMs: attempt.durationMs,
            error: attempt.error,
            attemptedAt: BigInt(attempt.attemptedAt),
          })),
        )
        .updateEntity(false)
        .execute();
    }
  }

  async recordAttempts(id: number, attempts: readonly NewDelivery[]): Promise<void> {
    if (attempts.length === 0) return;
    await writeTransaction(this.dataSource, (manager) =>
      this.insertAttempts(id, attempts, manager),
    );
  }

  async pruneDeliveries(id: number): Promise<void> {
    const newestGone = this.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'kept')
      .select('kept.id')
      .where('kept.endpoint_id = :id')
      .orderBy('kept.id', 'DESC')
      .limit(1)
      .offset(KEPT_DELIVERIES);
    await this.manager
      .createQueryBuilder()
      .delete()
      .from(WebhookDeliveryEntity)
      .where('endpoint_id = :id', { id })
      .andWhere(`id <= (${newestGone.getQuery()})`)
      .execute();
  }
}
