import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportRow } from '../src/inventory/inventory-row.js';
import { InventoryRepository } from '../src/inventory/writes/inventory.repository.js';
import { InventoryService } from '../src/inventory/inventory.service.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

// better-sqlite3 ships no type declarations; this is the little of it used here.
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
  prepare(sql: string): { run(): unknown };
  close(): void;
};

/** What JSON.parse makes of 9007199254740993 (2^53 + 1); the exact text is checked beside it. */
const BIG_ID_PARSED = Number('9007199254740993');
const MANY_ROWS = 2007;
const STRONG_ETAG = /^"[A-Za-z0-9_-]{22}"$/;

const PETS: ImportRow[] = [
  { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
  { petId: 2n, name: 'Tom', status: 'pending', quantity: 2 },
  { petId: 9007199254740993n, name: 'Kit', status: 'sold', quantity: 0 },
];

function client(t: TestApp, key: string) {
  return {
    head: () => request(t.server).head('/v1/inventory').set('Authorization', `Bearer ${key}`),
    list: (headers: Record<string, string> = {}) =>
      request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${key}`).set(headers),
    patch: (petId: string, quantity: number) =>
      request(t.server)
        .patch(`/v1/inventory/${petId}`)
        .set('Authorization', `Bearer ${key}`)
        .send({ quantity }),
  };
}

describe('inventory listing cache (e2e)', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    api = client(t, await t.createKey());
    await t.seed(PETS);
  });

  describe('ETag and If-None-Match', () => {
    it('should send a strong ETag and ask clients to revalidate', async () => {
      const res = await api.list().expect(200);
      expect(res.headers.etag).toMatch(STRONG_ETAG);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect((await api.list()).headers.etag).toBe(res.headers.etag);
    });

    it('should answer a matching If-None-Match with 304 and no body', async () => {
      const { etag } = (await api.list()).headers;
      const res = await api.list({ 'If-None-Match': etag }).expect(304);
      expect(res.text).toBeFalsy();
      expect(res.headers.etag).toBe(etag);
      await api.list({ 'If-None-Match': `"other", ${etag}` }).expect(304);
      await api.list({ 'If-None-Match': `W/${etag}` }).expect(304);
      await api.list({ 'If-None-Match': '*' }).expect(304);
    });

    it('should answer 200 with the body when If-None-Match does not match', async () => {
      const res = await api.list({ 'If-None-Match': '"stale"' }).expect(200);
      expect(res.body).toHaveLength(3);
    });

    it('should still require a key for a conditional request', async () => {
      const { etag } = (await api.list()).headers;
      await request(t.server).get('/v1/inventory').set('If-None-Match', etag).expect(401);
    });

    it("should put the item's strong ETag, not the listing's, on the answer to a PATCH", async () => {
      const listing = await api.list().expect(200);
      const res = await api.patch('9007199254740993', 7).expect(200);
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(res.headers.etag).not.toBe(listing.headers.etag);
      expect(res.text).toBe(
        '{"petId":9007199254740993,"quantity":7,"status":"available","available":7}',
      );
      expect(res.headers['content-length']).toBe(String(res.text.length));
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const refused = await api.patch('4', 1).expect(404);
      expect(refused.headers.etag).toBeUndefined();
      expect(refused.body).toEqual({ code: 'not_found', message: 'No pet with id 4', status: 404 });
    });

    it('should serve HEAD with the same ETag and no body', async () => {
      const { etag } = (await api.list()).headers;
      const res = await api.head().expect(200);
      expect(res.headers.etag).toBe(etag);
    });
  });

  describe('invalidation', () => {
    it('should list a PATCH at once, with a new ETag, and answer the old one with 200', async () => {
      const before = await api.list();
      await api.patch('2', 0).expect(200);
      const after = await api.list({ 'If-None-Match': before.headers.etag }).expect(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.text).toBe(
        '[{"petId":1,"quantity":5,"status":"available","available":5},{"petId":2,"quantity":0,"status":"sold","available":0},{"petId":9007199254740993,"quantity":0,"status":"sold","available":0}]',
      );
    });

    it('should come back to the same ETag when the stock comes back to the same state', async () => {
      const before = (await api.list()).headers.etag;
      await api.patch('1', 6).expect(200);
      expect((await api.list()).headers.etag).not.toBe(before);
      await api.patch('1', 5).expect(200);
      expect((await api.list()).headers.etag).toBe(before);
    });

    it('should list writes made around the service: an import, raw SQL, a delete', async () => {
      await api.list();
      await t.seed([{ petId: 4n, name: null, status: 'available', quantity: 1 }]);
      expect((await api.list()).body.map((item: { petId: number }) => item.petId)).toContain(4);
      await t.seed([{ petId: 2n, name: null, status: 'pending', quantity: 12 }]);
      expect((await api.list()).body[1]).toEqual({
        petId: 2,
        quantity: 12,
        status: 'pending',
        available: 12,
      });

      const dataSource = t.app.get(DataSource);
      await dataSource.query(`UPDATE pets SET quantity = 42 WHERE id = 1`);
      expect((await api.list()).body[0]).toEqual({
        petId: 1,
        quantity: 42,
        status: 'available',
        available: 42,
      });

      await dataSource.query(`DELETE FROM pets WHERE id = 1`);
      expect((await api.list()).body).toHaveLength(3);

      await t.reset();
      await api.list().expect(200, []);
    });

    it('should keep the write counter for changes to listed columns only', async () => {
      const reader = t.app.get(InventoryRepository);
      const dataSource = t.app.get(DataSource);
      const start = await reader.version();
      await dataSource.query(`UPDATE pets SET name = 'Rexy' WHERE id = 1`);
      expect(await reader.version()).toBe(start);
      await dataSource.query(`UPDATE pets SET status = 'pending' WHERE id = 1`);
      const afterUpdate = await reader.version();
      expect(afterUpdate).toBeGreaterThan(start);
      await dataSource.query(
        `INSERT INTO pets (id, name, status, quantity, updated_at) VALUES (5, NULL, 'available', 1, CURRENT_TIMESTAMP)`,
      );
      const afterInsert = await reader.version();
      expect(afterInsert).toBeGreaterThan(afterUpdate);
      await dataSource.query(`DELETE FROM pets WHERE id = 5`);
      expect(await reader.version()).toBeGreaterThan(afterInsert);
    });

    it('should list every row, in id order, of a large store', async () => {
      const rows: ImportRow[] = Array.from({ length: MANY_ROWS }, (_, i) => ({
        petId: BigInt(100 + i),
        name: null,
        status: i % 2 === 0 ? 'available' : 'pending',
        quantity: 1 + (i % 9),
      }));
      await t.seed(rows);
      const res = await api.list().expect(200);
      expect(JSON.parse(res.text)).toEqual([
        { petId: 1, quantity: 5, status: 'available', available: 5 },
        { petId: 2, quantity: 2, status: 'pending', available: 2 },
        ...rows.map((row) => ({
          petId: Number(row.petId),
          quantity: row.quantity,
          status: row.status,
          available: row.quantity,
        })),
        { petId: BIG_ID_PARSED, quantity: 0, status: 'sold', available: 0 },
      ]);
      expect(res.text).toContain('{"petId":9007199254740993,');
    });
  });
});

describe('inventory listing cache across instances sharing a SQLite file (e2e)', () => {
  let dir: string;
  let a: TestApp;
  let b: TestApp;
  let apiA: ReturnType<typeof client>;
  let apiB: ReturnType<typeof client>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-cache-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'shared.sqlite')}` };
    a = await createTestApp(env);
    b = await createTestApp(env);
    const key = await a.createKey();
    apiA = client(a, key);
    apiB = client(b, key);
    await a.seed(PETS);
  });
  afterEach(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should list a write acknowledged by another instance on the next request', async () => {
    const before = await apiA.list().expect(200);
    expect((await apiB.list()).headers.etag).toBe(before.headers.etag);

    await apiB.patch('1', 0).expect(200);
    const after = await apiA.list({ 'If-None-Match': before.headers.etag }).expect(200);
    expect(after.body[0]).toEqual({ petId: 1, quantity: 0, status: 'sold', available: 0 });
    expect(after.headers.etag).toBe((await apiB.list()).headers.etag);
  });

  it('should send the same bytes and ETag on every instance after a write', async () => {
    const rows: ImportRow[] = Array.from({ length: MANY_ROWS + 500 }, (_, i) => ({
      petId: 9100000000000000000n + BigInt(i * 7),
      name: null,
      status: i % 3 === 0 ? 'pending' : 'available',
      quantity: 1 + (i % 11),
    }));
    await a.seed(rows);
    const expectedItems = (items: ImportRow[]) =>
      items.map(
        (row) =>
          `{"petId":${row.petId},"quantity":${row.quantity},"status":"${row.status}","available":${row.quantity}}`,
      );
    const first = await apiA.list().expect(200);
    expect(first.text === `[${expectedItems([...PETS, ...rows]).join(',')}]`).toBe(true);

    await apiB.list();
    const target = rows[MANY_ROWS - 10];
    await apiB.patch(String(target.petId), 0).expect(200);
    const fromWriter = await apiB.list();
    const readFromFile = await apiA.list();
    expect(readFromFile.text).toContain(
      `{"petId":${target.petId},"quantity":0,"status":"sold","available":0}`,
    );
    expect(fromWriter.text === readFromFile.text).toBe(true);
    expect(fromWriter.headers.etag).toBe(readFromFile.headers.etag);
  });

  it('should read the table once per new value of the write counter, whichever instance wrote', async () => {
    await apiA.list();
    const snapshot = vi.spyOn(a.app.get(InventoryRepository), 'snapshot');
    await apiB.patch('2', 0).expect(200);
    await apiB.patch('9007199254740993', 4).expect(200);
    await apiB.patch('2', 6).expect(200);
    const listed = await apiA.list().expect(200);
    expect(listed.text).toBe(
      '[{"petId":1,"quantity":5,"status":"available","available":5},{"petId":2,"quantity":6,"status":"available","available":6},{"petId":9007199254740993,"quantity":4,"status":"available","available":4}]',
    );
    expect(listed.headers.etag).toBe((await apiB.list()).headers.etag);
    expect(snapshot).toHaveBeenCalledTimes(1);
    await apiA.list({ 'If-None-Match': listed.headers.etag }).expect(304);
    expect(snapshot).toHaveBeenCalledTimes(1);

    await b.app.get(DataSource).query(`DELETE FROM pets WHERE id = 1`);
    expect((await apiA.list()).body.map((item: { petId: number }) => item.petId)).toEqual([
      2,
      BIG_ID_PARSED,
    ]);
    expect(snapshot).toHaveBeenCalledTimes(2);
  });

  it('should read the write counter once per turn of the event loop, after every request of that turn', async () => {
    const service = a.app.get(InventoryService);
    await service.listInventory();
    const version = vi.spyOn(a.app.get(InventoryRepository), 'version');
    const first = service.listInventory();
    const second = service.listInventory();
    // Committed after both requests, before the turn ends: the one read is made after it.
    const other = new Database(join(dir, 'shared.sqlite'));
    other.prepare('UPDATE pets SET quantity = quantity + 1 WHERE id = 1').run();
    other.close();
    const [one, two] = await Promise.all([first, second]);
    expect(version).toHaveBeenCalledTimes(1);
    expect(two.etag).toBe(one.etag);
    expect(JSON.parse(one.body.toString())[0]).toEqual({
      petId: 1,
      quantity: 6,
      status: 'available',
      available: 6,
    });
    await service.listInventory();
    expect(version).toHaveBeenCalledTimes(2);
  });

  it('should list an import by another instance on the next request', async () => {
    await apiA.list();
    await b.seed([{ petId: 7n, name: null, status: 'pending', quantity: 3 }]);
    expect((await apiA.list()).body).toContainEqual({
      petId: 7,
      quantity: 3,
      status: 'pending',
      available: 3,
    });
  });

  it("should list its own and another instance's interleaved writes", async () => {
    await apiA.list();
    await apiA.patch('1', 7).expect(200);
    await apiB.patch('2', 8).expect(200);
    await apiA.patch('9007199254740993', 9).expect(200);
    const expected = [
      { petId: 1, quantity: 7, status: 'available', available: 7 },
      { petId: 2, quantity: 8, status: 'pending', available: 8 },
      { petId: BIG_ID_PARSED, quantity: 9, status: 'available', available: 9 },
    ];
    const listed = await apiA.list();
    expect(listed.body).toEqual(expected);
    expect(listed.text).toContain('{"petId":9007199254740993,"quantity":9,');
    expect((await apiB.list()).body).toEqual(expected);
  });

  it('should not keep a write that a transaction in progress rolled back', async () => {
    await apiA.list();
    const rollback = a.app.get(DataSource).transaction(async () => {
      await apiA.patch('1', 33).expect(200);
      throw new Error('rolled back');
    });
    await expect(rollback).rejects.toThrow('rolled back');
    await apiB.patch('2', 8).expect(200);
    const { body } = await apiA.list();
    expect(body[0]).toEqual({ petId: 1, quantity: 5, status: 'available', available: 5 });
    expect(body[1]).toEqual({ petId: 2, quantity: 8, status: 'pending', available: 8 });
  });

  it('should not list what a transaction in progress has not committed', async () => {
    const before = await apiA.list();
    await a.app.get(DataSource).transaction(async (manager) => {
      await manager.query(`UPDATE pets SET quantity = 77 WHERE id = 1`);
      const during = await apiA.list().expect(200);
      expect(during.text).toBe(before.text);
      expect((await apiB.list()).text).toBe(before.text);
    });
    expect((await apiA.list()).body[0]).toEqual({
      petId: 1,
      quantity: 77,
      status: 'available',
      available: 77,
    });
  });
});
