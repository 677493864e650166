import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { runSql, writeTransaction } from '../../database/sql.js';
import { changeParams, insertChangesSql } from '../history/change-record.js';
import type { ImportRow, InventoryRow } from '../inventory-row.js';
import type { PetStatus } from '../pet-status.js';
import {
  createListingReader,
  ITEM_COLUMNS,
  type ListingReader,
} from '../listing/listing-reader.js';
import { sqliteHandle } from '../sqlite-handle.js';
import { PostgresStockWriter } from './postgres-stock-writer.js';
import { SqliteStockWriter } from './sqlite-stock-writer.js';
import type { StockWrite, WriteOutcome } from './stock-write.js';

const CURRENT_SQL = `SELECT ${ITEM_COLUMNS} FROM pets WHERE id = :petId`;
// The counter's row is locked before any pet row, so a transaction's changes take the versions
// after it in commit order.
const LOCK_VERSION_SQL = {
  postgres: `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE slot = 0 FOR UPDATE`,
  sqlite: `SELECT CAST(version AS TEXT) AS version FROM inventory_version WHERE id = 1`,
};

const DEADLOCK_RETRIES = 3;

function outcomeOf(result: {
  outcome: 'not_found' | 'precondition_failed' | 'unchanged' | 'written';
  petId: string;
  quantity: number;
  status: PetStatus;
  version: string | null;
}): WriteOutcome {
  if (result.outcome === 'not_found') return { kind: 'not_found' };
  const row: InventoryRow = {
    petId: result.petId,
    quantity: Number(result.quantity),
    status: result.status,
  };
  if (result.outcome === 'precondition_failed') return { kind: 'precondition_failed', row };
  if (result.outcome === 'unchanged') return { kind: 'written', row };
  return { kind: 'written', row, version: BigInt(result.version!) };
}

function isDeadlock(err: unknown): boolean {
  return (err as { driverError?: { code?: string } }).driverError?.code === '40P01';
}

/** The one owner of the `pets` table. */
@Injectable()
export class InventoryRepository implements OnModuleInit, OnModuleDestroy {
  private reader: ListingReader | undefined;
  private sqliteWriter: SqliteStockWriter | undefined;
  private readonly postgresWriter = new PostgresStockWriter((writes) => this.writeMany(writes));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  get listing(): ListingReader {
    this.reader ??= createListingReader(this.dataSource, (sql, params = {}) =>
      this.query(sql, params),
    );
    return this.reader;
  }

  onModuleInit(): void {
    this.sqliteWriter = this.createSqliteWriter();
  }

  async onModuleDestroy(): Promise<void> {
    await this.reader?.close();
  }

  async find(petId: bigint, manager?: EntityManager): Promise<InventoryRow | undefined> {
    const [row] = await this.query<InventoryRow>(CURRENT_SQL, { petId: petId.toString() }, manager);
    return row && { ...row, quantity: Number(row.quantity) };
  }

  async findPet(
    id: bigint,
  ): Promise<{ id: string; name: string | null; status: PetStatus } | undefined> {
    const [row] = await this.query<{ id: string; name: string | null; status: PetStatus }>(
      `SELECT CAST(id AS TEXT) AS id, name, status FROM pets WHERE id = :id`,
      { id: id.toString() },
    );
    return row;
  }

  async write(write: StockWrite): Promise<WriteOutcome> {
    if (this.sqliteWriter) return this.sqliteWriter.write(write);
    return this.postgresWriter.write(write);
  }

