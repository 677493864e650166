import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { useRateLimitClock } from './support/manual-clock.js';

describe('POST /v1/inventory/batch (e2e)', () => {
  let t: TestApp;
  let key: string;
  let dataSource: DataSource;
  useRateLimitClock(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey({ plan: 'pro' });
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 2n, name: 'Tom', status: 'pending', quantity: 2 },
      { petId: 9007199254740993n, name: 'Big', status: 'sold', quantity: 0 },
    ]);
  });

  const batch = (body: unknown, idempotencyKey: string | null, apiKey = key) => {
    const test = request(t.server)
      .post('/v1/inventory/batch')
      .set('Authorization', `Bearer ${apiKey}`);
    if (idempotencyKey !== null) test.set('Idempotency-Key', idempotencyKey);
    return test.send(body as object);
  };
  const get = (path: string) =>
    request(t.server).get(path).set('Authorization', `Bearer ${key}`).expect(200);
  const stock = async () =>
    (await get('/v1/inventory')).body.map((item: { quantity: number }) => item.quantity);
  const changeCount = async () =>
    Number((await dataSource.query(`SELECT COUNT(*) AS n FROM inventory_changes`))[0].n);

  it('should apply sets and deltas in line order, answer every line, and append their changes in order', async () => {
    const res = await batch(
      {
        changes: [
          { petId: 1, delta: -2, reason: 'sold', reference: 'order-1' },
          { petId: '9007199254740993', quantity: 4, reason: 'received' },
          { petId: 1, delta: -3, expectedQuantity: 3 },
          { petId: 2, quantity: 2 },
        ],
      },
      'b1',
    ).expect(200);
    expect(res.text).toBe(
      '{"items":[{"petId":1,"quantity":3,"status":"available","available":3},{"petId":9007199254740993,"quantity":4,"status":"available","available":4},{"petId":1,"quantity":0,"status":"sold","available":0},{"petId":2,"quantity":2,"status":"pending","available":2}]}',
    );
    expect(await stock()).toEqual([0, 2, 4]);
    const changes = (await get('/v1/inventory/changes')).body.slice(-3);
    expect(changes).toMatchObject([
      {
        petId: 1,
        quantity: 3,
        reason: 'sold',
        reference: 'order-1',
        requestId: res.headers['x-request-id'],
      },
      {
        quantity: 4,
        previousStatus: 'sold',
        status: 'available',
        reason: 'received',
        requestId: res.headers['x-request-id'],
      },
      {
        petId: 1,
        previousQuantity: 3,
        quantity: 0,
        status: 'sold',
        reason: null,
        requestId: res.headers['x-request-id'],
      },
    ]);
    // Line 4 set what was already there: it appends nothing.
    expect(await changeCount()).toBe(6);
  });

  it('should keep references and Idempotency-Keys exactly, whatever characters they hold', async () => {
    // Each line's values travel to PostgreSQL as arrays, where quotes, backslashes, commas, braces
    // and the word NULL have meanings of their own.
    const references = ['say "a,b"', 'back\\slash', '{x}', 'NULL', ' ', 'ünï 🐾'];
    const idempotencyKey = 'k "{NULL}", \\';
    const res = await batch(
      { changes: references.map((reference, i) => ({ petId: 1, delta: i + 1, reference })) },
      idempotencyKey,
    ).expect(200);
    const changes = (await get('/v1/inventory/changes')).body.slice(-references.length);
    expect(changes.map((change: { reference: string }) => change.reference)).toEqual(references);
    const again = await batch(
      { changes: references.map((reference, i) => ({ petId: 1, delta: i + 1, reference })) },
      idempotencyKey,
    ).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(res.text);
  });

  it('should refuse the whole batch when one line does not hold its expected quantity', async () => {
    const before = await changeCount();
    const res = await batch(
      {
        changes: [
          { petId: 1, delta: -1 },
          { petId: 2, quantity: 9, expectedQuantity: 3 },
        ],
      },
      'b2',
    ).expect(409);
    expect(res.body).toEqual({
      code: 'quantity_mismatch',
      message: 'Nothing was changed: line 2 was refused (Pet 2 holds 2, not the expected quantity)',
      status: 409,
      details: {
        lines: [
          {
            index: 1,
            code: 'quantity_mismatch',
            current: { petId: 2, quantity: 2, status: 'pending', available: 2 },
          },
        ],
      },
    });
    expect(await stock()).toEqual([5, 2, 0]);
    expect(await changeCount()).toBe(before);
  });

  it('should refuse the whole batch when a line would leave less than 0, counting the lines before it', async () => {
    const res = await batch(
      {
        changes: [
          { petId: 1, delta: -3 },
          { petId: 1, delta: -3 },
          { petId: 2, delta: -3 },
        ],
      },
      'b3',
    ).expect(409);
    expect(res.body).toEqual({
      code: 'insufficient_stock',
      message:
        'Nothing was changed: line 2 was refused (Pet 1 holds 2: the line would leave less than 0), and 1 more line',
      status: 409,
      details: {
        lines: [
          {
            index: 1,
            code: 'insufficient_stock',
            current: { petId: 1, quantity: 2, status: 'available', available: 2 },
          },
          {
            index: 2,
            code: 'insufficient_stock',
            current: { petId: 2, quantity: 2, status: 'pending', available: 2 },
          },
        ],
      },
    });
    expect(await stock()).toEqual([5, 2, 0]);
  });

  it('should answer 404 with the unknown lines when a pet does not exist, changing nothing', async () => {
    const res = await batch(
      {
        changes: [
          { petId: 1, delta: -1 },
          { petId: 77, quantity: 1 },
        ],
      },
      'b4',
    ).expect(404);
    expect(res.body).toMatchObject({
      code: 'not_found',
      details: { lines: [{ index: 1, code: 'not_found' }] },
    });
    expect(await stock()).toEqual([5, 2, 0]);
  });

  it('should replay a batch and refuse its key for another batch', async () => {
    const body = {
      changes: [
        { petId: 1, delta: -1 },
        { petId: 2, delta: 1 },
      ],
    };
    const first = await batch(body, 'b5').expect(200);
    const again = await batch(body, 'b5').expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await batch({ changes: [{ petId: 1, delta: -1 }] }, 'b5').expect(422);
    // A key of the adjustment route is another request too.
    await request(t.server)
      .post('/v1/inventory/1/adjustments')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', 'b5')
      .send({ delta: -1 })
      .expect(422);
    expect(await stock()).toEqual([4, 3, 0]);
  });

  it('should read a petId sent as a JSON number above 2^53 exactly, and refuse one above int64', async () => {
    const raw = (text: string, idempotencyKey: string) =>
      request(t.server)
        .post('/v1/inventory/batch')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', idempotencyKey)
        .set('Content-Type', 'application/json')
        .send(text);
    const body = '{"changes":[{"petId":9007199254740993,"quantity":7},{"petId":1,"delta":1}]}';
    const res = await raw(body, 'exact').expect(200);
    expect(res.text).toBe(
      '{"items":[{"petId":9007199254740993,"quantity":7,"status":"available","available":7},{"petId":1,"quantity":6,"status":"available","available":6}]}',
    );
    const again = await raw(body, 'exact').expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await stock()).toEqual([6, 2, 7]);
    for (const petId of ['9223372036854775808', '-9007199254740993', '9007199254740993.5']) {
      const refused = await raw(`{"changes":[{"petId":${petId},"delta":1}]}`, `over-${petId}`);
      expect(refused.status, petId).toBe(400);
      expect(refused.body.code).toBe('validation_failed');
    }
    expect(await stock()).toEqual([6, 2, 7]);
  });

  it('should refuse malformed batches with 400', async () => {
    const lines = (n: number) => Array.from({ length: n }, () => ({ petId: 1, delta: 1 }));
    const bodies = [
      {},
      { changes: [] },
      { changes: lines(101) },
      { changes: {} },
      { changes: [5] },
      { changes: [{ petId: 1 }] },
      { changes: [{ petId: 1, quantity: 1, delta: 1 }] },
      { changes: [{ petId: 1, delta: 0 }] },
      { changes: [{ petId: 1, quantity: -1 }] },
      { changes: [{ petId: 1, delta: 1, expectedQuantity: -1 }] },
      { changes: [{ petId: 0, delta: 1 }] },
      { changes: [{ petId: '9223372036854775808', delta: 1 }] },
      { changes: [{ delta: 1 }] },
      { changes: [{ petId: 1, delta: 1, note: 'x' }] },
      { changes: [{ petId: 1, delta: 1, reason: 'stolen' }] },
      { changes: lines(1), extra: 1 },
    ];
    for (const [i, body] of bodies.entries()) {
      const res = await batch(body, `bad-${i}`);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    await batch({ changes: [{ petId: 1, delta: 1 }] }, null).expect(400);
    await batch(
      {
        changes: [
          { petId: 1, quantity: 2147483647 },
          { petId: 1, delta: 1 },
        ],
      },
      'over',
    ).expect(400);
    expect(await stock()).toEqual([5, 2, 0]);
    await batch({ changes: lines(100) }, 'hundred').expect(200);
    expect(await stock()).toEqual([105, 2, 0]);
  });

  describe('rate limits', () => {
    const remaining = (res: request.Response) => Number(res.headers['x-ratelimit-remaining']);

    it('should count one request per line, refuse a batch that does not fit whole, and count a replay once', async () => {
      const free = await t.createKey({ plan: 'free' });
      const body = (n: number) => ({
        changes: Array.from({ length: n }, () => ({ petId: 1, delta: 1 })),
      });
      expect(remaining(await batch(body(10), 'l1', free).expect(200))).toBe(50);
      expect(remaining(await batch(body(45), 'l2', free).expect(200))).toBe(5);
      const refused = await batch(body(6), 'l3', free).expect(429);
      expect(refused.body.code).toBe('rate_limit_exceeded');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(remaining(refused)).toBe(5);
      expect(await stock()).toEqual([60, 2, 0]);
      // The replay of 45 lines costs one request.
      const replay = await batch(body(45), 'l2', free).expect(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(remaining(replay)).toBe(4);
      expect(remaining(await batch(body(4), 'l4', free).expect(200))).toBe(0);
      expect(await stock()).toEqual([64, 2, 0]);
    });

    it("should refuse a batch with more lines than the key's minute quota as such, counting it once", async () => {
      const free = await t.createKey({ plan: 'free' });
      const changes = Array.from({ length: 61 }, () => ({ petId: 1, delta: 1 }));
      const refused = await batch({ changes }, 'too-big', free).expect(400);
      expect(refused.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(refused.body.message).toContain('more than the minute quota of 60 requests');
      expect(refused.headers['retry-after']).toBeUndefined();
      expect(remaining(refused)).toBe(59);
      expect(await stock()).toEqual([5, 2, 0]);
    });
  });
});
