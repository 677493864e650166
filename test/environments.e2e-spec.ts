import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const SECRET = '[0-9A-Za-z]{40}';

/**
 * Three deployments, one database: a key belongs to the environment that created it, and every
 * other environment refuses it, even development and staging, whose keys share a prefix.
 */
describe('environments sharing a database (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-envs-'));
  const DATABASE_URL = `sqlite:${join(dir, 'shared.sqlite')}`;
  const apps: Record<'production' | 'staging' | 'development', TestApp> = {} as never;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    for (const env of ['production', 'staging', 'development'] as const) {
      apps[env] = await createTestApp({ APP_ENV: env, DATABASE_URL });
      keys[env] = await apps[env].createKey({ name: env });
    }
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (env: keyof typeof apps, key: string) =>
    request(apps[env].server).get('/v1/inventory').set('Authorization', `Bearer ${key}`);

  it('should prefix production keys pk_live_ and the others pk_test_', () => {
    expect(keys.production).toMatch(new RegExp(`^pk_live_${SECRET}$`));
    expect(keys.staging).toMatch(new RegExp(`^pk_test_${SECRET}$`));
    expect(keys.development).toMatch(new RegExp(`^pk_test_${SECRET}$`));
  });

  it('should record in the database the environment each key was created in', async () => {
    const rows: { name: string; environment: string }[] = await apps.production.app
      .get(DataSource)
      .query('SELECT name, environment FROM api_keys ORDER BY id');
    expect(rows).toEqual([
      { name: 'production', environment: 'production' },
      { name: 'staging', environment: 'staging' },
      { name: 'development', environment: 'development' },
    ]);
  });

  it('should accept each key in its own environment', async () => {
    for (const env of ['production', 'staging', 'development'] as const)
      await list(env, keys[env]).expect(200);
  });

  it('should reject a key of any other environment with 401', async () => {
    for (const deployment of ['production', 'staging', 'development'] as const) {
      for (const origin of ['production', 'staging', 'development'] as const) {
        if (origin === deployment) continue;
        const res = await list(deployment, keys[origin]).expect(401);
        const message =
          origin === 'production'
            ? `This API key belongs to production (pk_live_…), but this is the ${deployment} server`
            : deployment === 'production'
              ? 'This API key belongs to staging or development (pk_test_…), but this is the production server'
              : // Development and staging share a prefix: only the lookup tells them apart.
                'The API key is invalid or has been revoked';
        expect(res.body, `${origin} key on ${deployment}`).toEqual({
          code: 'unauthorized',
          message: expect.stringContaining(message),
          status: 401,
        });
      }
    }
  });
});
