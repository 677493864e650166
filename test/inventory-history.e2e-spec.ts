import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChangesPruner } from '../src/inventory/history/changes-pruner.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const DAY_MS = 86_400_000;
const LINK = /^<\/v1\/inventory\/changes\?after=([A-Za-z0-9_-]+)&limit=(\d+)>; rel="next"$/;

describe('stock history, change feed and conditional updates (e2e)', () => {
  let t: TestApp;
  let key: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await dataSource.query(`UPDATE inventory_changes_pruned SET through = 0`);
    key = await t.createKey();
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 2n, name: 'Tom', status: 'pending', quantity: 2 },
      { petId: 9007199254740993n, name: 'Big', status: 'sold', quantity: 0 },
    ]);
  });

  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${key}`);
  const get = (path: string) => auth(request(t.server).get(path));
  const patch = (id: string, body: object, ifMatch?: string) => {
    const test = auth(request(t.server).patch(`/v1/inventory/${id}`)).send(body);
    return ifMatch === undefined ? test : test.set('If-Match', ifMatch);
  };
  const cursorOf = (link: string) => LINK.exec(link)?.[1] ?? '';
  const follow = async (after: string, limit = 100) =>
    get(`/v1/inventory/changes?after=${after}&limit=${limit}`).expect(200);

  describe('GET /v1/inventory/{petId}', () => {
    it('should answer the item with a strong ETag of its state, and 404 for an unknown pet', async () => {
      const res = await get('/v1/inventory/9007199254740993').expect(200);
      expect(res.text).toBe(
        '{"petId":9007199254740993,"quantity":0,"status":"sold","available":0}',
      );
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect((await get('/v1/inventory/1').expect(200)).headers.etag).not.toBe(res.headers.etag);
      const missing = await get('/v1/inventory/4').expect(404);
      expect(missing.body).toEqual({ code: 'not_found', message: 'No pet with id 4', status: 404 });
      await get('/v1/inventory/abc').expect(400);
    });
  });

  describe('If-Match on PATCH', () => {
    it('should apply an update whose If-Match names the current ETag, and answer the new one', async () => {
      const { etag } = (await get('/v1/inventory/1')).headers;
      const res = await patch('1', { quantity: 0 }, etag).expect(200);
      expect(res.body).toEqual({ petId: 1, quantity: 0, status: 'sold', available: 0 });
      expect(res.headers.etag).not.toBe(etag);
      expect((await get('/v1/inventory/1')).headers.etag).toBe(res.headers.etag);
    });

    it('should refuse a stale ETag with 412, the current item in details, and change nothing', async () => {
      const { etag } = (await get('/v1/inventory/1')).headers;
      await patch('1', { quantity: 7 }).expect(200);
      const refused = await patch('1', { quantity: 3 }, etag).expect(412);
      expect(refused.body).toEqual({
        code: 'precondition_failed',
        message: expect.any(String),
        status: 412,
        details: { current: { petId: 1, quantity: 7, status: 'available', available: 7 } },
      });
      expect((await get('/v1/inventory/1')).body.quantity).toBe(7);
      // The import that created the pet, and the first update.
      expect((await get('/v1/inventory/1/changes')).body).toHaveLength(2);
    });

    it('should accept `*` and a list holding the current tag among others', async () => {
      await patch('2', { quantity: 4 }, '*').expect(200);
      const { etag } = (await get('/v1/inventory/2')).headers;
      await patch('2', { quantity: 5 }, `"stale", ${etag}, "other"`).expect(200);
      await patch('2', { quantity: 6 }, '"stale", "other"').expect(412);
    });

    it('should never match a weak tag, even of the current state', async () => {
      const { etag } = (await get('/v1/inventory/2')).headers;
      await patch('2', { quantity: 9 }, `W/${etag}`).expect(412);
      expect((await get('/v1/inventory/2')).body.quantity).toBe(2);
    });

    it('should refuse a malformed If-Match with 400, and answer 404 for an unknown pet first', async () => {
      expect((await patch('2', { quantity: 9 }, 'abc').expect(400)).body.code).toBe(
        'validation_failed',
      );
      await patch('4', { quantity: 9 }, '"x"').expect(404);
    });
  });

  describe('reason and reference', () => {
    it('should record them with the change, the caller key and the request id', async () => {
      const res = await patch('1', { quantity: 8, reason: 'received', reference: 'PO-4711' })
        .set('X-Request-Id', 'req-abc')
        .expect(200);
      expect(res.body).toEqual({ petId: 1, quantity: 8, status: 'available', available: 8 });
      const [created, change] = (await get('/v1/inventory/1/changes').expect(200)).body;
      expect(created.source).toBe('import');
      expect(change).toEqual({
        id: expect.any(Number),
        petId: 1,
        previousQuantity: 5,
        quantity: 8,
        previousStatus: 'available',
        status: 'available',
        reason: 'received',
        reference: 'PO-4711',
        source: 'api',
        keyId: expect.any(Number),
        requestId: 'req-abc',
        changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const [{ id }] = await dataSource.query(`SELECT id FROM api_keys`);
      expect(change.keyId).toBe(id);
    });

    it('should refuse an unknown reason, a reference outside 1..255 characters, and unknown fields', async () => {
      for (const body of [
        { quantity: 1, reason: 'stolen' },
        { quantity: 1, reason: null },
        { quantity: 1, reference: '' },
        { quantity: 1, reference: 'x'.repeat(256) },
        { quantity: 1, reference: 42 },
        { quantity: 1, reason: 'other', note: 'x' },
      ]) {
        const res = await patch('1', body).expect(400);
        expect(res.body.code, JSON.stringify(body)).toBe('validation_failed');
      }
      await patch('1', { quantity: 1, reason: 'other', reference: 'x'.repeat(255) }).expect(200);
      expect((await get('/v1/inventory/1/changes')).body).toHaveLength(2);
    });
  });

  describe('history', () => {
    it('should append nothing for a write that changes nothing', async () => {
      const cursor = (await get('/v1/inventory').expect(200)).headers['x-changes-cursor'];
      const before = (await get('/v1/inventory').expect(200)).headers.etag;
      await patch('1', { quantity: 5 }).expect(200);
      await patch('2', { quantity: 2, reason: 'correction' }).expect(200);
      const page = await follow(cursor);
      expect(page.body).toEqual([]);
      expect(cursorOf(page.headers.link)).toBe(cursor);
      expect((await get('/v1/inventory')).headers.etag).toBe(before);
    });

    it('should record what an import creates (previous fields null) and changes, as source import', async () => {
      const res = await get('/v1/inventory/changes?limit=1000').expect(200);
      expect(res.text).toContain('"petId":9007199254740993,');
      const changes = res.body;
      expect(changes.map((c: { petId: number }) => c.petId)).toEqual([
        1,
        2,
        Number(9007199254740993n),
      ]);
      expect(changes[0]).toMatchObject({
        previousQuantity: null,
        previousStatus: null,
        quantity: 5,
        status: 'available',
        source: 'import',
        keyId: null,
        requestId: null,
        reason: null,
      });
      await t.seed([
        { petId: 1n, name: null, status: 'available', quantity: 5 },
        { petId: 2n, name: null, status: 'available', quantity: 3 },
      ]);
      const [, , , updated, more] = (await get('/v1/inventory/changes').expect(200)).body;
      expect(updated).toMatchObject({
        petId: 2,
        previousQuantity: 2,
        previousStatus: 'pending',
        quantity: 3,
        status: 'available',
        source: 'import',
      });
      expect(more).toBeUndefined();
    });
  });

  describe('GET /v1/inventory/changes', () => {
    it('should not take `changes` for a petId', async () => {
      await get('/v1/inventory/changes').expect(200);
    });

    it('should page oldest first with a Link on every page, the last one empty, and never repeat', async () => {
      for (let quantity = 10; quantity < 15; quantity++) await patch('1', { quantity }).expect(200);
      const first = await get('/v1/inventory/changes?limit=3').expect(200);
      expect(first.body.map((c: { quantity: number }) => c.quantity)).toEqual([5, 2, 0]);
      expect(first.headers.link).toMatch(LINK);
      expect(LINK.exec(first.headers.link)?.[2]).toBe('3');
      const seen = [...first.body];
      let link = first.headers.link as string;
      for (;;) {
        const page = await follow(cursorOf(link), 3);
        expect(page.headers.link).toMatch(LINK);
        link = page.headers.link;
        if (page.body.length === 0) break;
        seen.push(...page.body);
      }
      expect(seen.map((c) => c.quantity)).toEqual([5, 2, 0, 10, 11, 12, 13, 14]);
      const ids = seen.map((c) => c.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
      // The empty page's cursor still reaches the next change.
      await patch('2', { quantity: 1 }).expect(200);
      expect((await follow(cursorOf(link))).body.map((c: { petId: number }) => c.petId)).toEqual([
        2,
      ]);
    });

    it('should page by id across ids of different lengths (9 before 10)', async () => {
      for (let quantity = 20; quantity < 32; quantity++) await patch('2', { quantity }).expect(200);
      const ids: number[] = [];
      for (let after = ''; ;) {
        const page = await get(`/v1/inventory/changes?limit=2${after && `&after=${after}`}`).expect(
          200,
        );
        if (page.body.length === 0) break;
        ids.push(...page.body.map((c: { id: number }) => c.id));
        after = cursorOf(page.headers.link);
      }
      const all = (await get('/v1/inventory/changes?limit=1000')).body.map(
        (c: { id: number }) => c.id,
      );
      expect(all).toHaveLength(15);
      expect(String(all[0]).length).toBeLessThan(String(all.at(-1)).length);
      expect(ids).toEqual(all);
    });

    it('should default to 100 changes a page', async () => {
      expect(LINK.exec((await get('/v1/inventory/changes')).headers.link)?.[2]).toBe('100');
    });

    it('should give the listing a cursor from which the feed yields exactly the changes it does not show', async () => {
      await patch('1', { quantity: 1 }).expect(200);
      const listing = await get('/v1/inventory').expect(200);
      const cursor = listing.headers['x-changes-cursor'];
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect((await follow(cursor)).body).toEqual([]);
      await patch('2', { quantity: 7 }).expect(200);
      await patch('1', { quantity: 0 }).expect(200);
      const state = new Map(
        listing.body.map((item: { petId: number }) => [item.petId, item] as const),
      );
      for (const change of (await follow(cursor)).body)
        state.set(change.petId, {
          petId: change.petId,
          quantity: change.quantity,
          status: change.status,
          available: change.quantity,
        });
      expect([...state.values()]).toEqual((await get('/v1/inventory')).body);
    });

    it('should refuse a malformed cursor or limit with 400', async () => {
      for (const query of [
        'after=abc',
        'after=',
        'after=-1',
        'limit=0',
        'limit=1001',
        'limit=ten',
        'limit=1.5',
        'after=a&after=b',
      ]) {
        const res = await get(`/v1/inventory/changes?${query}`).expect(400);
        expect(res.body.code, query).toBe('validation_failed');
      }
    });

    it('should answer 410 for a cursor older than the kept history, and prune in batches', async () => {
      const old = (await get('/v1/inventory')).headers['x-changes-cursor'];
      const [first] = (await get('/v1/inventory/changes?limit=1')).body;
      const start = cursorOf((await get('/v1/inventory/changes?limit=1')).headers.link);
      await patch('1', { quantity: 3 }).expect(200);
      await dataSource.query(
        `UPDATE inventory_changes SET changed_at = '2000-01-01T00:00:00.000Z' WHERE id <= ${first.id + 2}`,
      );
      const pruner = t.app.get(ChangesPruner);
      expect(await pruner.prune()).toBe(3);
      expect(await pruner.prune()).toBe(0);
      const refused = await get(`/v1/inventory/changes?after=${start}`).expect(410);
      expect(refused.body.code).toBe('gone');
      // The listing's cursor was taken after the pruned changes: it still works.
      expect((await follow(old)).body.map((c: { quantity: number }) => c.quantity)).toEqual([3]);
      // Without a cursor: from the oldest kept change.
      expect((await get('/v1/inventory/changes')).body).toHaveLength(1);
      // Kept within the retention: nothing goes.
      expect(await pruner.prune(new Date(Date.now() + 89 * DAY_MS))).toBe(0);
      expect(await pruner.prune(new Date(Date.now() + 91 * DAY_MS))).toBe(1);
    });
  });

  describe('GET /v1/inventory/{petId}/changes', () => {
    it("should give one pet's changes with its own Link, and 404 for an unknown pet", async () => {
      await patch('1', { quantity: 6 }).expect(200);
      await patch('2', { quantity: 0 }).expect(200);
      const res = await get('/v1/inventory/2/changes?limit=1').expect(200);
      expect(res.body.map((c: { petId: number }) => c.petId)).toEqual([2]);
      expect(res.headers.link).toMatch(
        /^<\/v1\/inventory\/2\/changes\?after=[A-Za-z0-9_-]+&limit=1>; rel="next"$/,
      );
      const next = /after=([^&]+)/.exec(res.headers.link)![1];
      const rest = await get(`/v1/inventory/2/changes?after=${next}`).expect(200);
      expect(rest.body.map((c: { quantity: number }) => c.quantity)).toEqual([0]);
      expect((await get('/v1/inventory/4/changes').expect(404)).body.code).toBe('not_found');
      await get('/v1/inventory/2/changes?limit=0').expect(400);
    });
  });
});
