import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdempotencyPruner } from '../src/idempotency/idempotency.pruner.js';
import { Clock } from '../src/rate-limit/clock.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const HOUR_MS = 3_600_000;

describe('POST /v1/inventory/{petId}/adjustments (e2e)', () => {
  let t: TestApp;
  let key: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    vi.restoreAllMocks();
    await t.reset();
    key = await t.createKey({ plan: 'pro' });
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 9007199254740993n, name: 'Big', status: 'pending', quantity: 2 },
    ]);
  });

  const adjust = (petId: string, body: unknown, idempotencyKey: string | null, apiKey = key) => {
    const test = request(t.server)
      .post(`/v1/inventory/${petId}/adjustments`)
      .set('Authorization', `Bearer ${apiKey}`);
    if (idempotencyKey !== null) test.set('Idempotency-Key', idempotencyKey);
    return test.send(body as object);
  };
  const get = (path: string) =>
    request(t.server).get(path).set('Authorization', `Bearer ${key}`).expect(200);
  const quantityOf = async (petId: string) => (await get(`/v1/inventory/${petId}`)).body.quantity;
  const changesOf = async (petId: string) => (await get(`/v1/inventory/${petId}/changes`)).body;

  it('should add the delta, answer the item with its new ETag, and record the change', async () => {
    const res = await adjust(
      '9007199254740993',
      { delta: -2, reason: 'sold', reference: 'order-17' },
      'k1',
    ).expect(200);
    expect(res.text).toBe('{"petId":9007199254740993,"quantity":0,"status":"sold","available":0}');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.headers.etag).toBe((await get('/v1/inventory/9007199254740993')).headers.etag);
    const changes = await changesOf('9007199254740993');
    expect(changes.at(-1)).toMatchObject({
      previousQuantity: 2,
      quantity: 0,
      previousStatus: 'pending',
      status: 'sold',
      reason: 'sold',
      reference: 'order-17',
      source: 'api',
      requestId: res.headers['x-request-id'],
    });
    const restocked = await adjust('9007199254740993', { delta: 3 }, 'k2').expect(200);
    expect(restocked.text).toBe(
      '{"petId":9007199254740993,"quantity":3,"status":"available","available":3}',
    );
  });

  it('should answer a retry with the same key and body as the first time, changing nothing', async () => {
    const first = await adjust('1', { delta: -1 }, 'retry-me').expect(200);
    const again = await adjust('1', { delta: -1 }, 'retry-me').expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await quantityOf('1')).toBe(4);
    // The import, then one adjustment.
    expect(await changesOf('1')).toHaveLength(2);
  });

  it('should compare bodies as JSON: member order and whitespace make no other request', async () => {
    await adjust('1', { delta: -1, reason: 'sold' }, 'json').expect(200);
    const again = await request(t.server)
      .post('/v1/inventory/1/adjustments')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', 'json')
      .set('Content-Type', 'application/json')
      .send('{ "reason": "sold",\n  "delta": -1 }')
      .expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await quantityOf('1')).toBe(4);
  });

  it('should refuse the same key for another body or another pet with 422, changing nothing', async () => {
    await adjust('1', { delta: -1 }, 'once').expect(200);
    const reused = await adjust('1', { delta: -2 }, 'once').expect(422);
    expect(reused.body).toEqual({
      code: 'idempotency_key_reused',
      message: expect.stringContaining('different request'),
      status: 422,
    });
    await adjust('9007199254740993', { delta: -1 }, 'once').expect(422);
    expect(await quantityOf('1')).toBe(4);
    expect(await quantityOf('9007199254740993')).toBe(2);
  });

  it('should keep keys apart per API key', async () => {
    const other = await t.createKey({ plan: 'pro' });
    await adjust('1', { delta: -1 }, 'shared').expect(200);
    const res = await adjust('1', { delta: -1 }, 'shared', other).expect(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await quantityOf('1')).toBe(3);
  });

  it('should require an Idempotency-Key of 1 to 255 characters', async () => {
    for (const idempotencyKey of [null, '', '   ', 'x'.repeat(256)]) {
      const res = await adjust('1', { delta: -1 }, idempotencyKey).expect(400);
      expect(res.body).toMatchObject({
        code: 'validation_failed',
        message: expect.stringContaining('Idempotency-Key'),
      });
    }
    await adjust('1', { delta: -1 }, 'x'.repeat(255)).expect(200);
    expect(await quantityOf('1')).toBe(4);
  });

  it('should refuse an adjustment below 0 with 409 and the current item, and replay that answer', async () => {
    const refused = await adjust('1', { delta: -6 }, 'too-many').expect(409);
    expect(refused.body).toEqual({
      code: 'insufficient_stock',
      message: 'Pet 1 holds 5: an adjustment of -6 would leave less than 0',
      status: 409,
      details: { current: { petId: 1, quantity: 5, status: 'available', available: 5 } },
    });
    expect(await changesOf('1')).toHaveLength(1);
    // Stock arrives meanwhile; the retry still gets the first answer.
    await adjust('1', { delta: 10 }, 'restock').expect(200);
    const again = await adjust('1', { delta: -6 }, 'too-many').expect(409);
    expect(again.text).toBe(refused.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await quantityOf('1')).toBe(15);
  });

  it('should take the stock to exactly 0 and mark the pet sold', async () => {
    await adjust('1', { delta: -5 }, 'all').expect(200, {
      petId: 1,
      quantity: 0,
      status: 'sold',
      available: 0,
    });
  });

  it('should refuse a result above 2147483647 with 400, and an unknown pet with 404', async () => {
    await adjust('1', { delta: 2147483647 }, 'big').expect(400);
    expect(await quantityOf('1')).toBe(5);
    const missing = await adjust('404', { delta: 1 }, 'nobody').expect(404);
    expect(missing.body).toEqual({ code: 'not_found', message: 'No pet with id 404', status: 404 });
  });

  it('should refuse a malformed body with 400', async () => {
    const bodies = [
      {},
      { delta: 0 },
      { delta: 1.5 },
      { delta: '1' },
      { delta: 2147483648 },
      { delta: -2147483648 },
      { delta: 1, extra: true },
      { delta: 1, reason: 'stolen' },
      { delta: 1, reason: null },
      { delta: 1, reference: '' },
      { delta: 1, reference: 'r'.repeat(256) },
      [{ delta: 1 }],
    ];
    for (const [i, body] of bodies.entries()) {
      const res = await adjust('1', body, `bad-${i}`);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    await adjust('0', { delta: 1 }, 'pet-0').expect(400);
    expect(await quantityOf('1')).toBe(5);
    // A refused body keeps no record: the key is free for the corrected request.
    await adjust('1', { delta: -1 }, 'bad-1').expect(200);
  });

  it('should accept `sold` as a reason on PATCH too', async () => {
    await request(t.server)
      .patch('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .send({ quantity: 4, reason: 'sold' })
      .expect(200);
    expect((await changesOf('1')).at(-1).reason).toBe('sold');
  });

  it('should forget a key after IDEMPOTENCY_RETENTION_HOURS, and prune it', async () => {
    const clock = t.app.get(Clock);
    const start = Date.now();
    vi.spyOn(clock, 'now').mockImplementation(() => start);
    await adjust('1', { delta: -1 }, 'old').expect(200);
    vi.spyOn(clock, 'now').mockImplementation(() => start + 24 * HOUR_MS - 1);
    await adjust('1', { delta: -1 }, 'old').expect(200);
    expect(await quantityOf('1')).toBe(4);
    await adjust('1', { delta: -1 }, 'recent').expect(200);
    vi.spyOn(clock, 'now').mockImplementation(() => start + 24 * HOUR_MS + 1);
    expect(await t.app.get(IdempotencyPruner).prune()).toBe(1);
    const kept = await dataSource.query(`SELECT idempotency_key AS k FROM idempotency_keys`);
    expect(kept).toEqual([{ k: 'recent' }]);
    const fresh = await adjust('1', { delta: -1 }, 'old').expect(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await quantityOf('1')).toBe(2);
  });

  it('should never keep the raw API key, only its id', async () => {
    await adjust('1', { delta: -1 }, 'where').expect(200);
    const rows: { key_id: number }[] = await dataSource.query(`SELECT * FROM idempotency_keys`);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(typeof rows[0].key_id).toBe('number');
  });
});
