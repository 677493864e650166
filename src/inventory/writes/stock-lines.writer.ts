import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runSql, writeTransaction } from '../../database/sql.js';
import { MAX_QUANTITY } from '../dto/inventory-update.dto.js';
import type { InventoryRow } from '../inventory-row.js';
import { ITEM_COLUMNS } from '../listing/listing-reader.js';
import { nextStatus } from '../pet-status.js';
import { ifMatchAllows } from './preconditions.js';
import type {
  InTransaction,
  LineRefusal,
  StockLine,
  StockLinesOutcome,
  StockLinesWriter,
} from './stock-lines.js';
import type { Caller } from './stock-write.js';

const UPDATE_SQL = `UPDATE pets SET quantity = :quantity, status = :status, updated_at = CURRENT_TIMESTAMP WHERE id = :petId`;
// The change takes its id from the write counter the update just bumped (migration
// InventoryHistory), which the transaction holds to commit: ids follow commit order.
const RECORD_SQL = {
  postgres: `INSERT INTO inventory_changes (id, pet_id, previous_quantity, quantity, previous_status, status,
      reason, reference, source, key_id, request_id, changed_at)
    SELECT version, :petId, :previousQuantity, :quantity, :previousStatus, :status, :reason, :reference, 'api',
      :keyId, :requestId, :changedAt FROM inventory_version WHERE slot = 0 RETURNING id`,
  sqlite: `INSERT INTO inventory_changes (id, pet_id, previous_quantity, quantity, previous_status, status,
      reason, reference, source, key_id, request_id, changed_at)
    SELECT version, :petId, :previousQuantity, :quantity, :previousStatus, :status, :reason, :reference, 'api',
      :keyId, :requestId, :changedAt FROM inventory_version WHERE id = 1 RETURNING id`,
};
const DEADLOCK_RETRIES = 3;

interface Step {
  line: StockLine;
  before: InventoryRow;
  after: InventoryRow;
}

function isDeadlock(err: unknown): boolean {
  return (err as { driverError?: { code?: string } }).driverError?.code === '40P01';
}

/** Decides every line against the state the lines before it leave; refuses all or none. */
export function planLines(
  lines: readonly StockLine[],
  current: ReadonlyMap<string, InventoryRow>,
): { steps: Step[]; refusals: LineRefusal[] } {
  const state = new Map(current);
  const steps: Step[] = [];
  const refusals: LineRefusal[] = [];
  lines.forEach((line, index) => {
    const before = state.get(line.petId.toString());
    if (!before) return refusals.push({ index, code: 'not_found' });
    if (!ifMatchAllows(line.ifMatch, before))
      return refusals.push({ index, code: 'precondition_failed', current: before });
    if (line.expectedQuantity !== undefined && before.quantity !== line.expectedQuantity)
      return refusals.push({ index, code: 'quantity_mismatch', current: before });
    const quantity = line.delta !== undefined ? before.quantity + line.delta : line.quantity!;
    if (quantity < 0) return refusals.push({ index, code: 'insufficient_stock', current: before });
    if (quantity > MAX_QUANTITY)
      return refusals.push({ index, code: 'quantity_out_of_range', current: before });
    const after: InventoryRow = {
      petId: before.petId,
      quantity,
      status: nextStatus(before.status, quantity),
    };
    state.set(after.petId, after);
    steps.push({ line, before, after });
  });
  return { steps, refusals };
}

/**
 * All lines in one transaction. Pet rows are locked in id order before the write counter (which
 * the first update takes), the order single updates take them in, so the two never deadlock.
 */
@Injectable()
export class TransactionalStockLinesWriter implements StockLinesWriter {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async applyLines(
    lines: readonly StockLine[],
    caller: Caller,
    inTransaction?: InTransaction,
  ): Promise<StockLinesOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await writeTransaction(this.dataSource, (manager) =>
          this.apply(manager, lines, caller, inTransaction),
        );
      } catch (err) {
        if (attempt >= DEADLOCK_RETRIES || !isDeadlock(err)) throw err;
      }
    }
  }

  private async apply(
    manager: EntityManager,
    lines: readonly StockLine[],
    caller: Caller,
    inTransaction: InTransaction | undefined,
  ): Promise<StockLinesOutcome> {
    const postgres = this.dataSource.options.type === 'postgres';
    const ids = [...new Set(lines.map((line) => line.petId))]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map(String);
    const rows = await this.query<InventoryRow>(
      `SELECT ${ITEM_COLUMNS} FROM pets WHERE id IN (:...ids) ORDER BY id${postgres ? ' FOR UPDATE' : ''}`,
      { ids },
      manager,
    );
    const current = new Map(
      rows.map((row) => [row.petId, { ...row, quantity: Number(row.quantity) }]),
    );
    const { steps, refusals } = planLines(lines, current);
    if (refusals.length > 0) {
      const outcome: StockLinesOutcome = { kind: 'refused', refusals };
      await inTransaction?.(manager, outcome);
      return outcome;
    }
    const changedAt = new Date().toISOString();
    for (const { line, before, after } of steps) {
      if (before.quantity === after.quantity && before.status === after.status) continue;
      await this.query(UPDATE_SQL, { ...after }, manager);
      const [recorded] = await this.query<{ id: unknown }>(
        postgres ? RECORD_SQL.postgres : RECORD_SQL.sqlite,
        {
          petId: after.petId,
          previousQuantity: before.quantity,
          quantity: after.quantity,
          previousStatus: before.status,
          status: after.status,
          reason: line.reason,
          reference: line.reference,
          keyId: caller.keyId,
          requestId: caller.requestId,
          changedAt,
        },
        manager,
      );
      // The update must not commit without its change.
      if (recorded === undefined) throw new Error('The write counter has no row');
    }
    const outcome: StockLinesOutcome = { kind: 'applied', rows: steps.map((step) => step.after) };
    await inTransaction?.(manager, outcome);
    return outcome;
  }

  private query<T>(
    sql: string,
    params: Record<string, unknown>,
    manager: EntityManager,
  ): Promise<T[]> {
    return runSql<T>(this.dataSource, sql, params, manager);
  }
}
