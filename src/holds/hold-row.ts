import type { Hold } from './dto/hold.dto.js';
import type { HoldStatus } from './hold-status.js';

/** A stored hold; `petId` is int64 text, instants are Unix milliseconds. */
export interface HoldRow {
  holdId: string;
  petId: string;
  quantity: number;
  status: HoldStatus;
  reference: string | null;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
}

/** Contract: an active hold ends at `expiresAt`, whatever a sweep has written yet. */
export function statusAt(row: HoldRow, now: number): HoldStatus {
  return row.status === 'active' && row.expiresAt <= now ? 'expired' : row.status;
}

const instant = (ms: number) => new Date(ms).toISOString();

export function holdOf(row: HoldRow, now: number): Hold {
  const status = statusAt(row, now);
  const endedAt = status === 'active' ? null : (row.endedAt ?? row.expiresAt);
  return {
    holdId: row.holdId,
    petId: BigInt(row.petId),
    quantity: row.quantity,
    status,
    reference: row.reference,
    createdAt: instant(row.createdAt),
    expiresAt: instant(row.expiresAt),
    endedAt: endedAt === null ? null : instant(endedAt),
  };
}

const HOLD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a path's hold id could name a hold at all (else 404 without a query). */
export function isHoldId(value: string): boolean {
  return HOLD_ID.test(value);
}
