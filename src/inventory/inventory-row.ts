import type { PetStatus } from './pet-status.js';

// `petId` is int64 text, exact on every driver.
export interface InventoryRow {
  petId: string;
  quantity: number;
  status: PetStatus;
}

export interface ImportRow {
  petId: bigint;
  quantity: number;
  status: PetStatus;
  name: string | null;
}
