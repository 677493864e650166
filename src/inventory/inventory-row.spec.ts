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
    expect(ITEM_FIELDS).toEqual(['quantity', 'status', 'available']);
    expect(STORED_FIELDS).toEqual(['quantity', 'status']);
    expect(SETTABLE_FIELDS).toEqual([]);
    expect(settableOf({ quantity: 3, reason: 'received', reference: 'po-1' })).toEqual({});
  });

  it('should leave a field without value out of the JSON, as an optional field', () => {
    const row = { petId: '9007199254740993', quantity: 1, status: 'available' as const };
    expect(inventoryItemJson({ ...row, name: 'ignored' })).toBe(
      '{"petId":9007199254740993,"quantity":1,"status":"available","available":1}',
    );
  });

  it('should write available as quantity minus the units held, never below 0', () => {
    const row = { petId: '1', quantity: 5, status: 'available' as const };
    expect(inventoryItemJson({ ...row, held: 2 })).toBe(
      '{"petId":1,"quantity":5,"status":"available","available":3}',
    );
    expect(inventoryItemJson({ ...row, quantity: 1, held: 2 })).toBe(
      '{"petId":1,"quantity":1,"status":"available","available":0}',
    );
  });

  it('should tell a change of stock from a change of the row', () => {
    const row = { petId: '1', quantity: 1, status: 'available' as const };
    expect(sameStock(row, { ...row, quantity: 2 })).toBe(false);
    expect(sameItem(row, { ...row, status: 'pending' })).toBe(false);
    expect(sameItem(row, { ...row })).toBe(true);
  });
});
