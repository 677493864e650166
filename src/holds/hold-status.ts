export const HOLD_STATUSES = ['active', 'confirmed', 'released', 'expired'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];
