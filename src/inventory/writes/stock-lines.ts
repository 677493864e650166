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
 * records), done once per group for all those calls: it runs inside the group's transaction once
 * their outcomes are known, refused or applied, and answers, in call order, the error of each call
 * whose share could not be done (undefined for the others). Those calls are taken out: the group
 * is undone and committed again without them, and nothing of theirs is kept. If it throws, the
 * group fails. It writes through the manager it is given and starts no transaction of its own (on
 * SQLite one would wait for this one forever).
 */
export interface GroupWork<T> {
  /**
   * Runs first, before any line is decided (on PostgreSQL once the write counter is locked), and
   * answers, in order, the error of each call to take out at once: its lines are not decided,
   * and it is rejected with that error once the group committed.
   */
  skip?(manager: EntityManager, items: readonly T[]): Promise<readonly unknown[]>;
  run(
    manager: EntityManager,
    calls: readonly { item: T; outcome: StockLinesOutcome }[],
  ): Promise<readonly unknown[]>;
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
