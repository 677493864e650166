import type { PetEntity } from './pet.entity.js';
import type { PetStatus } from './pet-status.js';

/**
 * The columns of `pets` an InventoryItem shows besides its id: read, written, compared and
 * serialised from this one list.
 */
export const STOCK_FIELDS = ['quantity', 'status'] as const satisfies readonly (keyof PetEntity)[];
export type StockFields = Pick<PetEntity, (typeof STOCK_FIELDS)[number]>;

// `petId` is int64 text, exact on every driver.
export interface InventoryRow extends StockFields {
  petId: string;
}

export function stockOf(row: StockFields): StockFields {
  return Object.fromEntries(STOCK_FIELDS.map((field) => [field, row[field]])) as StockFields;
}

export function sameStock(a: StockFields, b: StockFields): boolean {
  return STOCK_FIELDS.every((field) => a[field] === b[field]);
}

export interface ImportRow {
  petId: bigint;
  quantity: number;
  status: PetStatus;
  name: string | null;
}
