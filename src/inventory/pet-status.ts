export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

// The contract's status rule: quantity 0 -> sold; positive on sold -> available; else unchanged.
export function nextStatus(current: PetStatus, quantity: number): PetStatus {
  if (quantity === 0) return 'sold';
  if (current === 'sold') return 'available';
  return current;
}