  private async writeMany(writes: StockWrite[]): Promise<WriteOutcome[]> {
    const changedAt = new Date().toISOString();
    const params = {
      petIds: writes.map((write) => write.petId.toString()),
      quantities: writes.map((write) => write.quantity),
      ifMatches: writes.map((write) =>
        write.ifMatch === undefined || write.ifMatch === '*' ? null : JSON.stringify(write.ifMatch),
      ),
      reasons: writes.map((write) => write.reason),
      references: writes.map((write) => write.reference),
      keyIds: writes.map((write) => write.caller.keyId),
      requestIds: writes.map((write) => write.caller.requestId),
      changedAt: writes.map(() => changedAt),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const results = await this.query<{
          n: number;
          outcome: 'not_found' | 'precondition_failed' | 'unchanged' | 'written';
          petId: string;
          quantity: number;
          status: PetStatus;
          version: string | null;
        }>(
          `SELECT o_n AS n, o_outcome AS outcome, o_pet_id AS "petId", o_quantity AS quantity, o_status AS status, o_version AS version
           FROM inventory_write_many(:petIds, :quantities, :ifMatches, :reasons, :references, :keyIds, :requestIds, :changedAt)`,
          params,
        );
        const outcomes: WriteOutcome[] = [];
        for (const result of results) outcomes[result.n - 1] = outcomeOf(result);
        return outcomes;
      } catch (err) {
        if (attempt >= DEADLOCK_RETRIES || !isDeadlock(err)) throw err;
      }
    }
  }

  private async lockVersion(manager: EntityManager): Promise<bigint> {
    const sql =
      this.dataSource.options.type === 'postgres'
        ? LOCK_VERSION_SQL.postgres
        : LOCK_VERSION_SQL.sqlite;
    const [row] = await this.query<{ version: string }>(sql, {}, manager);
    return BigInt(row.version);
  }

  // better-sqlite3 is synchronous: prepared statements on TypeORM's connection are what TypeORM
  // would run, without re-parsing the SQL per call.
  private createSqliteWriter(): SqliteStockWriter | undefined {
    const sqlite = sqliteHandle(this.dataSource);
    if (!sqlite) return undefined;
    return new SqliteStockWriter(sqlite.connection);
  }

  async count(manager?: EntityManager): Promise<number> {
    const [row] = await this.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM pets`,
      {},
      manager,
    );
    return Number(row.n);
  }

  async upsertBatch(manager: EntityManager, rows: ImportRow[]): Promise<number> {
    const ids = rows.map((row) => row.petId.toString());
    const version = await this.lockVersion(manager);
    const existing = new Map(
      (
        await this.query<InventoryRow>(
          `SELECT ${ITEM_COLUMNS} FROM pets WHERE id IN (:...ids)`,
          { ids },
          manager,
        )
      ).map((row) => [row.petId, { ...row, quantity: Number(row.quantity) }]),
    );
    const params: Record<string, unknown> = {};
    const values = rows.map((row, i) => {
      Object.assign(params, {
        [`id${i}`]: ids[i],
        [`n${i}`]: row.name,
        [`s${i}`]: row.status,
        [`q${i}`]: row.quantity,
      });
      return `(:id${i}, :n${i}, :s${i}, :q${i}, CURRENT_TIMESTAMP)`;
    });
    await this.query(
      `INSERT INTO pets (id, name, status, quantity, updated_at) VALUES ${values.join(', ')}
       ON CONFLICT (id) DO UPDATE SET name = COALESCE(excluded.name, pets.name), status = excluded.status,
         quantity = excluded.quantity, updated_at = excluded.updated_at`,
      params,
      manager,
    );
    const changedAt = new Date().toISOString();
    const context = {
      reason: null,
      reference: null,
      source: 'import',
      keyId: null,
      requestId: null,
    } as const;
    let next = version;
    const changes: Record<string, unknown>[] = [];
    for (let i = 0; i < rows.length; i++) {
      const before = existing.get(ids[i]);
      const row: InventoryRow = {
        petId: ids[i],
        quantity: rows[i].quantity,
        status: rows[i].status,
      };
      if (before && before.quantity === row.quantity && before.status === row.status) continue;
      changes.push(changeParams(++next, before, row, context, changedAt));
    }
    if (changes.length > 0) {
      const [sql, params] = insertChangesSql(changes);
      await this.query(sql, params, manager);
    }
    const after = await this.lockVersion(manager);
    // Each changed row bumped the counter once (migration InventoryHistory): anything else
    // would give two changes one id, or leave a version without its change.
    if (after !== next)
      throw new Error(`The write counter moved by ${after - version}, not ${next - version}`);
    return rows.length - existing.size;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return writeTransaction(this.dataSource, work);
  }

  private query<T>(
    sql: string,
    params: Record<string, unknown>,
    manager?: EntityManager,
  ): Promise<T[]> {
    return runSql<T>(this.dataSource, sql, params, manager);
  }
}
