import type { PetStatus } from '../pet-status.js';

export const CHANGE_SOURCES = ['api', 'import'] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

export interface ChangeRow {
  id: string;
  petId: string;
  previousQuantity: number | null;
  quantity: number;
  previousStatus: PetStatus | null;
  status: PetStatus;
  reason: string | null;
  reference: string | null;
  source: ChangeSource;
  keyId: number | null;
  requestId: string | null;
  changedAt: string | Date;
}
