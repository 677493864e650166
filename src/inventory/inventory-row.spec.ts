import { describe, expect, it } from 'vitest';
import {
  inventoryItemJson,
  ITEM_FIELDS,
  sameItem,
  sameStock,
  SETTABLE_FIELDS,
  settableOf,
  STORED_FIELDS,
} from './inventory-row.js';

describe('the item fields, read from the DTOs and the entity', () => {
  it('should list InventoryItem fields in its order, the stored ones, and what a PATCH may set', () => {
    expect(ITEM_FIELDS).toEqual(['quantity', 'status']);
    expect(STORED_FIELDS).toEqual(['quantity', 'status']);
    expect(SETTABLE_FIELDS).toEqual([]);
    expect(settableOf({ quantity: 3, reason: 'received', reference: 'po-1' })).toEqual({});
  });

  it('should leave a field without value out of the JSON, as an optional field', () => {
    const row = { petId: '9007199254740993', quantity: 1, status: 'available' as const };
    expect(inventoryItemJson({ ...row, name: 'ignored' })).toBe(
      '{"petId":9007199254740993,"quantity":1,"status":"available"}',
    );
  });

  it('should tell a change of stock from a change of the row', () => {
    const row = { petId: '1', quantity: 1, status: 'available' as const };
    expect(sameStock(row, { ...row, quantity: 2 })).toBe(false);
    expect(sameItem(row, { ...row, status: 'pending' })).toBe(false);
    expect(sameItem(row, { ...row })).toBe(true);
  });
});
