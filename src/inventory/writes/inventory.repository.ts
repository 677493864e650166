import { Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, type SelectQueryBuilder } from 'typeorm';
import { readSnapshot, rowsQuery, writeTransaction } from '../../database/sql.js';
import { Clock, SystemClock } from '../../rate-limit/clock.js';
import { InventoryChangeEntity } from '../history/inventory-change.entity.js';
import type { ChangeSource } from '../history/change-record.js';
import {
  type ImportRow,
  type InventoryRow,
  sameItem,
  sameStock,
  SETTABLE_FIELDS,
  STORED_FIELDS,
} from '../inventory-row.js';
import { PetEntity } from '../pet.entity.js';
import type { PetStatus } from '../pet-status.js';

/** One change of a pet, as the history appends it. */
export interface StockChange {
  before: InventoryRow | undefined;
  after: InventoryRow;
  reason: string | null;
  reference: string | null;
  source: ChangeSource;
  keyId: number | null;
  requestId: string | null;
}

// The write counter (migration InventoryHistory) has a different key per dialect and is kept by
// triggers; locking it first orders every writer's changes by commit.
const COUNTER_SQL = {
  postgres: `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE slot = 0 FOR UPDATE`,
  sqlite: `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE id = 1`,
};
const VERSION_SQL = {
  postgres: `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE slot = 0`,
  sqlite: COUNTER_SQL.sqlite,
};
const SET_COUNTER_SQL = {
  postgres: `UPDATE inventory_version SET version = $1 WHERE slot = 0`,
  sqlite: `UPDATE inventory_version SET version = ? WHERE id = 1`,
};
const WRITE_CHUNK = 500;
// The columns of inventory_changes as appendChanges writes them (migration InventoryHistory).
const CHANGE_TYPES = [
  'bigint',
  'bigint',
  'integer',
  'integer',
  'varchar',
  'varchar',
  'varchar',
  'varchar',
  'varchar',
  'integer',
  'varchar',
  'timestamptz',
];

/** The units of active holds per pet, and when the first of them ends (Unix ms). */
export interface HeldUnits {
  units: Map<string, number>;
  until: number | undefined;
}

/** A stored item field as SQL names and types it. */
interface StoredColumn {
  field: string;
  name: string;
  type: string;
}

