import type { PetStatus } from './pet-status.js';

/** A stock row as SQL returns it; `petId` is int64 text, exact on every driver. */
export interface InventoryRow {
  petId: string;
  quantity: number;
  status: PetStatus;
}

/** One row of an inventory import file, checked. */
export interface ImportRow {
  petId: bigint;
  quantity: number;
  status: PetStatus;
  name: string | null;
}
