import type { InventoryRow } from '../inventory-row.js';
import { nextStatus } from '../pet-status.js';
import { ifMatchAllows, type IfMatch } from './preconditions.js';

export const CHANGE_REASONS = ['received', 'returned', 'correction', 'damaged', 'other'] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

/** Who asked for a change: the key and the request, recorded with it. */
export interface Caller {
  keyId: number | null;
  requestId: string | null;
}

/** One requested stock update, with what the history records about it. */
export interface StockWrite {
  petId: bigint;
  quantity: number;
  ifMatch?: IfMatch;
  reason: ChangeReason | null;
  reference: string | null;
  caller: Caller;
}

export type WriteOutcome =
  | { kind: 'not_found' }
  /** If-Match did not match: nothing was written; `row` is the current state. */
  | { kind: 'precondition_failed'; row: InventoryRow }
  /**
   * `version`: the write counter this change produced, the id of its InventoryChange; absent
   * when nothing changed, or when it is not final yet (inside a transaction of this process).
   */
  | { kind: 'written'; row: InventoryRow; version?: bigint };

export type Decision =
  | { kind: 'precondition_failed' }
  | { kind: 'unchanged'; row: InventoryRow }
  | { kind: 'changed'; row: InventoryRow };

/** The stock rules for one update of the current row: If-Match, then the status rule. */
export function decide(current: InventoryRow, write: StockWrite): Decision {
  if (!ifMatchAllows(write.ifMatch, current)) return { kind: 'precondition_failed' };
  const row: InventoryRow = {
    petId: current.petId,
    quantity: write.quantity,
    status: nextStatus(current.status, write.quantity),
  };
  return row.quantity === current.quantity && row.status === current.status
    ? { kind: 'unchanged', row }
    : { kind: 'changed', row };
}
