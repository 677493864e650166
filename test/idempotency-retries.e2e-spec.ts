import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { describeRetriesThroughFaults } from './support/retries-through-faults.contract.js';

describeRetriesThroughFaults(
  'retried adjustments through lost answers, on SQLite (e2e)',
  async () => {
    const t = await createTestApp();
    return { apps: [t], close: () => t.close() };
  },
);

describe('concurrent requests with one Idempotency-Key (e2e)', () => {
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
    key = await t.createKey({ plan: 'pro' });
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  });

  const send = (path: string, body: object, idempotencyKey: string) =>
    request(t.server)
      .post(path)
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', idempotencyKey)
      .send(body);

  it('should apply one of many simultaneous duplicates and answer every one the same', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send('/v1/inventory/1/adjustments', { delta: -1 }, 'same')),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((res) => res.text))).toEqual(
      new Set(['{"petId":1,"quantity":4,"status":"available","available":4}']),
    );
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    const [{ n }] = await dataSource.query(
      `SELECT COUNT(*) AS n FROM inventory_changes WHERE source = 'api'`,
    );
    expect(Number(n)).toBe(1);
  });

  it('should refuse simultaneous different requests with one key, applying only one', async () => {
    const answers = await Promise.all([
      send('/v1/inventory/1/adjustments', { delta: -1 }, 'clash'),
      send('/v1/inventory/1/adjustments', { delta: -2 }, 'clash'),
      send('/v1/inventory/batch', { changes: [{ petId: 1, delta: -3 }] }, 'clash'),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 422, 422]);
    const applied = answers.find((res) => res.status === 200)!;
    const quantity = (
      await request(t.server).get('/v1/inventory/1').set('Authorization', `Bearer ${key}`)
    ).body.quantity;
    expect(5 - quantity).toBe(applied.body.items ? 3 : 5 - applied.body.quantity);
  });
});
