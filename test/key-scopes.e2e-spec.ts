import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../src/auth/api-key.entity.js';
import { ApiKeysService, KeyStateError } from '../src/auth/api-keys.service.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { useRateLimitClock } from './support/manual-clock.js';

const HOUR = 3_600_000;
const INVALID = {
  code: 'unauthorized',
  message: 'The API key is invalid or has been revoked',
  status: 401,
};

describe('API key scopes, expiry and rotation (e2e)', () => {
  let t: TestApp;
  let keys: ApiKeysService;

  beforeAll(async () => {
    t = await createTestApp();
    keys = t.app.get(ApiKeysService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  });
  const clock = useRateLimitClock(() => t);

  const list = (key: string) =>
    request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${key}`);
  const patch = (key: string, body: unknown = { quantity: 9 }) =>
    request(t.server)
      .patch('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  describe('scopes', () => {
    it('should let a read key list the inventory', async () => {
      const { rawKey } = await keys.create({ plan: 'free', scope: 'read' });
      const res = await list(rawKey).expect(200);
      expect(res.body).toEqual([{ petId: 1, quantity: 5, status: 'available', available: 5 }]);
    });

    it('should refuse a PATCH with a read key with 403 forbidden, change nothing, and count it', async () => {
      const { rawKey } = await keys.create({ plan: 'free', scope: 'read' });
      const before = await list(rawKey).expect(200);
      expect(before.headers['x-ratelimit-remaining']).toBe('59');

      const res = await patch(rawKey).expect(403);
      expect(res.body).toEqual({
        code: 'forbidden',
        message:
          'This API key has the read scope, which allows only GET requests; PATCH needs a key with the write scope',
        status: 403,
      });
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining']).toBe('58');
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);

      const after = await list(rawKey).expect(200);
      expect(after.body).toEqual([{ petId: 1, quantity: 5, status: 'available', available: 5 }]);
      expect(after.headers['x-ratelimit-remaining']).toBe('57');
    });

    it('should refuse a read key before reading the body, so a bad body is still 403', async () => {
      const { rawKey } = await keys.create({ plan: 'free', scope: 'read' });
      await patch(rawKey, { quantity: -1, extra: true }).expect(403);
    });

    it('should refuse a read key its batch before reading the body, counting it as one request', async () => {
      const { rawKey } = await keys.create({ plan: 'free', scope: 'read' });
      const changes = Array.from({ length: 30 }, () => ({ petId: 1, delta: 1 }));
      const res = await request(t.server)
        .post('/v1/inventory/batch')
        .set('Authorization', `Bearer ${rawKey}`)
        .set('Idempotency-Key', 'read-key-batch')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ changes }))
        .expect(403);
      expect(res.body.code).toBe('forbidden');
      expect(res.headers['x-ratelimit-remaining']).toBe('59');
      // An unread body closes the connection after the answer (contract: the front door).
      expect(res.headers.connection).toBe('close');
    });

    it('should let a write key, and a key created without a scope, change stock', async () => {
      const write = await keys.create({ plan: 'free', scope: 'write' });
      const unscoped = await keys.create({ plan: 'free' });
      expect(unscoped.key.scope).toBe('write');
      await patch(write.rawKey, { quantity: 7 }).expect(200);
      const res = await patch(unscoped.rawKey, { quantity: 8 }).expect(200);
      expect(res.body).toEqual({ petId: 1, quantity: 8, status: 'available', available: 8 });
    });

    it('should answer a read key on a route that does not exist with 404, not 403', async () => {
      const { rawKey } = await keys.create({ plan: 'free', scope: 'read' });
      const res = await request(t.server)
        .delete('/v1/inventory/1')
        .set('Authorization', `Bearer ${rawKey}`)
        .expect(404);
      expect(res.body.code).toBe('not_found');
    });

    it('should refuse an unknown scope', async () => {
      await expect(keys.create({ plan: 'free', scope: 'admin' as never })).rejects.toMatchObject({
        code: 'validation_failed',
      });
    });
  });

  describe('expiry', () => {
    it('should accept a key until it expires, then refuse it like an unknown key, cached or not', async () => {
      const { key, rawKey } = await keys.create({ plan: 'free', expiresInMs: HOUR });
      expect(key.expiresAt?.getTime()).toBe(clock.now() + HOUR);
      // The first request caches the key; the cache must not outlive the key's expiry.
      await list(rawKey).expect(200);
      clock.advance(HOUR - 1000);
      await list(rawKey).expect(200);
      clock.advance(1000);
      const res = await list(rawKey).expect(401);
      expect(res.body).toEqual(INVALID);
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="petstore", error="invalid_token"',
      );
      const unknown = await list(`pk_test_${'A'.repeat(40)}`).expect(401);
      expect(unknown.body).toEqual(res.body);
    });

    it('should refuse a key whose expiry is already past when it is first looked up', async () => {
      const { key, rawKey } = await keys.create({ plan: 'free' });
      await t.app
        .get(DataSource)
        .getRepository(ApiKeyEntity)
        .update({ id: key.id }, { expiresAt: new Date(clock.now() - 1) });
      await list(rawKey).expect(401);
    });

    it('should refuse an expiry outside an hour to ten years', async () => {
      for (const expiresInMs of [0, HOUR - 1, 3651 * 24 * HOUR, Number.NaN])
        await expect(keys.create({ plan: 'free', expiresInMs })).rejects.toMatchObject({
          code: 'validation_failed',
        });
    });
  });

  describe('rolling', () => {
    it('should create a successor with the same plan, limits, name and scope, and keep the old key working until the grace ends', async () => {
      const old = await keys.create({
        plan: 'pro',
        name: 'shop front',
        perDay: 777,
        scope: 'read',
        expiresInMs: 48 * HOUR,
      });
      await list(old.rawKey).expect(200);

      const rolled = await keys.roll(old.key.id, 2 * HOUR);
      expect(rolled.rawKey).not.toBe(old.rawKey);
      expect(rolled.key).toMatchObject({
        plan: 'pro',
        name: 'shop front',
        perMinute: null,
        perDay: 777,
        scope: 'read',
        expiresAt: old.key.expiresAt,
        replacedById: null,
      });
      expect(rolled.previous).toMatchObject({
        id: old.key.id,
        replacedById: rolled.key.id,
        rolledAt: new Date(clock.now()),
        expiresAt: new Date(clock.now() + 2 * HOUR),
      });
      const stored = await t.app
        .get(DataSource)
        .getRepository(ApiKeyEntity)
        .findOneByOrFail({ id: old.key.id });
      expect(stored).toMatchObject({
        replacedById: rolled.key.id,
        expiresAt: new Date(clock.now() + 2 * HOUR),
      });

      const successor = await list(rolled.rawKey).expect(200);
      expect(successor.headers['x-ratelimit-limit']).toBe('300');
      await patch(rolled.rawKey).expect(403);
      clock.advance(2 * HOUR - 1000);
      await list(old.rawKey).expect(200);
      clock.advance(1000);
      await list(old.rawKey).expect(401);
      await list(rolled.rawKey).expect(200);
    });

    it('should stop the old key at once with no grace', async () => {
      const old = await keys.create({ plan: 'free' });
      await list(old.rawKey).expect(200);
      const rolled = await keys.roll(old.key.id, 0);
      await list(old.rawKey).expect(401);
      await list(rolled.rawKey).expect(200);
    });

    it('should never extend an old key past its own expiry', async () => {
      const old = await keys.create({ plan: 'free', expiresInMs: HOUR });
      const rolled = await keys.roll(old.key.id, 24 * HOUR);
      expect(rolled.previous.expiresAt).toEqual(old.key.expiresAt);
    });

    it('should refuse to roll a key twice, a revoked key, an expired key or an unknown id, changing nothing', async () => {
      const rolledOnce = await keys.create({ plan: 'free' });
      const successor = await keys.roll(rolledOnce.key.id, HOUR);
      const revoked = await keys.create({ plan: 'free' });
      await keys.revoke(revoked.key.id);
      const expired = await keys.create({ plan: 'free', expiresInMs: HOUR });
      clock.advance(HOUR);
      const count = (await keys.list()).length;

      await expect(keys.roll(rolledOnce.key.id, HOUR)).rejects.toThrow(
        new KeyStateError(
          `API key ${rolledOnce.key.id} was already rolled on ${new Date(clock.now() - HOUR).toISOString()}: key ${successor.key.id} replaced it; roll key ${successor.key.id} instead`,
        ),
      );
      await expect(keys.roll(revoked.key.id, HOUR)).rejects.toThrow(
        /^API key \d+ was revoked on .*; a revoked key cannot be rolled/,
      );
      await expect(keys.roll(expired.key.id, HOUR)).rejects.toThrow(
        /^API key \d+ expired on .*; an expired key cannot be rolled/,
      );
      await expect(keys.roll(424242, HOUR)).rejects.toMatchObject({ code: 'not_found' });
      expect(await keys.list()).toHaveLength(count);
    });
  });

  describe('OpenAPI document', () => {
    it('should name the scope of every operation and document 403 on those that need write', async () => {
      const doc = (await request(t.server).get('/v1/openapi.json').expect(200)).body;
      const update = doc.paths['/inventory/{petId}'].patch;
      expect(update['x-required-scope']).toBe('write');
      expect(update.summary).toContain('[write scope]');
      expect(update.description).toContain('Requires a `write` key');
      expect(update.responses['403'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
      expect(update.responses['403'].headers).toHaveProperty('X-RateLimit-Remaining');
      for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(
        doc.paths,
      )) {
        for (const [method, operation] of Object.entries(item)) {
          const scope = method === 'get' ? 'read' : 'write';
          expect(operation['x-required-scope'], `${method} ${path}`).toBe(scope);
          expect(
            '403' in (operation.responses as Record<string, unknown>),
            `${method} ${path}`,
          ).toBe(scope === 'write');
        }
      }
      expect(doc.components.schemas.ErrorCode.enum).toContain('forbidden');
    });
  });
});
