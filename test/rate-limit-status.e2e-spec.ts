import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { windowEnd } from '../src/rate-limit/rate-limit.policy.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { useRateLimitClock } from './support/manual-clock.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const unix = (ms: number) => Math.ceil(ms / 1000);

describe('GET /v1/rate_limit (e2e)', () => {
  let t: TestApp;
  const clock = useRateLimitClock(() => t);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_BAN_THRESHOLD: '2', RATE_LIMIT_BAN_SECONDS: '600' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  });

  const get = (path: string, key?: string) => {
    const req = request(t.server).get(path);
    return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
  };

  it('should report the plan and both windows without counting the call', async () => {
    const key = await t.createKey();
    await get('/v1/inventory', key).expect(200);
    for (let i = 0; i < 5; i++) {
      const res = await get('/v1/rate_limit', key).expect(200);
      expect(res.body).toEqual({
        plan: 'free',
        windows: [
          { name: 'minute', limit: 60, remaining: 59, reset: unix(windowEnd(MINUTE, clock.now())) },
          { name: 'day', limit: 1000, remaining: 999, reset: unix(windowEnd(DAY, clock.now())) },
        ],
        bannedUntil: null,
      });
      expect(res.headers).toMatchObject({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': String(unix(windowEnd(MINUTE, clock.now()))),
        ratelimit: '"minute";r=59;t=30, "day";r=999;t=43170',
      });
    }
    const next = await get('/v1/inventory', key).expect(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('58');
  });

  it("should report a key's own limits", async () => {
    const key = await t.createKey({ plan: 'enterprise', perMinute: 3, perDay: 50 });
    await get('/v1/inventory', key).expect(200);
    const res = await get('/v1/rate_limit', key).expect(200);
    expect(res.body.plan).toBe('enterprise');
    expect(res.body.windows).toMatchObject([
      { name: 'minute', limit: 3, remaining: 2 },
      { name: 'day', limit: 50, remaining: 49 },
    ]);
  });

  it('should answer while the minute is spent, and neither count nor ban for it', async () => {
    const key = await t.createKey({ perMinute: 2 });
    await get('/v1/inventory', key).expect(200);
    await get('/v1/inventory', key).expect(200);
    for (let i = 0; i < 10; i++) {
      const res = await get('/v1/rate_limit', key).expect(200);
      expect(res.body.windows[0]).toMatchObject({ remaining: 0 });
      expect(res.body.bannedUntil).toBeNull();
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['retry-after']).toBeUndefined();
    }
    expect((await get('/v1/inventory', key).expect(429)).body.code).toBe('rate_limit_exceeded');
  });

  it('should report a ban and when it ends', async () => {
    const key = await t.createKey({ perMinute: 1 });
    await get('/v1/inventory', key).expect(200);
    for (let i = 0; i < 2; i++) await get('/v1/inventory', key).expect(429);
    const banned = await get('/v1/inventory', key).expect(429);
    expect(banned.body.code).toBe('api_key_banned');
    const bannedUntil = unix(clock.now() + 600_000);
    const res = await get('/v1/rate_limit', key).expect(200);
    expect(res.body.bannedUntil).toBe(bannedUntil);
    expect(res.body.windows).toMatchObject([
      { name: 'minute', remaining: 0, reset: bannedUntil },
      { name: 'day', remaining: 0, reset: bannedUntil },
    ]);
    expect(res.headers['x-ratelimit-reset']).toBe(String(bannedUntil));
    clock.advance(600_000);
    expect((await get('/v1/rate_limit', key).expect(200)).body.bannedUntil).toBeNull();
  });

  it('should need a key, answering 401 counted against the client IP like any other', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await get('/v1/rate_limit').expect(401);
      expect(res.body.code).toBe('unauthorized');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
    }
    const invalid = await get('/v1/rate_limit', 'pk_test_unknownunknownunknownunknown0').expect(
      401,
    );
    expect(invalid.headers['x-ratelimit-remaining']).toBe('56');
  });

  it('should be in the OpenAPI document as getRateLimit with the RateLimitStatus schema', async () => {
    const doc = (await request(t.server).get('/v1/openapi.json').expect(200)).body;
    const operation = doc.paths['/rate_limit'].get;
    expect(operation.operationId).toBe('getRateLimit');
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RateLimitStatus',
    });
    expect(doc.components.schemas.RateLimitStatus.required).toEqual([
      'plan',
      'windows',
      'bannedUntil',
    ]);
  });

  it("should allow 60 calls a minute per key, then 429 with Retry-After for that budget, its headers still the plan's", async () => {
    const key = await t.createKey({ plan: 'pro' });
    await get('/v1/inventory', key).expect(200);
    for (let i = 0; i < 60; i++) await get('/v1/rate_limit', key).expect(200);
    const refused = await get('/v1/rate_limit', key).expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect(refused.headers).toMatchObject({
      'retry-after': '30',
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '299',
    });
    // The plan's windows were never spent; another key has its own budget; the next minute, again.
    expect((await get('/v1/inventory', key).expect(200)).headers['x-ratelimit-remaining']).toBe(
      '298',
    );
    const other = await t.createKey();
    await get('/v1/rate_limit', other).expect(200);
    clock.advance(MINUTE);
    await get('/v1/rate_limit', key).expect(200);
  });

  it('should hold a banned key to the same budget, and never ban for it', async () => {
    const key = await t.createKey({ perMinute: 1 });
    await get('/v1/inventory', key).expect(200);
    for (let i = 0; i < 3; i++) await get('/v1/inventory', key).expect(429);
    expect((await get('/v1/inventory', key).expect(429)).body.code).toBe('api_key_banned');
    for (let i = 0; i < 60; i++) {
      const res = await get('/v1/rate_limit', key).expect(200);
      expect(res.body.bannedUntil).not.toBeNull();
    }
    for (let i = 0; i < 5; i++)
      expect((await get('/v1/rate_limit', key).expect(429)).body.code).toBe('rate_limit_exceeded');
  });
});
