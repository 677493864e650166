import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  createClient,
  type InventoryChange,
  type InventoryClient,
} from '../src/index.js';
import { startLiveServer, type LiveServer } from './support/live-server.js';

const INT64_MAX = 9223372036854775807n;

/** The contract's stock history, change feed and conditional updates, through the client. */
describe('client: change feed and conditional updates (e2e)', () => {
  let server: LiveServer;
  let client: InventoryClient;

  beforeAll(async () => {
    server = await startLiveServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    await server.reset();
    await server.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: INT64_MAX, name: 'Max', status: 'sold', quantity: 0 },
    ]);
    client = createClient({ baseUrl: server.baseUrl, apiKey: await server.createKey() });
  });

  const drain = async (iterable: AsyncIterable<InventoryChange>) => {
    const changes: InventoryChange[] = [];
    for await (const change of iterable) changes.push(change);
    return changes;
  };

  it('should get one item with a strong ETag', async () => {
    const item = await client.inventory.get(INT64_MAX);
    expect(item).toEqual({ petId: INT64_MAX, quantity: 0, status: 'sold', available: 0 });
    expect(item.etag).toMatch(/^"[^"]+"$/);
    await expect(client.inventory.get(424242n)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('should update only while ifMatch is current, and answer a stale one with 412', async () => {
    const before = await client.inventory.get(1n);
    const updated = await client.inventory.update(1n, { quantity: 9 }, { ifMatch: before.etag });
    expect(updated).toEqual({ petId: 1n, quantity: 9, status: 'available', available: 9 });
    expect(updated.etag).not.toBe(before.etag);

    const error = await client.inventory
      .update(1n, { quantity: 1 }, { ifMatch: before.etag })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect((error as ApiError).details).toEqual({
      current: { petId: 1n, quantity: 9, status: 'available', available: 9 },
    });
    expect(await client.inventory.get(1n)).toEqual({
      petId: 1n,
      quantity: 9,
      status: 'available',
      available: 9,
    });
  });

  it('should follow the feed from a listing, page by page, without missing or repeating a change', async () => {
    const listing = await client.inventory.list();
    expect(listing.changesCursor).toEqual(expect.any(String));
    for (let quantity = 1; quantity <= 5; quantity++)
      await client.inventory.update(INT64_MAX, {
        quantity,
        reason: 'received',
        reference: `PO-${quantity}`,
      });

    const feed = client.inventory.changes({ after: listing.changesCursor, limit: 2 });
    const changes = await drain(feed);
    expect(changes.map((c) => c.quantity)).toEqual([1, 2, 3, 4, 5]);
    expect(changes[0]).toMatchObject({
      petId: INT64_MAX,
      previousQuantity: 0,
      previousStatus: 'sold',
      status: 'available',
      reason: 'received',
      reference: 'PO-1',
      source: 'api',
    });
    expect(typeof changes[0].id).toBe('bigint');
    expect(typeof changes[0].keyId).toBe('bigint');
    expect(new Set(changes.map((c) => c.id)).size).toBe(5);

    const cursor = feed.cursor;
    expect(await drain(client.inventory.changes({ after: cursor }))).toEqual([]);
    await client.inventory.update(1n, { quantity: 0 });
    const next = await drain(client.inventory.changes({ after: cursor }));
    expect(next.map((c) => [c.petId, c.quantity, c.status])).toEqual([[1n, 0, 'sold']]);
  });

  it("should read one pet's history", async () => {
    await client.inventory.update(1n, { quantity: 7 });
    await client.inventory.update(INT64_MAX, { quantity: 3 });
    await client.inventory.update(1n, { quantity: 8, reason: 'correction' });
    const history = await drain(client.inventory.history(1n));
    expect(history.slice(-2).map((c) => [c.quantity, c.reason])).toEqual([
      [7, null],
      [8, 'correction'],
    ]);
    expect(history.every((c) => c.petId === 1n)).toBe(true);
    await expect(drain(client.inventory.history(424242n))).rejects.toMatchObject({
      status: 404,
    });
  });

  it('should refuse a malformed cursor with validation_failed', async () => {
    await expect(drain(client.inventory.changes({ after: '%%%' }))).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });
});
