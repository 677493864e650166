import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, spawnCli } from './support/built-server.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

describe('CLI inventory history of adjustments and batches (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-adjust-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'adjust.sqlite')}`, APP_ENV: 'staging' };
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    await ensureBuilt();
    t = await createTestApp(env);
    auth = `Bearer ${await t.createKey()}`;
    await t.seed([{ petId: 5n, name: 'Rex', status: 'available', quantity: 3 }]);
  }, 180_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should list an adjustment and a batch line like any change', async () => {
    const post = (path: string, body: object, key: string) =>
      request(t.server)
        .post(path)
        .set('Authorization', auth)
        .set('Idempotency-Key', key)
        .set('X-Request-Id', key)
        .send(body)
        .expect(200);
    await post(
      '/v1/inventory/5/adjustments',
      { delta: -3, reason: 'sold', reference: 'order-8' },
      'adjust-1',
    );
    await post(
      '/v1/inventory/batch',
      { changes: [{ petId: 5, delta: 4, reason: 'received' }] },
      'batch-1',
    );

    const json = await spawnCli(env, ['inventory', 'history', '5', '--json'], dir);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).slice(1)).toMatchObject([
      {
        previousQuantity: 3,
        quantity: 0,
        status: 'sold',
        reason: 'sold',
        reference: 'order-8',
        source: 'api',
        requestId: 'adjust-1',
      },
      {
        previousQuantity: 0,
        quantity: 4,
        status: 'available',
        reason: 'received',
        source: 'api',
        requestId: 'batch-1',
      },
    ]);
    const table = await spawnCli(env, ['inventory', 'history', '5'], dir);
    expect(table.stdout).toContain('order-8');
    expect(table.stdout).toContain('received');
  });
});