/** The one owner of the `pets` table and of appending to the stock history. */
@Injectable()
export class InventoryRepository implements OnModuleInit, OnModuleDestroy {
  private readonly dialect: 'postgres' | 'sqlite';
  /**
   * Where the listing is read. A SQLite file gets a read-only connection of its own: TypeORM's
   * one connection may be inside a transaction of this process, whose rows are not committed.
   */
  private reader: DataSource;
  private stored?: { columns: StoredColumn[]; setSql: [string, string] };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    // The CLI has no rate limiter, whose module provides the clock.
    @Optional() readonly clock: Clock = new SystemClock(),
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.reader = dataSource;
  }

  /** The stored item fields' columns, from PetEntity's metadata, and the update that writes them. */
  private storedColumns(): { columns: StoredColumn[]; setSql: [string, string] } {
    if (this.stored) return this.stored;
    const metadata = this.dataSource.getMetadata(PetEntity);
    const columns = STORED_FIELDS.map((field) => {
      const column = metadata.findColumnWithPropertyName(field)!;
      const type = this.dataSource.driver.normalizeType(column);
      return { field, name: column.databaseName, type };
    });
    const names = columns.map((column) => `"${column.name}"`);
    const setSql: [string, string] = [
      `WITH v (id, ${names.join(', ')}) AS (`,
      `) UPDATE pets SET ${names.map((name) => `${name} = v.${name}`).join(', ')},
         updated_at = CURRENT_TIMESTAMP FROM v WHERE pets.id = v.id`,
    ];
    return (this.stored = { columns, setSql });
  }

  async onModuleInit(): Promise<void> {
    const options = this.dataSource.options;
    if (options.type !== 'better-sqlite3' || options.database === ':memory:') return;
    this.reader = await new DataSource({
      type: 'better-sqlite3',
      database: options.database,
      readonly: true,
      timeout: options.timeout,
      entities: [PetEntity, InventoryChangeEntity],
    }).initialize();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.reader !== this.dataSource) await this.reader.destroy();
  }

  /** Pets as InventoryRows, ids exact: better-sqlite3 would round them as numbers (int64.ts). */
  private items(manager: EntityManager): SelectQueryBuilder<PetEntity> {
    let query = manager
      .createQueryBuilder(PetEntity, 'pet')
      .select('CAST(pet.id AS TEXT)', 'petId');
    for (const field of STORED_FIELDS) query = query.addSelect(`pet.${field}`, field);
    return query;
  }

  async all(manager: EntityManager): Promise<InventoryRow[]> {
    return this.items(manager).orderBy('pet.id').getRawMany<InventoryRow>();
  }

  /**
   * The rows of these pets, locked for update on PostgreSQL (SQLite has one writer), with the
   * units their active holds keep: a hold is created under the same lock, so they stay exact.
   */
  async lockRows(manager: EntityManager, petIds: readonly string[]): Promise<InventoryRow[]> {
    if (petIds.length === 0) return [];
    let query = this.items(manager).where('pet.id IN (:...ids)', { ids: petIds }).orderBy('pet.id');
    if (this.dialect === 'postgres') query = query.setLock('pessimistic_write');
    const rows = await query.getRawMany<InventoryRow>();
    return this.withHeld(rows, await this.held(manager, petIds));
  }

  withHeld(rows: InventoryRow[], held: HeldUnits): InventoryRow[] {
    if (held.units.size === 0) return rows;
    return rows.map((row) => {
      const units = held.units.get(row.petId);
      return units === undefined ? row : { ...row, held: units };
    });
  }

  /**
   * The units of active holds, of these pets or all: a hold whose `expires_at` has come keeps
   * nothing, whatever its stored status (contract: it ends at that instant on every instance).
   */
  async held(manager: EntityManager, petIds?: readonly string[]): Promise<HeldUnits> {
    const now = this.clock.now();
    const params: unknown[] = [now];
    let sql = `SELECT CAST(pet_id AS TEXT) AS "petId", SUM(quantity) AS "units",
      MIN(expires_at) AS "until" FROM holds WHERE status = 'active' AND expires_at > ${this.param(1)}`;
    if (petIds !== undefined) {
      if (petIds.length === 0) return { units: new Map(), until: undefined };
      sql += ` AND pet_id IN (${petIds.map((_, i) => this.param(i + 2)).join(', ')})`;
      params.push(...petIds);
    }
    const found = (await manager.query(`${sql} GROUP BY pet_id`, params)) as {
      petId: string;
      units: string | number;
      until: string | number;
    }[];
    let until: number | undefined;
    const units = new Map<string, number>();
    for (const row of found) {
      units.set(row.petId, Number(row.units));
      until = Math.min(until ?? Infinity, Number(row.until));
    }
    return { units, until };
  }

  private param(index: number): string {
    return this.dialect === 'postgres' ? `$${index}` : '?';
  }

  async find(petId: bigint, manager = this.dataSource.manager): Promise<InventoryRow | undefined> {
    return this.items(manager)
      .where('pet.id = :id', { id: petId.toString() })
      .getRawOne<InventoryRow>();
  }

  async findPet(
    id: bigint,
  ): Promise<{ id: string; name: string | null; status: PetStatus } | undefined> {
    return this.dataSource.manager
      .createQueryBuilder(PetEntity, 'pet')
      .select('CAST(pet.id AS TEXT)', 'id')
      .addSelect('pet.name', 'name')
      .addSelect('pet.status', 'status')
      .where('pet.id = :id', { id: id.toString() })
      .getRawOne();
  }

  count(manager = this.dataSource.manager): Promise<number> {
    return manager.count(PetEntity);
  }

  /** The counter's value; on PostgreSQL it stays locked until the transaction ends. */
  async lockCounter(manager: EntityManager): Promise<bigint> {
    const [row] = (await manager.query(COUNTER_SQL[this.dialect])) as { version: string }[];
    return BigInt(row.version);
  }

  /** The last committed change's id: every change up to it is visible to this read. */
  version(): Promise<bigint> {
    return this.counter(this.reader.manager);
  }

  private async counter(manager: EntityManager): Promise<bigint> {
    const [row] = (await manager.query(VERSION_SQL[this.dialect])) as { version: string }[];
    return BigInt(row?.version ?? 0);
  }

  /** Reads committed rows only, from one snapshot. */
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return readSnapshot(this.reader, work);
  }

  /**
   * Consistent rows and the version they show, valid until `until` (Unix ms) at most: when the
   * first of the active holds ends, `available` changes with no write.
   */
  snapshot(): Promise<{ version: bigint; rows: InventoryRow[]; until: number | undefined }> {
    return this.read(async (manager) => {
      const version = await this.counter(manager);
      const held = await this.held(manager);
      return { version, rows: this.withHeld(await this.all(manager), held), until: held.until };
    });
  }

  /**
   * Moves the counter on without a change in the feed (a hold began or ended): the listing is
   * read again on every instance. Call with the counter locked (lockCounter).
   */
  async bump(manager: EntityManager, counter: bigint): Promise<bigint> {
    return this.appendChanges(manager, counter, [], true);
  }

  /** Writes the stored fields of these pets, each once, in one statement per chunk. */
  async setStocks(manager: EntityManager, rows: readonly InventoryRow[]): Promise<void> {
    if (rows.length === 0) return;
    const { columns, setSql } = this.storedColumns();
    const types = ['bigint', ...columns.map((column) => column.type)];
    for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
      const { sql, params } = rowsQuery(
        this.dialect === 'postgres',
        rows
          .slice(i, i + WRITE_CHUNK)
          .map((row) => [row.petId, ...columns.map((column) => row[column.field] ?? null)]),
        types,
        true,
      );
      await manager.query(setSql[0] + sql + setSql[1], params);
    }
  }

  /**
   * Appends changes made after the counter stood at `counter`, in order, with the next ids; the
   * counter ends at the last one (migration InventoryHistory), or one past `counter` when only
   * fields outside the history were written (`rowsWritten`), so the listing is read again.
   */
  async appendChanges(
    manager: EntityManager,
    counter: bigint,
    changes: readonly StockChange[],
    rowsWritten = false,
  ): Promise<bigint> {
    const changedAt = new Date().toISOString();
    const rows = changes.map((change, i) => [
      (counter + BigInt(i + 1)).toString(),
      change.after.petId,
      change.before?.quantity ?? null,
      change.after.quantity,
      change.before?.status ?? null,
      change.after.status,
      change.reason,
      change.reference,
      change.source,
      change.keyId,
      change.requestId,
      changedAt,
    ]);
    for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
      const { sql, params } = rowsQuery(
        this.dialect === 'postgres',
        rows.slice(i, i + WRITE_CHUNK),
        CHANGE_TYPES,
      );
      await manager.query(
        `INSERT INTO inventory_changes (id, pet_id, previous_quantity, quantity, previous_status,
           status, reason, reference, source, key_id, request_id, changed_at) ${sql}`,
        params,
      );
    }
    // The triggers bump the counter once per changed row, not per change: a pet changed by
    // several lines is written once. It is locked (or SQLite's one writer), so set it outright.
    const last = counter + BigInt(changes.length || (rowsWritten ? 1 : 0));
    await manager.query(SET_COUNTER_SQL[this.dialect], [last.toString()]);
    return last;
  }

  /** Inserts or updates pets; a change for each pet created or changed. */
  async upsertBatch(manager: EntityManager, rows: ImportRow[]): Promise<number> {
    const counter = await this.lockCounter(manager);
    const ids = rows.map((row) => row.petId.toString());
    const existing = new Map((await this.lockRows(manager, ids)).map((row) => [row.petId, row]));
    const names = new Map(
      (
        await manager
          .createQueryBuilder(PetEntity, 'pet')
          .select('CAST(pet.id AS TEXT)', 'id')
          .addSelect('pet.name', 'name')
          .where('pet.id IN (:...ids)', { ids })
          .getRawMany<{ id: string; name: string | null }>()
      ).map((row) => [row.id, row.name]),
    );
    const { columns } = this.storedColumns();
    // A field the row leaves out keeps its value, as in a PATCH.
    const afters = rows.map((row, i): InventoryRow => {
      const set: Record<string, unknown> = {};
      for (const field of SETTABLE_FIELDS) if (row[field] !== undefined) set[field] = row[field];
      return {
        ...existing.get(ids[i]),
        ...set,
        petId: ids[i],
        quantity: row.quantity,
        status: row.status,
      };
    });
    // Not read back (updateEntity): the ids would come back as rounded numbers on SQLite.
    await manager
      .createQueryBuilder()
      .insert()
      .into(PetEntity)
      .values(
        rows.map((row, i) => {
          const values: Record<string, unknown> = {
            id: row.petId,
            name: row.name ?? names.get(ids[i]) ?? null,
          };
          for (const { field } of columns) values[field] = afters[i][field] ?? null;
          return values;
        }),
      )
      .orUpdate(['name', ...columns.map((column) => column.name), 'updated_at'], ['id'])
      .updateEntity(false)
      .execute();
    const changes: StockChange[] = [];
    let moved = false;
    rows.forEach((_, i) => {
      const before = existing.get(ids[i]);
      const after = afters[i];
      if (!before || !sameItem(before, after)) moved = true;
      if (before && sameStock(before, after)) return;
      changes.push({
        before,
        after,
        reason: null,
        reference: null,
        source: 'import',
        keyId: null,
        requestId: null,
      });
    });
    await this.appendChanges(manager, counter, changes, moved);
    return rows.length - existing.size;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return writeTransaction(this.dataSource, work);
  }
}
