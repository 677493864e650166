import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImportError } from '../src/common/import/json-rows.js';
import { OrdersImporter, parseOrdersFile } from '../src/orders/orders.importer.js';
import { OrdersRepository } from '../src/orders/orders.repository.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

describe('GET /v1/store/orders (e2e)', () => {
  let t: TestApp;
  let key: string;
  const importOrders = (json: string) => t.app.get(OrdersImporter).import(parseOrdersFile(json));
  const list = () =>
    request(t.server).get('/v1/store/orders').set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey();
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 9007199254740993n, name: 'Big Ben', status: 'available', quantity: 1 },
    ]);
  });

  it('should return an empty array when there are no orders', async () => {
    await list()
      .expect(200, [])
      .expect('Content-Type', /^application\/json/);
  });

  it('should return every order by ascending id, shipDate in UTC and absent until scheduled', async () => {
    await importOrders(`[
      {"id": 20, "petId": 1, "quantity": 2, "status": "delivered", "shipDate": "2026-06-02T12:00:00+02:00"},
      {"id": 3, "petId": 9007199254740993, "quantity": 1, "status": "placed"},
      {"id": 7, "petId": 1, "quantity": 3, "status": "approved", "shipDate": "2026-12-01", "complete": false}
    ]`);
    const res = await list().expect(200);
    expect(res.body).toEqual([
      { id: 3, petId: Number('9007199254740993'), quantity: 1, status: 'placed', complete: false },
      {
        id: 7,
        petId: 1,
        quantity: 3,
        status: 'approved',
        shipDate: '2026-12-01T00:00:00.000Z',
        complete: false,
      },
      {
        id: 20,
        petId: 1,
        quantity: 2,
        status: 'delivered',
        shipDate: '2026-06-02T10:00:00.000Z',
        complete: true,
      },
    ]);
    expect(Object.keys(res.body[1])).toEqual([
      'id',
      'petId',
      'quantity',
      'status',
      'shipDate',
      'complete',
    ]);
    // int64 ids are written exactly, not rounded to a double.
    expect(res.text).toContain('"petId":9007199254740993,');
  });

  it('should answer a matching If-None-Match with 304 until an order changes', async () => {
    await importOrders('[{"id": 1, "petId": 1, "quantity": 1, "status": "placed"}]');
    const { etag } = (await list().expect(200)).headers;
    expect(etag).toMatch(/^W\/"[^"]+"$/);
    const revalidated = await list().set('If-None-Match', etag).expect(304);
    expect(revalidated.text).toBeFalsy();
    await importOrders('[{"id": 1, "petId": 1, "quantity": 2, "status": "placed"}]');
    const changed = await list().set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('should upsert by id when the same orders are imported again', async () => {
    expect(
      await importOrders('[{"id": 1, "petId": 1, "quantity": 1, "status": "placed"}]'),
    ).toEqual({ inserted: 1, updated: 0 });
    expect(
      await importOrders(`[{"id": 1, "petId": 1, "quantity": 4, "status": "delivered", "shipDate": "2026-07-01T08:00:00Z"},
        {"id": 9223372036854775807, "petId": 1, "quantity": 1, "status": "placed", "complete": true}]`),
    ).toEqual({ inserted: 1, updated: 1 });
    const res = await list().expect(200);
    expect(res.text).toBe(
      '[{"id":1,"petId":1,"quantity":4,"status":"delivered","shipDate":"2026-07-01T08:00:00.000Z","complete":true},' +
        '{"id":9223372036854775807,"petId":1,"quantity":1,"status":"placed","complete":true}]',
    );
  });

  it('should refuse orders of pets outside the catalogue and store none of the file', async () => {
    const rows = parseOrdersFile(`[
      {"id": 1, "petId": 1, "quantity": 1, "status": "placed"},
      {"id": 2, "petId": 404, "quantity": 1, "status": "placed"}
    ]`);
    const failure = await t.app
      .get(OrdersImporter)
      .import(rows)
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ImportError);
    expect((failure as ImportError).problems).toEqual(['row 2: petId 404 is not in the catalogue']);
    expect(await t.app.get(OrdersRepository).count()).toBe(0);
    await list().expect(200, []);
  });

  it('should return 401 without a key', async () => {
    const res = await request(t.server).get('/v1/store/orders').expect(401);
    expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
  });

  it('should answer only GET', async () => {
    const res = await request(t.server)
      .post('/v1/store/orders')
      .set('Authorization', `Bearer ${key}`)
      .expect(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('demo seed (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_ENV: 'development' });
  });
  afterAll(() => t.close());

  it('should include orders of the demo pets in every status', async () => {
    const { DemoSeeder } = await import('../src/seed/demo-seeder.js');
    const demoKey = await t.app.get(DemoSeeder).seedIfEmpty();
    expect(demoKey).toMatch(/^pk_test_/);
    const res = await request(t.server)
      .get('/v1/store/orders')
      .set('Authorization', `Bearer ${demoKey}`)
      .expect(200);
    expect(res.body.length).toBeGreaterThanOrEqual(3);
    expect(new Set(res.body.map((order: { status: string }) => order.status))).toEqual(
      new Set(['placed', 'approved', 'delivered']),
    );
    const inventory = await request(t.server)
      .get('/v1/inventory')
      .set('Authorization', `Bearer ${demoKey}`)
      .expect(200);
    const petIds = new Set(inventory.body.map((item: { petId: number }) => item.petId));
    for (const order of res.body) expect(petIds.has(order.petId)).toBe(true);
  });
});
