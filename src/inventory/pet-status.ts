export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

// The contract's status rule: quantity 0 -> sold; positive on sold -> available; else unchanged.
export function nextStatus(current: PetStatus, quantity: number): PetStatus {
  if (quantity === 0) return 'sold';
  if (current === 'sold') return 'available';
  return current;
}

// One SQL expression, so an update is a single atomic statement (no read-then-write race between
// concurrent PATCHes); the e2e suite checks it against nextStatus.
export const NEXT_STATUS_SQL = `CASE WHEN :quantity = 0 THEN 'sold' WHEN status = 'sold' THEN 'available' ELSE status END`;
