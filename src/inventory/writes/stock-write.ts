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
