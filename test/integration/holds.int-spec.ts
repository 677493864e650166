import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Clock } from '../../src/rate-limit/clock.js';
import { createTestApp, type TestApp } from '../support/create-test-app.js';
import {
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';

const START = Date.parse('2030-05-01T08:00:00.000Z');
const STOCK = 50;
const REQUESTS = 200;

describe('holds from two instances at once, on PostgreSQL (integration)', () => {
  let apps: TestApp[];
  let database: TestDatabase;
  let key: string;
  let now = START;
  let sent = 0;

  beforeAll(async () => {
    database = await migratedDatabase(requireIntegrationContext(), 'holds');
    const env = { DATABASE_URL: database.url, DB_POOL_SIZE: '4' };
    apps = [await createTestApp(env), await createTestApp(env)];
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await database.drop();
  });
  beforeEach(async () => {
    vi.restoreAllMocks();
    now = START;
    for (const t of apps) vi.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
    await apps[0].reset();
    key = await apps[0].createKey({ plan: 'business' });
    await apps[0].seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: STOCK }]);
  });

  const hold = (t: TestApp, expiresIn = 900) =>
    request(t.server)
      .post('/v1/inventory/1/holds')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', `h${++sent}`)
      .send({ quantity: 1, expiresIn });

  const activeUnits = async () => {
    const [{ units }] = await apps[1].app
      .get(DataSource)
      .query(
        `SELECT COALESCE(SUM(quantity), 0) AS units FROM holds WHERE status = 'active' AND expires_at > $1`,
        [now],
      );
    return Number(units);
  };

  it('should create exactly as many one-unit holds as units in stock, whichever instance is asked', async () => {
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => hold(apps[i % 2])),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(STOCK);
    expect(statuses.filter((s) => s === 409)).toHaveLength(REQUESTS - STOCK);
    for (const res of answers.filter((r) => r.status === 409))
      expect(res.body).toMatchObject({
        code: 'insufficient_stock',
        details: { current: { quantity: STOCK, available: 0 } },
      });
    expect(await activeUnits()).toBe(STOCK);
    for (const t of apps) {
      const item = await request(t.server)
        .get('/v1/inventory/1')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(item.body).toEqual({ petId: 1, quantity: STOCK, status: 'available', available: 0 });
    }
  });

  it('should give units back at the instant holds expire, while others are being created', async () => {
    const early = 20;
    for (let i = 0; i < early; i++) await hold(apps[i % 2], 60).expect(201);
    const wave = () => Array.from({ length: REQUESTS / 2 }, (_, i) => hold(apps[i % 2]));
    let second: Promise<request.Response[]> | undefined;
    // The early holds end as soon as the first answer of the burst is in, and a second wave
    // follows at once, while the rest of the first still waits for the pet's lock.
    const first = wave().map((answer) =>
      answer.then((res) => {
        if (!second) {
          now = START + 60_000;
          second = Promise.all(wave());
        }
        return res;
      }),
    );
    const answers = [...(await Promise.all(first)), ...(await second!)];
    expect(now).toBe(START + 60_000);
    const created = answers.filter((res) => res.status === 201);
    expect(created).toHaveLength(STOCK);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(REQUESTS - STOCK);
    // Before the early holds ended, only the units they left could be held.
    const before = created.filter((res) => Date.parse(res.body.createdAt) < START + 60_000);
    expect(before.length).toBeLessThanOrEqual(STOCK - early);
    expect(await activeUnits()).toBe(STOCK);
    const listing = await request(apps[0].server)
      .get('/v1/inventory')
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(listing.body).toEqual([
      { petId: 1, quantity: STOCK, status: 'available', available: 0 },
    ]);
  });
});
