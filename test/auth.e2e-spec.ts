import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKeysService } from '../src/auth/api-keys.service.js';
import { ApiKeyEntity } from '../src/auth/api-key.entity.js';
import { hashApiKey } from '../src/auth/api-key.codec.js';
import { DataSource } from 'typeorm';
import { createTestApp, type TestApp } from './support/create-test-app.js';

describe('API keys (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const get = (authorization?: string) => {
    const req = request(t.server).get('/v1/inventory');
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };

  it('should accept a valid key as a bearer token, whatever the scheme case', async () => {
    const key = await t.createKey();
    await get(`Bearer ${key}`).expect(200);
    await get(`bearer ${key}`).expect(200);
  });

  it('should answer a missing key with 401 and a Bearer challenge', async () => {
    const res = await get().expect(401);
    expect(res.body).toEqual({
      code: 'unauthorized',
      message: 'An API key is required: send it as "Authorization: Bearer <API_KEY>"',
      status: 401,
    });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
  });

  it.each([
    ['an unknown key', `Bearer pk_test_${'A'.repeat(40)}`],
    ['a malformed key', 'Bearer hello'],
  ])('should answer %s with 401 invalid_token, saying no more than that', async (_name, header) => {
    const res = await get(header).expect(401);
    expect(res.body).toEqual({
      code: 'unauthorized',
      message: 'The API key is invalid or has been revoked',
      status: 401,
    });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore", error="invalid_token"');
  });

  it.each([
    [
      'a key sent without its scheme',
      `pk_test_${'A'.repeat(40)}`,
      'The API key was sent without the Bearer scheme: send it as "Authorization: Bearer <API_KEY>"',
    ],
    [
      'another scheme',
      'Basic dXNlcjpwYXNz',
      'Authorization uses the Basic scheme, which this API does not accept: send it as "Authorization: Bearer <API_KEY>"',
    ],
    [
      'an empty bearer',
      'Bearer ',
      'Authorization names the Bearer scheme but no key: send it as "Authorization: Bearer <API_KEY>"',
    ],
  ])('should answer %s with 401 saying how to send the key', async (_name, header, message) => {
    const res = await get(header).expect(401);
    expect(res.body).toEqual({ code: 'unauthorized', message, status: 401 });
    // RFC 6750 §3.1: no error code when the request carries no bearer token at all.
    expect(res.headers['www-authenticate']).toBe('Bearer realm="petstore"');
  });

  it('should tell a revoked key and an unknown one the same thing', async () => {
    const service = t.app.get(ApiKeysService);
    const { key: entity, rawKey: key } = await service.create({ plan: 'free' });
    await service.revoke(entity.id);
    const revoked = await get(`Bearer ${key}`).expect(401);
    const unknown = await get(`Bearer pk_test_${'B'.repeat(40)}`).expect(401);
    expect(revoked.body).toEqual(unknown.body);
  });

  it('should name the environment a production key belongs to, on this development server', async () => {
    const res = await get(`Bearer pk_live_${'A'.repeat(40)}`).expect(401);
    expect(res.body.message).toBe(
      'This API key belongs to production (pk_live_…), but this is the development server, which accepts ' +
        'only pk_test_… keys: call the production API with it, or use a key issued for development',
    );
  });

  it('should store only the SHA-256 hash and a display prefix, never the raw key', async () => {
    const key = await t.createKey({ name: 'shop', plan: 'pro', perMinute: 500 });
    const rows = await t.app.get(DataSource).query('SELECT * FROM api_keys');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0]).toMatchObject({
      key_hash: hashApiKey(key),
      key_prefix: key.slice(0, 12),
      plan: 'pro',
      per_minute: 500,
      per_day: null,
      environment: 'development',
      revoked_at: null,
      name: 'shop',
    });
    expect(rows[0].created_at).toBeTruthy();
  });

  it('should accept a key created while the app runs at once', async () => {
    const service = t.app.get(ApiKeysService);
    const { rawKey } = await service.create({ plan: 'free' });
    await get(`Bearer ${rawKey}`).expect(200);
  });

  it('should reject a key revoked through the service at once', async () => {
    const service = t.app.get(ApiKeysService);
    const { key, rawKey } = await service.create({ plan: 'free' });
    await get(`Bearer ${rawKey}`).expect(200);
    await service.revoke(key.id);
    await get(`Bearer ${rawKey}`).expect(401);
  });

  it('should reject a key revoked elsewhere (straight in the database) within the cache lifetime', async () => {
    const { key, rawKey } = await t.app.get(ApiKeysService).create({ plan: 'free' });
    await get(`Bearer ${rawKey}`).expect(200);
    await t.app
      .get(DataSource)
      .getRepository(ApiKeyEntity)
      .update({ id: key.id }, { revokedAt: new Date() });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      await get(`Bearer ${rawKey}`).expect(200);
      expect(t.config.auth.keyCacheTtlMs).toBeLessThan(10_000);
      vi.advanceTimersByTime(t.config.auth.keyCacheTtlMs + 1);
      await get(`Bearer ${rawKey}`).expect(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('should require enterprise keys to carry both limits', async () => {
    const service = t.app.get(ApiKeysService);
    await expect(service.create({ plan: 'enterprise', perMinute: 10 })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    const { key } = await service.create({ plan: 'enterprise', perMinute: 10, perDay: 100 });
    expect(key).toMatchObject({ plan: 'enterprise', perMinute: 10, perDay: 100 });
  });

  it('should keep health public', async () => {
    await request(t.server).get('/health').expect(200, { status: 'ok' });
    const ready = await request(t.server).get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.details.database.status).toBe('up');
  });
});
