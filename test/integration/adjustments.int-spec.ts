import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/create-test-app.js';
import { describeRetriesThroughFaults } from '../support/retries-through-faults.contract.js';
import {
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';

async function twoInstances(): Promise<{ apps: TestApp[]; database: TestDatabase }> {
  const database = await migratedDatabase(requireIntegrationContext(), 'adjust');
  const env = { DATABASE_URL: database.url, DB_POOL_SIZE: '4' };
  return { apps: [await createTestApp(env), await createTestApp(env)], database };
}

describeRetriesThroughFaults(
  'retried adjustments through lost answers, two instances on PostgreSQL (integration)',
  async () => {
    const { apps, database } = await twoInstances();
    return {
      apps,
      async close() {
        for (const t of apps) await t.close();
        await database.drop();
      },
    };
  },
);

describe('one Idempotency-Key sent to two instances at once, on PostgreSQL (integration)', () => {
  let apps: TestApp[];
  let database: TestDatabase;
  let key: string;

  beforeAll(async () => {
    ({ apps, database } = await twoInstances());
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await database.drop();
  });
  beforeEach(async () => {
    await apps[0].reset();
    key = await apps[0].createKey({ plan: 'pro' });
    await apps[0].seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 50 }]);
  });

  const send = (t: TestApp, body: object, idempotencyKey: string) =>
    request(t.server)
      .post('/v1/inventory/batch')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', idempotencyKey)
      .send(body);

  it('should apply a batch once and answer every duplicate with its answer', async () => {
    const body = {
      changes: [
        { petId: 1, delta: -1 },
        { petId: 1, delta: -2 },
      ],
    };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send(apps[i % 2], body, 'twice')),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    const [{ n }] = await apps[1].app
      .get(DataSource)
      .query(`SELECT COUNT(*) AS n FROM inventory_changes WHERE source = 'api'`);
    expect(Number(n)).toBe(2);
    const item = await request(apps[1].server)
      .get('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(item.body.quantity).toBe(47);
    // A first answer on each instance as well, for its check against the document.
    for (const [i, t] of apps.entries())
      expect(
        (await send(t, body, `fresh-${i}`).expect(200)).headers['idempotent-replayed'],
      ).toBeUndefined();
  });
});
