export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

/**
 * The contract's status rule for a stock update: quantity 0 -> sold; a positive quantity on a
 * sold entry -> available; otherwise (available or pending) the status stays.
 */
export function nextStatus(current: PetStatus, quantity: number): PetStatus {
  if (quantity === 0) return 'sold';
  if (current === 'sold') return 'available';
  return current;
}

/**
 * `nextStatus` as one SQL expression, so an update is a single atomic statement
 * (no read-then-write race between concurrent PATCHes). Kept beside the function it mirrors;
 * the e2e suite checks both against every combination.
 */
export const NEXT_STATUS_SQL = `CASE WHEN :quantity = 0 THEN 'sold' WHEN status = 'sold' THEN 'available' ELSE status END`;
