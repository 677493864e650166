import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/create-test-app.js';
import {
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';

const context = requireIntegrationContext();

describe('inventory listing cache across instances sharing PostgreSQL (integration)', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let key: string;

  const list = (t: TestApp, headers: Record<string, string> = {}) =>
    request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${key}`).set(headers);
  const patch = (t: TestApp, petId: string, quantity: number) =>
    request(t.server)
      .patch(`/v1/inventory/${petId}`)
      .set('Authorization', `Bearer ${key}`)
      .send({ quantity });

  beforeAll(async () => {
    database = await migratedDatabase(context, 'cache');
    a = await createTestApp({ DATABASE_URL: database.url, DB_POOL_SIZE: '4' });
    b = await createTestApp({ DATABASE_URL: database.url, DB_POOL_SIZE: '4' });
    key = await a.createKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 });
    await a.seed(
      Array.from({ length: 20 }, (_, i) => ({
        petId: BigInt(i + 1),
        name: null,
        status: 'available' as const,
        quantity: 10,
      })),
    );
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('should list a write acknowledged by the other instance on the next request, with a new ETag', async () => {
    const before = await list(a).expect(200);
    expect((await list(b)).headers.etag).toBe(before.headers.etag);
    await patch(b, '3', 0).expect(200);
    const after = await list(a, { 'If-None-Match': before.headers.etag }).expect(200);
    expect(after.body[2]).toEqual({ petId: 3, quantity: 0, status: 'sold', available: 0 });
    expect(after.headers.etag).toBe((await list(b)).headers.etag);
  });

  it('should agree with the database after concurrent PATCHes through both instances', async () => {
    await Promise.all([list(a), list(b)]);
    const writes = Array.from({ length: 200 }, (_, i) =>
      patch(i % 2 === 0 ? a : b, String((i % 20) + 1), i),
    );
    for (const res of await Promise.all(writes)) expect(res.status).toBe(200);
    const stored = await a.app
      .get(DataSource)
      .query(`SELECT CAST(id AS TEXT) AS "petId", quantity FROM pets ORDER BY id`);
    const expected = stored.map((row: { petId: string; quantity: number }) => ({
      petId: Number(row.petId),
      quantity: row.quantity,
    }));
    for (const t of [a, b]) {
      expect(
        (await list(t)).body.map(({ petId, quantity }: { petId: number; quantity: number }) => ({
          petId,
          quantity,
        })),
      ).toEqual(expected);
    }
  });
});
