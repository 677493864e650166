import type { InventoryRow } from '../inventory-row.js';
import { nextStatus } from '../pet-status.js';
import { ifMatchAllows, type IfMatch } from './preconditions.js';

export const CHANGE_REASONS = [
  'received',
  'returned',
  'correction',
  'damaged',
  'sold',
  'other',
] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

export interface Caller {
  keyId: number | null;
  requestId: string | null;
}

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
  | { kind: 'precondition_failed'; row: InventoryRow }
  /** `version` is absent when nothing changed, or inside an uncommitted import transaction. */
  | { kind: 'written'; row: InventoryRow; version?: bigint };

export type Decision =
  | { kind: 'precondition_failed' }
  | { kind: 'unchanged'; row: InventoryRow }
  | { kind: 'changed'; row: InventoryRow };

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
