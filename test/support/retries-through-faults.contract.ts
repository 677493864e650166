import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/src/index.js';
import type { TestApp } from './create-test-app.js';
import { FaultProxy, everyNth, fetchOnNewConnections } from './fault-proxy.js';

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
