import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { windowEnd } from '../src/rate-limit/rate-limit.policy.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { useRateLimitClock } from './support/manual-clock.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const seconds = (ms: number) => String(Math.ceil(ms / 1000));

describe('rate limiting (e2e)', () => {
  let t: TestApp;
  const clock = useRateLimitClock(() => t);

  beforeAll(async () => {
    t = await createTestApp();
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
  const minuteReset = () => seconds(windowEnd(MINUTE, clock.now()));
  const dayReset = () => seconds(windowEnd(DAY, clock.now()));

  it('should let exactly 60 requests of a free key through, then answer 429 with Retry-After', async () => {
    const key = await t.createKey();
    for (let i = 1; i <= 60; i++) {
      const res = await get('/v1/inventory', key).expect(200);
      expect(res.headers).toMatchObject({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': String(60 - i),
        'x-ratelimit-reset': minuteReset(),
      });
    }
    const res = await get('/v1/inventory', key).expect(429);
    expect(res.body).toEqual({
      code: 'rate_limit_exceeded',
      message: 'Rate limit exceeded: the minute quota of 60 requests is used up; retry in 30 s',
      status: 429,
    });
    expect(res.headers).toMatchObject({
      'retry-after': '30',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': minuteReset(),
      'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=0;t=30, "day";r=940;t=43170',
    });
  });

  it('should put the headers on 400, 401, 404, 413 and 415 responses, counting each', async () => {
    const key = await t.createKey();
    const patch = (path: string, body: string, contentType = 'application/json') =>
      request(t.server)
        .patch(path)
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', contentType)
        .send(body);
    const responses = [
      await patch('/v1/inventory/0', '{"quantity":1}').expect(400),
      await get('/v1/no/such/route', key).expect(404),
      await patch(
        '/v1/inventory/1',
        JSON.stringify({ quantity: 1, pad: 'x'.repeat(17 * 1024) }),
      ).expect(413),
      await patch('/v1/inventory/1', 'quantity=1', 'text/plain').expect(415),
      await get('/v1/inventory', key).expect(200),
    ];
    expect(responses.map((res) => res.headers['x-ratelimit-remaining'])).toEqual([
      '59',
      '58',
      '57',
      '56',
      '55',
    ]);
    for (const res of responses) {
      expect(res.headers).toMatchObject({
        'x-ratelimit-limit': '60',
        'x-ratelimit-reset': minuteReset(),
      });
      expect(res.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
      expect(res.headers.ratelimit).toMatch(/^"minute";r=\d+;t=30, "day";r=\d+;t=43170$/);
    }

    const unauthorized = await get('/v1/inventory').expect(401);
    expect(unauthorized.headers).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
    });
  });

  it('should count every operation against one counter per key', async () => {
    const key = await t.createKey({ perMinute: 3 });
    const remaining = [];
    for (const path of ['/v1/inventory', '/v1/store/orders', '/v1/pets/1']) {
      remaining.push((await get(path, key)).headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    await get('/v1/store/orders', key).expect(429);
  });

  it("should apply an enterprise key's own minute and day limits", async () => {
    const key = await t.createKey({ plan: 'enterprise', perMinute: 3, perDay: 5 });
    for (let i = 0; i < 3; i++) await get('/v1/inventory', key).expect(200);
    const minuteSpent = await get('/v1/inventory', key).expect(429);
    expect(minuteSpent.headers).toMatchObject({
      'retry-after': '30',
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
    });

    clock.advance(MINUTE);
    const first = await get('/v1/inventory', key).expect(200);
    // The day now has less left (1) than the minute (2): the headers describe the day.
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': dayReset(),
    });
    expect(first.headers['ratelimit-policy']).toBe('"minute";q=3;w=60, "day";q=5;w=86400');
    await get('/v1/inventory', key).expect(200);

    const daySpent = await get('/v1/inventory', key).expect(429);
    expect(daySpent.body.message).toBe(
      'Rate limit exceeded: the day quota of 5 requests is used up; retry in 43110 s',
    );
    expect(daySpent.headers).toMatchObject({
      'retry-after': '43110',
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
    });

    clock.set(windowEnd(DAY, clock.now()));
    expect((await get('/v1/inventory', key).expect(200)).headers['x-ratelimit-remaining']).toBe(
      '2',
    );
  });

  it('should ban a key that goes on after 20 rejections, for longer than the window, then let it back', async () => {
    const key = await t.createKey({ perMinute: 2 });
    for (let i = 0; i < 2; i++) await get('/v1/inventory', key).expect(200);
    for (let i = 0; i < 20; i++) {
      expect((await get('/v1/inventory', key).expect(429)).body.code).toBe('rate_limit_exceeded');
    }
    const banned = await get('/v1/inventory', key).expect(429);
    expect(banned.body).toEqual({
      code: 'api_key_banned',
      message:
        'Banned for 600 s after too many requests over the rate limit; back off before retrying',
      status: 429,
    });
    expect(banned.headers).toMatchObject({ 'retry-after': '600', 'x-ratelimit-remaining': '0' });
    const banEnd = clock.now() + 600_000;

    clock.advance(90_000);
    const stillBanned = await get('/v1/inventory', key).expect(429);
    expect(stillBanned.body.code).toBe('api_key_banned');
    expect(stillBanned.headers).toMatchObject({
      'retry-after': '510',
      'x-ratelimit-reset': seconds(banEnd),
    });

    clock.set(banEnd);
    await get('/v1/inventory', key).expect(200);
  });

  it("should count requests without a valid key per client IP with the free plan's numbers", async () => {
    const key = await t.createKey();
    // Used once, the key is in the key cache.
    expect((await get('/v1/inventory', key).expect(200)).headers['x-ratelimit-remaining']).toBe(
      '59',
    );
    for (let i = 1; i <= 60; i++) {
      const req = get('/v1/inventory').set('X-Forwarded-For', `198.51.100.${i}`);
      if (i % 2 === 0) req.set('Authorization', 'Bearer pk_test_not-a-real-key');
      const res = await req.expect(401);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
    }
    // X-Forwarded-For is not trusted without TRUST_PROXY: all of the above came from one address.
    const limited = await get('/v1/inventory').set('X-Forwarded-For', '198.51.100.200').expect(429);
    expect(limited.body.code).toBe('rate_limit_exceeded');
    expect(limited.headers).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'retry-after': '30',
    });

    const valid = await get('/v1/inventory', key).expect(200);
    expect(valid.headers['x-ratelimit-remaining']).toBe('58');
    // A brand-new key from the same address is looked up and served by its own plan.
    const uncached = await t.createKey({ plan: 'pro' });
    const served = await get('/v1/inventory', uncached).expect(200);
    expect(served.headers).toMatchObject({
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '299',
    });
  });

  it("should count unknown paths outside /v1 against the client IP's anonymous windows, whatever key they carry", async () => {
    const key = await t.createKey();
    for (let i = 1; i <= 60; i++) {
      const res = await get(i % 2 ? '/nope' : '/V2/inventory', i % 3 ? undefined : key).expect(404);
      expect(res.body.code).toBe('not_found');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
    }
    const refused = await get('/nope', key).expect(429);
    expect(refused.body.code).toBe('rate_limit_exceeded');
    expect(refused.headers['retry-after']).toBe('30');
    // The key's own windows were not touched; the documentation and health stay uncounted.
    expect((await get('/v1/inventory', key).expect(200)).headers['x-ratelimit-remaining']).toBe(
      '59',
    );
    for (const path of ['/health', '/v1/openapi.json', '/docs/'])
      expect((await get(path).expect(200)).headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('should neither count nor limit health checks and the API description', async () => {
    for (const path of ['/health', '/health/ready', '/v1/openapi.json', '/docs']) {
      const res = await get(path);
      expect(res.status, path).toBeLessThan(400);
      expect(res.headers['x-ratelimit-limit'], path).toBeUndefined();
      expect(res.headers['ratelimit'], path).toBeUndefined();
    }
    expect((await get('/v1/inventory').expect(401)).headers['x-ratelimit-remaining']).toBe('59');
  });
});

describe('rate limiting behind a trusted proxy (e2e)', () => {
  let t: TestApp;
  useRateLimitClock(() => t);

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('should count anonymous clients by the address in X-Forwarded-For', async () => {
    const from = (address: string) =>
      request(t.server).get('/v1/inventory').set('X-Forwarded-For', address);
    for (let i = 0; i < 60; i++) await from('203.0.113.7').expect(401);
    await from('203.0.113.7').expect(429);
    expect((await from('203.0.113.8').expect(401)).headers['x-ratelimit-remaining']).toBe('59');
  });
});

describe('rate limiting switched off (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('should neither limit nor send rate-limit headers', async () => {
    const key = await t.createKey({ perMinute: 1 });
    for (let i = 0; i < 5; i++) {
      const res = await request(t.server)
        .get('/v1/inventory')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(Object.keys(res.headers).filter((name) => name.includes('ratelimit'))).toEqual([]);
    }
  });
});
