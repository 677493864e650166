import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../client/src/index.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { FaultProxy, everyNth, fetchOnNewConnections } from './support/fault-proxy.js';

const PET = 7n;
const CLIENTS = 16;
const ADJUSTMENTS = 100;

/** Retried adjustments through a network that loses answers: each is applied exactly once. */
export function describeRetriesThroughFaults(
  name: string,
  start: () => Promise<{ apps: TestApp[]; close(): Promise<void> }>,
): void {
  describe(name, () => {
    let apps: TestApp[];
    let close: () => Promise<void>;
    const proxies: FaultProxy[] = [];

    beforeAll(async () => {
      ({ apps, close } = await start());
      for (const t of apps) {
        await t.app.listen(0, '127.0.0.1');
        const { port } = t.app.getHttpServer().address() as { port: number };
        // 5% of connections lose their answer.
        proxies.push(await FaultProxy.start({ host: '127.0.0.1', port }, everyNth(20)));
      }
    });
    afterAll(async () => {
      for (const proxy of proxies) await proxy.close();
      await close();
    });

    it(`should leave exactly 0 and ${CLIENTS * ADJUSTMENTS} changes after ${CLIENTS} clients × ${ADJUSTMENTS} retried adjustments of -1`, async () => {
      const [first] = apps;
      await first.seed([
        { petId: PET, name: 'Hot', status: 'available', quantity: CLIENTS * ADJUSTMENTS },
      ]);
      const apiKey = await first.createKey({
        plan: 'pro',
        perMinute: 1_000_000,
        perDay: 10_000_000,
      });
      const clients = Array.from({ length: CLIENTS }, (_, i) =>
        createClient({
          baseUrl: `${proxies[i % proxies.length].url}/v1`,
          apiKey,
          fetch: fetchOnNewConnections,
          pacing: false,
          maxRetries: 20,
          backoffBaseMs: 1,
          backoffMaxMs: 10,
        }),
      );
      await Promise.all(
        clients.map(async (client) => {
          for (let i = 0; i < ADJUSTMENTS; i++)
            await client.inventory.adjust(PET, -1, { reason: 'sold' });
        }),
      );
      const cut = proxies.reduce((sum, proxy) => sum + proxy.stats.cut, 0);
      expect(cut).toBeGreaterThanOrEqual((CLIENTS * ADJUSTMENTS) / 20);

      const dataSource = first.app.get(DataSource);
      const [{ n }] = await dataSource.query(
        `SELECT COUNT(*) AS n FROM inventory_changes WHERE pet_id = ${PET} AND source = 'api'`,
      );
      expect(Number(n)).toBe(CLIENTS * ADJUSTMENTS);
      const item = await clients[0].inventory.get(PET);
      expect(item.quantity).toBe(0);
      expect(item.status).toBe('sold');
    }, 180_000);
  });
}

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
    await dataSource.query(`DELETE FROM inventory_changes`);
    await dataSource.query(`DELETE FROM idempotency_keys`);
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
      new Set(['{"petId":1,"quantity":4,"status":"available"}']),
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
