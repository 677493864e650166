import { describe, expect, it } from 'vitest';
import { decodeCursor } from '../history/change-cursor.js';
import { InventoryListing, inventoryItemsJson } from './inventory-listing.js';

describe('inventoryItemsJson', () => {
  it('should write exactly {petId, quantity, status} with int64 ids as number text', () => {
    const json = inventoryItemsJson([
      { petId: '9223372036854775807', quantity: 0, status: 'sold' },
      { petId: '1', quantity: 2147483647, status: 'available' },
    ]);
    expect(json).toBe(
      '[{"petId":9223372036854775807,"quantity":0,"status":"sold","available":0},{"petId":1,"quantity":2147483647,"status":"available","available":2147483647}]',
    );
  });

  it('should write an empty array for no rows', () => {
    expect(inventoryItemsJson([])).toBe('[]');
  });
});

describe('InventoryListing', () => {
  const rows = [
    { petId: '1', quantity: 5, status: 'available' as const },
    { petId: '9007199254740993', quantity: 0, status: 'sold' as const },
  ];

  it('should find one item by its exact int64 id', () => {
    const listing = new InventoryListing(7n, rows);
    expect(listing.item(9007199254740993n)).toEqual(rows[1]);
    expect(listing.item(9007199254740992n)).toBeUndefined();
  });

  it('should tag equal listings equally and different ones differently', () => {
    const a = new InventoryListing(1n, rows);
    expect(new InventoryListing(2n, rows).etag).toBe(a.etag);
    expect(new InventoryListing(1n, [rows[0]]).etag).not.toBe(a.etag);
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('should be valid until the first active hold it counts ends, or always without one', () => {
    expect(new InventoryListing(1n, rows).validAt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const held = new InventoryListing(1n, [{ ...rows[0], held: 2 }], 1000);
    expect(held.validAt(999)).toBe(true);
    expect(held.validAt(1000)).toBe(false);
    expect(held.body.toString()).toContain('"available":3');
  });

  it('should stand at its version in the change feed', () => {
    expect(decodeCursor(new InventoryListing(42n, rows).cursor)).toBe(42n);
  });
});
