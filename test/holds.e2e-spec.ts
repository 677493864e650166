import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HoldsPruner } from '../src/holds/holds.pruner.js';
import { MetricsService } from '../src/metrics/metrics.service.js';
import { Clock } from '../src/rate-limit/clock.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { ManualClock } from './support/manual-clock.js';

const START = Date.parse('2030-03-01T10:00:00.000Z');
const DAY_MS = 86_400_000;
const BIG = '9007199254740993';

describe('Holds (e2e)', () => {
  let t: TestApp;
  let key: string;
  let clock: ManualClock;
  let keyCount = 0;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    vi.restoreAllMocks();
    clock = new ManualClock(START);
    vi.spyOn(t.app.get(Clock), 'now').mockImplementation(() => clock.now());
    await t.reset();
    key = await t.createKey({ plan: 'pro' });
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: BigInt(BIG), name: 'Big', status: 'pending', quantity: 2 },
    ]);
  });

  const hold = (petId: string, body: unknown, idempotencyKey: string | null = `k${++keyCount}`) => {
    const test = request(t.server)
      .post(`/v1/inventory/${petId}/holds`)
      .set('Authorization', `Bearer ${key}`);
    if (idempotencyKey !== null) test.set('Idempotency-Key', idempotencyKey);
    return test.send(body as object);
  };
  const post = (path: string, apiKey = key) =>
    request(t.server).post(path).set('Authorization', `Bearer ${apiKey}`);
  const get = (path: string, apiKey = key) =>
    request(t.server).get(path).set('Authorization', `Bearer ${apiKey}`);
  const item = async (petId: string) => (await get(`/v1/inventory/${petId}`).expect(200)).body;
  const changesOf = async (petId: string) =>
    (await get(`/v1/inventory/${petId}/changes`).expect(200)).body as Record<string, unknown>[];
  const adjust = (petId: string, delta: number) =>
    request(t.server)
      .post(`/v1/inventory/${petId}/adjustments`)
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', `a${++keyCount}`)
      .send({ delta });
  const patch = (petId: string, quantity: number) =>
    request(t.server)
      .patch(`/v1/inventory/${petId}`)
      .set('Authorization', `Bearer ${key}`)
      .send({ quantity });

  it('should create a hold with 201 and Location, and take its units from available everywhere', async () => {
    const res = await hold('1', { quantity: 2, reference: 'cart-1' }).expect(201);
    expect(res.headers.location).toBe(`/v1/holds/${res.body.holdId}`);
    expect(res.body).toEqual({
      holdId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      petId: 1,
      quantity: 2,
      status: 'active',
      reference: 'cart-1',
      createdAt: '2030-03-01T10:00:00.000Z',
      expiresAt: '2030-03-01T10:15:00.000Z',
      endedAt: null,
    });
    expect(await item('1')).toEqual({ petId: 1, quantity: 5, status: 'available', available: 3 });
    const listing = await get('/v1/inventory').expect(200);
    expect(listing.text).toBe(
      `[{"petId":1,"quantity":5,"status":"available","available":3},{"petId":${BIG},"quantity":2,"status":"pending","available":2}]`,
    );
    expect((await get(res.headers.location).expect(200)).body).toEqual(res.body);
    expect((await get('/v1/inventory/1/holds').expect(200)).body).toEqual([res.body]);
    // A hold changes no quantity and appends nothing to the feed.
    expect(await changesOf('1')).toHaveLength(1);
  });

  it('should keep exact int64 pet ids and honour expiresIn', async () => {
    const res = await hold(BIG, { quantity: 1, expiresIn: 60 }).expect(201);
    expect(res.text).toContain(`"petId":${BIG},`);
    expect(res.body).toMatchObject({ reference: null, expiresAt: '2030-03-01T10:01:00.000Z' });
    expect((await get(`/v1/inventory/${BIG}/holds`).expect(200)).text).toContain(BIG);
  });

  it('should refuse invalid requests with 400 and change nothing', async () => {
    const bodies = [
      {},
      { quantity: 0 },
      { quantity: 2147483648 },
      { quantity: 1.5 },
      { quantity: '1' },
      { quantity: 1, expiresIn: 59 },
      { quantity: 1, expiresIn: 86401 },
      { quantity: 1, reference: '' },
      { quantity: 1, reference: 'x'.repeat(256) },
      { quantity: 1, reference: null },
      { quantity: 1, extra: true },
    ];
    for (const body of bodies) {
      const res = await hold('1', body).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', status: 400 });
    }
    const keyless = await hold('1', { quantity: 1 }, null).expect(400);
    expect(keyless.body.message).toContain('Idempotency-Key');
    await hold('0', { quantity: 1 }).expect(400);
    await hold('1', { quantity: 1, expiresIn: 86400, reference: 'x'.repeat(255) }).expect(201);
    expect((await get('/v1/inventory/1/holds').expect(200)).body).toHaveLength(1);
  });

  it('should answer any other body shape with 400 and hold nothing, at every depth', async () => {
    const raw = (text: string) =>
      request(t.server)
        .post('/v1/inventory/1/holds')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', `raw-${++keyCount}`)
        .set('Content-Type', 'application/json')
        .send(text);
    for (const text of [
      '[]',
      '[{"quantity":1}]',
      '{"quantity":[1]}',
      '{"quantity":{"n":1}}',
      '{"quantity":1,"reference":["cart"]}',
      '{"quantity":1,"reference":"cart\\u0000"}',
      '{"quantity":1,"reference":"cart\\u001b[2J"}',
      '{"quantity":1,"__proto__":{"quantity":2}}',
      '{"quantity":1,"constructor":{}}',
    ]) {
      const res = await raw(text);
      expect(res.status, text).toBe(400);
      expect(res.body.code, text).toBe('validation_failed');
    }
    const junk = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null)),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom('quantity', 'expiresIn', 'reference', '__proto__', 'x'),
          tie('value'),
          { maxKeys: 3 },
        ),
      ),
    })).value;
    const inRange = (value: unknown, min: number, max: number) =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
    // At least one field of the wrong type or out of range, or not an object at all.
    const body = fc.oneof(
      junk.filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
      fc
        .record({
          quantity: fc.oneof(fc.constant(1), junk),
          expiresIn: fc.oneof(fc.constant(900), junk),
          reference: fc.oneof(fc.constant('cart'), junk),
        })
        .filter(
          (sent) =>
            !inRange(sent.quantity, 1, 2_147_483_647) ||
            !inRange(sent.expiresIn, 60, 86_400) ||
            typeof sent.reference !== 'string' ||
            // eslint-disable-next-line no-control-regex -- the characters a reference may not hold
            !/^[^\u0000-\u001f\u007f-\u009f]{1,255}$/u.test(sent.reference),
        ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const res = await raw(JSON.stringify(sent));
        expect(res.status, JSON.stringify(sent)).toBe(400);
        expect(res.body.code).toBe('validation_failed');
      }),
      { numRuns: 150 },
    );
    expect((await get('/v1/inventory/1/holds').expect(200)).body).toEqual([]);
    expect((await item('1')).available).toBe(5);
  });

  it('should page active holds oldest first, with Link rel="next" on a full page', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await hold('1', { quantity: 1 }).expect(201)).body.holdId);
      clock.advance(1000);
    }
    const all = await get('/v1/inventory/1/holds').expect(200);
    expect(all.body.map((h: { holdId: string }) => h.holdId)).toEqual(ids);
    expect(all.headers.link).toBeUndefined();

    const first = await get('/v1/inventory/1/holds?limit=2').expect(200);
    expect(first.body.map((h: { holdId: string }) => h.holdId)).toEqual(ids.slice(0, 2));
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link)?.[1];
    expect(next).toMatch(/^\/v1\/inventory\/1\/holds\?after=[\w-]+&limit=2$/);
    // A hold released in between leaves the pages after it as they were.
    await post(`/v1/holds/${ids[0]}/release`).expect(200);
    const rest = await get(next!).expect(200);
    expect(rest.body.map((h: { holdId: string }) => h.holdId)).toEqual(ids.slice(2));
    expect(rest.headers.link).toBeUndefined();

    const full = await get('/v1/inventory/1/holds?limit=2').expect(200);
    expect(full.body.map((h: { holdId: string }) => h.holdId)).toEqual(ids.slice(1));
    const after = /<([^>]+)>/.exec(full.headers.link)![1];
    expect((await get(after).expect(200)).body).toEqual([]);

    const feedCursor = /after=([^&>]+)/.exec(
      (await get('/v1/inventory/changes').expect(200)).headers.link,
    )![1];
    for (const query of ['after=x', `after=${feedCursor}`, 'limit=0', 'limit=1001', 'limit=two']) {
      const res = await get(`/v1/inventory/1/holds?${query}`).expect(400);
      expect(res.body.code, query).toBe('validation_failed');
    }
  });

  it('should answer 404 for an unknown pet, and for an unknown or malformed hold id', async () => {
    expect((await hold('77', { quantity: 1 }).expect(404)).body).toMatchObject({
      code: 'not_found',
      message: 'No pet with id 77',
    });
    await get('/v1/inventory/77/holds').expect(404);
    for (const id of ['3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30', 'nope', '1']) {
      expect((await get(`/v1/holds/${id}`).expect(404)).body.code).toBe('not_found');
      await post(`/v1/holds/${id}/confirm`).expect(404);
      await post(`/v1/holds/${id}/release`).expect(404);
    }
  });

  it('should keep held units from other holds: 409 insufficient_stock with the current item', async () => {
    await hold('1', { quantity: 3 }).expect(201);
    const refused = await hold('1', { quantity: 3 }).expect(409);
    expect(refused.body).toEqual({
      code: 'insufficient_stock',
      message: expect.stringContaining('2 available'),
      status: 409,
      details: { current: { petId: 1, quantity: 5, status: 'available', available: 2 } },
    });
    await hold('1', { quantity: 2 }).expect(201);
    await hold('1', { quantity: 1 }).expect(409);
    expect((await item('1')).available).toBe(0);
  });

  it('should decide holds sent together one after another, and one per Idempotency-Key', async () => {
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => hold('1', { quantity: 1 })),
      ...Array.from({ length: 3 }, () => hold(BIG, { quantity: 1 }, 'same')),
    ]);
    expect(answers.slice(0, 8).filter((res) => res.status === 201)).toHaveLength(5);
    expect(answers.slice(0, 8).filter((res) => res.status === 409)).toHaveLength(3);
    const same = answers.slice(8);
    expect(same.map((res) => res.status)).toEqual([201, 201, 201]);
    expect(new Set(same.map((res) => res.text)).size).toBe(1);
    expect(same.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect((await get(`/v1/inventory/${BIG}/holds`).expect(200)).body).toHaveLength(1);
    expect(await item('1')).toMatchObject({ quantity: 5, available: 0 });
  });

  it('should replay a retry with the same Idempotency-Key, and refuse the key for another body', async () => {
    const first = await hold('1', { quantity: 1 }, 'cart-9').expect(201);
    const again = await hold('1', { quantity: 1 }, 'cart-9').expect(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await get('/v1/inventory/1/holds').expect(200)).body).toHaveLength(1);
    expect((await hold('1', { quantity: 2 }, 'cart-9').expect(422)).body.code).toBe(
      'idempotency_key_reused',
    );
    const refused = await hold('1', { quantity: 9 }, 'too-many').expect(409);
    const replayed = await hold('1', { quantity: 9 }, 'too-many').expect(409);
    expect(replayed.text).toBe(refused.text);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('should end a hold at expiresAt: available returns, and the listing and item ETags move', async () => {
    const created = (await hold('1', { quantity: 2, expiresIn: 60 }).expect(201)).body;
    const listing = await get('/v1/inventory').expect(200);
    const itemRes = await get('/v1/inventory/1').expect(200);
    await get('/v1/inventory').set('If-None-Match', listing.headers.etag).expect(304);

    clock.set(START + 60_000 - 1);
    await get('/v1/inventory').set('If-None-Match', listing.headers.etag).expect(304);
    expect((await get(`/v1/holds/${created.holdId}`).expect(200)).body.status).toBe('active');

    clock.set(START + 60_000);
    const after = await get('/v1/inventory').set('If-None-Match', listing.headers.etag).expect(200);
    expect(after.headers.etag).not.toBe(listing.headers.etag);
    expect(after.body[0]).toEqual({ petId: 1, quantity: 5, status: 'available', available: 5 });
    const itemAfter = await get('/v1/inventory/1').expect(200);
    expect(itemAfter.body.available).toBe(5);
    expect(itemAfter.headers.etag).not.toBe(itemRes.headers.etag);

    expect((await get(`/v1/holds/${created.holdId}`).expect(200)).body).toEqual({
      ...created,
      status: 'expired',
      endedAt: '2030-03-01T10:01:00.000Z',
    });
    expect((await get('/v1/inventory/1/holds').expect(200)).body).toEqual([]);
    const confirm = await post(`/v1/holds/${created.holdId}/confirm`).expect(409);
    expect(confirm.body).toMatchObject({
      code: 'hold_not_active',
      details: { current: { holdId: created.holdId, status: 'expired' } },
    });
    const release = await post(`/v1/holds/${created.holdId}/release`).expect(200);
    expect(release.body.status).toBe('expired');
    await hold('1', { quantity: 5 }).expect(201);
  });

  it('should confirm once: one change with reason sold and the reference, then answer the same', async () => {
    const created = (await hold(BIG, { quantity: 2, reference: 'order-7' }).expect(201)).body;
    clock.advance(1000);
    const res = await post(`/v1/holds/${created.holdId}/confirm`).expect(200);
    expect(res.body).toEqual({
      hold: { ...created, status: 'confirmed', endedAt: '2030-03-01T10:00:01.000Z' },
      item: { petId: Number(BIG), quantity: 0, status: 'sold', available: 0 },
    });
    expect(res.text).toContain(`"petId":${BIG},`);
    const changes = await changesOf(BIG);
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({
      previousQuantity: 2,
      quantity: 0,
      previousStatus: 'pending',
      status: 'sold',
      reason: 'sold',
      reference: 'order-7',
      source: 'api',
    });
    const again = await post(`/v1/holds/${created.holdId}/confirm`).expect(200);
    expect(again.body).toEqual(res.body);
    expect(await changesOf(BIG)).toHaveLength(2);
    const release = await post(`/v1/holds/${created.holdId}/release`).expect(409);
    expect(release.body).toMatchObject({
      code: 'hold_not_active',
      details: { current: { status: 'confirmed' } },
    });
  });

  it('should release: units available at once; releasing again changes nothing; a released hold cannot be confirmed', async () => {
    const created = (await hold('1', { quantity: 4 }).expect(201)).body;
    const before = await get('/v1/inventory').expect(200);
    clock.advance(5000);
    const released = await post(`/v1/holds/${created.holdId}/release`).expect(200);
    expect(released.body).toEqual({
      ...created,
      status: 'released',
      endedAt: '2030-03-01T10:00:05.000Z',
    });
    const after = await get('/v1/inventory').set('If-None-Match', before.headers.etag).expect(200);
    expect(after.body[0].available).toBe(5);
    clock.advance(5000);
    expect((await post(`/v1/holds/${created.holdId}/release`).expect(200)).body).toEqual(
      released.body,
    );
    expect((await post(`/v1/holds/${created.holdId}/confirm`).expect(409)).body.code).toBe(
      'hold_not_active',
    );
    expect(await changesOf('1')).toHaveLength(1);
  });

  it('should keep held units from adjustments and batch delta lines', async () => {
    await hold('1', { quantity: 3 }).expect(201);
    const refused = await adjust('1', -3).expect(409);
    expect(refused.body).toMatchObject({
      code: 'insufficient_stock',
      details: { current: { quantity: 5, available: 2 } },
    });
    const batch = await request(t.server)
      .post('/v1/inventory/batch')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', 'batch-1')
      .send({ changes: [{ petId: 1, delta: -3 }] })
      .expect(409);
    expect(batch.body.details.lines[0]).toMatchObject({ code: 'insufficient_stock' });
    const ok = await adjust('1', -2).expect(200);
    expect(ok.body).toEqual({ petId: 1, quantity: 3, status: 'available', available: 0 });
    expect(ok.headers.etag).toBe((await get('/v1/inventory/1').expect(200)).headers.etag);
    await adjust('1', 1).expect(200);
  });

  it('should let a PATCH count win: available 0, and a confirm then refused while the hold stays', async () => {
    const created = (await hold('1', { quantity: 3 }).expect(201)).body;
    const counted = await patch('1', 1).expect(200);
    expect(counted.body).toEqual({ petId: 1, quantity: 1, status: 'available', available: 0 });
    const refused = await post(`/v1/holds/${created.holdId}/confirm`).expect(409);
    expect(refused.body).toMatchObject({
      code: 'insufficient_stock',
      details: { current: { quantity: 1, available: 0 } },
    });
    expect((await get(`/v1/holds/${created.holdId}`).expect(200)).body.status).toBe('active');
    await patch('1', 4).expect(200);
    const confirmed = await post(`/v1/holds/${created.holdId}/confirm`).expect(200);
    expect(confirmed.body.item).toEqual({
      petId: 1,
      quantity: 1,
      status: 'available',
      available: 1,
    });
  });

  it('should need a write key to create, confirm and release, and a read key to read', async () => {
    const reader = await t.createKey({ plan: 'pro', scope: 'read' });
    const created = (await hold('1', { quantity: 1 }).expect(201)).body;
    await request(t.server)
      .post('/v1/inventory/1/holds')
      .set('Authorization', `Bearer ${reader}`)
      .set('Idempotency-Key', 'r1')
      .send({ quantity: 1 })
      .expect(403);
    await post(`/v1/holds/${created.holdId}/confirm`, reader).expect(403);
    await post(`/v1/holds/${created.holdId}/release`, reader).expect(403);
    await get(`/v1/holds/${created.holdId}`, reader).expect(200);
    await get('/v1/inventory/1/holds', reader).expect(200);
    await request(t.server).get(`/v1/holds/${created.holdId}`).expect(401);
  });

  it('should count holds ended, and remove ended holds after HOLDS_RETENTION_DAYS', async () => {
    const metrics = t.app.get(MetricsService);
    const count = async (outcome: string) => {
      const line = (await metrics.metrics())
        .split('\n')
        .find((l) => l.startsWith(`petstore_holds_ended_total{outcome="${outcome}"}`))!;
      return Number(line.split(' ')[1]);
    };
    const active = async () =>
      Number(
        (await metrics.metrics())
          .split('\n')
          .find((l) => l.startsWith('petstore_holds_active '))!
          .split(' ')[1],
      );
    const before = { confirmed: await count('confirmed'), expired: await count('expired') };
    const a = (await hold('1', { quantity: 1, expiresIn: 60 }).expect(201)).body;
    const b = (await hold('1', { quantity: 1, expiresIn: 600 }).expect(201)).body;
    expect(await active()).toBe(2);
    await post(`/v1/holds/${b.holdId}/confirm`).expect(200);
    expect(await count('confirmed')).toBe(before.confirmed + 1);
    clock.advance(60_000);
    expect(await active()).toBe(0);
    const pruner = t.app.get(HoldsPruner);
    expect(await pruner.prune()).toBe(0);
    expect(await count('expired')).toBe(before.expired + 1);
    expect(await pruner.prune()).toBe(0);
    expect(await count('expired')).toBe(before.expired + 1);
    expect((await get(`/v1/holds/${a.holdId}`).expect(200)).body.status).toBe('expired');
    clock.set(START + 30 * DAY_MS);
    expect(await pruner.prune()).toBe(0);
    clock.set(START + 30 * DAY_MS + 1);
    expect(await pruner.prune()).toBe(1);
    await get(`/v1/holds/${b.holdId}`).expect(404);
    await get(`/v1/holds/${a.holdId}`).expect(200);
    clock.set(START + 60_001 + 30 * DAY_MS);
    expect(await pruner.prune()).toBe(1);
    await get(`/v1/holds/${a.holdId}`).expect(404);
    expect(await t.app.get(DataSource).query('SELECT id FROM holds')).toEqual([]);
  });
});
