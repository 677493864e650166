import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InventoryListing,
  inventoryItemsJson,
  LISTING_CHUNK_ROWS,
  type SerialisedChunk,
  serialiseChunk,
} from './inventory-listing.js';
import type { InventoryRow } from '../inventory-row.js';
import { PET_STATUSES } from '../pet-status.js';

async function* chunked(
  rows: InventoryRow[],
  size = LISTING_CHUNK_ROWS,
): AsyncGenerator<SerialisedChunk> {
  for (let i = 0; i < rows.length; i += size) yield serialiseChunk(rows.slice(i, i + size));
}

const build = (rows: InventoryRow[], version = 1n, size?: number) =>
  InventoryListing.build(version, chunked(rows, size));

function rowsOf(count: number, firstId = 1n): InventoryRow[] {
  return Array.from({ length: count }, (_, i) => ({
    petId: String(firstId + BigInt(i) * 2n),
    quantity: i % 7,
    status: PET_STATUSES[i % 3],
  }));
}

describe('inventoryItemsJson', () => {
  it('should write exactly {petId, quantity, status} with int64 ids as number text', () => {
    const json = inventoryItemsJson([
      { petId: '9223372036854775807', quantity: 0, status: 'sold' },
      { petId: '1', quantity: 2147483647, status: 'available' },
    ]);
    expect(json).toBe(
      '{"petId":9223372036854775807,"quantity":0,"status":"sold"},{"petId":1,"quantity":2147483647,"status":"available"}',
    );
  });
});

describe('InventoryListing', () => {
  it('should serialise an empty inventory as []', async () => {
    const listing = await build([]);
    expect(listing.body.toString()).toBe('[]');
    expect(listing.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('should serialise every row in order across chunks as one JSON array', async () => {
    const rows = rowsOf(2 * LISTING_CHUNK_ROWS + 3);
    const listing = await build(rows, 7n);
    expect(listing.version).toBe(7n);
    expect(JSON.parse(listing.body.toString())).toEqual(
      rows.map((r) => ({ ...r, petId: Number(r.petId) })),
    );
  });

  it('should give equal listings equal ETags, and any change a new one', async () => {
    const rows = rowsOf(50);
    const a = await build(rows, 1n, 10);
    expect((await build(rows, 2n, 10)).etag).toBe(a.etag);
    const changed = rows.map((row, i) => (i === 42 ? { ...row, quantity: row.quantity + 1 } : row));
    expect((await build(changed, 3n, 10)).etag).not.toBe(a.etag);
  });

  it('should match a fresh build byte for byte after applying updates', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(
          fc.record({
            at: fc.nat(),
            quantity: fc.nat({ max: 2147483647 }),
            status: fc.constantFrom(...PET_STATUSES),
          }),
          {
            maxLength: 20,
          },
        ),
        async (count, chunkRows, writes) => {
          const rows = rowsOf(count, 9007199254740990n);
          const before = await build(rows, 1n, chunkRows);
          const expected = [...rows];
          const updates = writes.map(({ at, quantity, status }) => {
            const row = { petId: rows[at % count].petId, quantity, status };
            expected[at % count] = row;
            return row;
          });
          const after = before.withUpdates(2n, updates)!;
          const fresh = await build(expected, 2n, chunkRows);
          expect(after.version).toBe(2n);
          expect(after.body.equals(fresh.body)).toBe(true);
          expect(after.etag).toBe(fresh.etag);
          expect(before.body.equals((await build(rows, 1n, chunkRows)).body)).toBe(true);
        },
      ),
    );
  });

  it('should refuse an update of a pet it does not list', async () => {
    const listing = await build(rowsOf(5));
    expect(
      listing.withUpdates(2n, [{ petId: '4', quantity: 1, status: 'available' }]),
    ).toBeUndefined();
    expect(
      listing.withUpdates(2n, [{ petId: '99', quantity: 1, status: 'available' }]),
    ).toBeUndefined();
  });

  it('should find every listed pet, also after updates, and no other id', async () => {
    const rows = [
      ...rowsOf(25, 1n),
      { petId: '9223372036854775807', quantity: 2147483647, status: 'pending' as const },
    ];
    const listing = await build(rows, 1n, 4);
    for (const row of rows) expect(listing.item(BigInt(row.petId))).toEqual(row);
    // Not listed: between ids, prefixes and extensions of listed ids, outside the range.
    for (const id of [2n, 4n, 10n, 111n, 922337203685477580n, 0n, 100n])
      expect(listing.item(id)).toBeUndefined();
    const updated = listing.withUpdates(2n, [{ petId: '11', quantity: 0, status: 'sold' }])!;
    expect(updated.item(11n)).toEqual({ petId: '11', quantity: 0, status: 'sold' });
    expect(listing.item(11n)).toEqual(rows[5]);
  });
});
