import type { EntityManager } from 'typeorm';
import type { InventoryRow } from '../inventory-row.js';
import type { IfMatch } from './preconditions.js';
import type { Caller, ChangeReason } from './stock-write.js';

/** One line of a stock change: a set (`quantity`) or an adjustment (`delta`), with its preconditions. */
export interface StockLine {
  petId: bigint;
  /** Exactly one of `quantity` and `delta` is set. */
  quantity?: number;
  delta?: number;
  /** Other stored fields to set (SETTABLE_FIELDS); one left out keeps its value. */
  set?: Readonly<Record<string, unknown>>;
  expectedQuantity?: number;
  ifMatch?: IfMatch;
  reason: ChangeReason | null;
  reference: string | null;
}

export type LineRefusalCode =
  | 'not_found'
  | 'precondition_failed'
  | 'quantity_mismatch'
  | 'insufficient_stock'
  | 'quantity_out_of_range';

export interface LineRefusal {
  index: number;
  code: LineRefusalCode;
  /** The pet's current state, for every code but `not_found`. */
  current?: InventoryRow;
}

export type StockLinesOutcome =
  { kind: 'applied'; rows: InventoryRow[] } | { kind: 'refused'; refusals: LineRefusal[] };

/**
 * Work that commits or rolls back with the lines of the calls that carry it (their idempotency
 * records), done once per group for all those calls, inside the group's transaction. It writes
 * through the manager it is given and starts no transaction of its own (on SQLite one would wait
 * for this one forever). If it throws, the group fails.
 */
export interface GroupWork<T> {
  /**
   * Runs once the lines are decided, refused or applied, before any of them is written, and
   * answers, in call order, the error of each call whose share it could not do (undefined for
   * the others), having written nothing for that call and left the transaction usable (a
   * conflict clause, not a failed statement: PostgreSQL refuses every statement after one). Those
   * calls are taken out: none of their lines is written, and each is rejected with its error once
   * the group committed.
   */
  run(
    manager: EntityManager,
    calls: readonly { item: T; outcome: StockLinesOutcome }[],
  ): Promise<readonly unknown[]>;
  /**
   * After calls were taken out, the group's other calls that carry this work, with their lines
   * decided again without them (a later line of the same pet may now meet another quantity).
   */
  revise(
    manager: EntityManager,
    calls: readonly { item: T; outcome: StockLinesOutcome }[],
  ): Promise<void>;
}

/** A call's share of some work done in its group's transaction. */
export interface InTransaction<T = unknown> {
  work: GroupWork<T>;
  item: T;
}

/** Applies all lines in one transaction, in line order, or none of them (contract: batches). */
export interface StockLinesWriter {
  applyLines(
    lines: readonly StockLine[],
    caller: Caller,
    inTransaction?: InTransaction,
  ): Promise<StockLinesOutcome>;
}
