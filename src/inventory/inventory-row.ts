import { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryUpdate } from './dto/inventory-update.dto.js';
import { PetEntity } from './pet.entity.js';
import type { PetStatus } from './pet-status.js';

// A class's own properties are its declared fields: TypeScript defines them on every instance for
// target ES2022 and later (useDefineForClassFields), as SWC does. Read once, at load.
const fieldsOf = (type: new () => object): string[] => Object.keys(new type());

const PET_COLUMNS = new Set(fieldsOf(PetEntity));

/** InventoryItem's fields besides `petId`, in its order. */
export const ITEM_FIELDS: readonly string[] = fieldsOf(InventoryItem).filter((f) => f !== 'petId');

/** The item fields that are columns of `pets`: read, written, compared and serialised from here. */
export const STORED_FIELDS: readonly string[] = ITEM_FIELDS.filter((f) => PET_COLUMNS.has(f));

/**
 * What a `PATCH` (and an import row) may set besides the stock: InventoryUpdate's stored fields.
 * Left out, a field keeps its value.
 */
export const SETTABLE_FIELDS: readonly string[] = fieldsOf(InventoryUpdate).filter(
  (f) => f !== 'quantity' && STORED_FIELDS.includes(f),
);

/** A pet's stored item fields; `petId` is int64 text, exact on every driver. */
export interface InventoryRow {
  petId: string;
  quantity: number;
  status: PetStatus;
  /** Units of the pet's active holds when the row was read; absent: none. */
  held?: number;
  [field: string]: unknown;
}

/** The stored fields of a row, an absent value (null) left out, as InventoryItem's optional fields are. */
export function itemFields(row: InventoryRow): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of STORED_FIELDS) {
    const value = row[field];
    if (value !== null && value !== undefined) fields[field] = value;
  }
  return fields;
}

/** Contract: quantity minus the units of active holds, never below 0 (a count may fall under them). */
export function availableOf(row: InventoryRow): number {
  return Math.max(0, row.quantity - (row.held ?? 0));
}

/** A row as the InventoryItem the API answers. */
export function itemOf(row: InventoryRow): InventoryItem {
  return {
    petId: BigInt(row.petId),
    ...itemFields(row),
    available: availableOf(row),
  } as InventoryItem;
}

/** One InventoryItem as JSON; the id is already exact decimal text, written as a number. */
export function inventoryItemJson(row: InventoryRow): string {
  const fields = JSON.stringify(itemFields(row)).slice(1, -1);
  return `{"petId":${row.petId},${fields},"available":${availableOf(row)}}`;
}

/** Quantity and status: what the stock history records (contract: a change of either). */
export function sameStock(a: InventoryRow, b: InventoryRow): boolean {
  return a.quantity === b.quantity && a.status === b.status;
}

/** Every stored field: whether the row must be written. */
export function sameItem(a: InventoryRow, b: InventoryRow): boolean {
  return STORED_FIELDS.every((field) => (a[field] ?? null) === (b[field] ?? null));
}

/** The settable fields a body carries (undefined: left out). */
export function settableOf(body: object): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const field of SETTABLE_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined) set[field] = value;
  }
  return set;
}

export interface ImportRow {
  petId: bigint;
  quantity: number;
  status: PetStatus;
  name: string | null;
  /** The settable fields the row carries. */
  [field: string]: unknown;
}
