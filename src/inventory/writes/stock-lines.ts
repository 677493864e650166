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
 * Work that commits or rolls back with the lines (the idempotency record): it runs inside their
 * transaction once the outcome is known, refused or applied; if it throws, nothing is kept. It
 * writes through the manager it is given and starts no transaction of its own (on SQLite one
 * would wait for this one forever).
 */
export type InTransaction = (manager: EntityManager, outcome: StockLinesOutcome) => Promise<void>;

/** Applies all lines in one transaction, in line order, or none of them (contract: batches). */
export interface StockLinesWriter {
  applyLines(
    lines: readonly StockLine[],
    caller: Caller,
    inTransaction?: InTransaction,
  ): Promise<StockLinesOutcome>;
}
