import { randomBytes } from 'node:crypto';
import { TypeOrmHealthIndicator } from '@nestjs/terminus';
import request from 'supertest';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyEntity } from '../src/auth/api-key.entity.js';
import { ApiKeysService } from '../src/auth/api-keys.service.js';
import { RateLimitGuard } from '../src/rate-limit/rate-limit.guard.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { useRateLimitClock } from './support/manual-clock.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A well-formed key that no database holds. */
const randomKey = () => `pk_test_${[...randomBytes(40)].map((byte) => BASE62[byte % 62]).join('')}`;

describe('abuse costs the abuser (e2e)', () => {
  let t: TestApp;
  const clock = useRateLimitClock(() => t);

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());
  // After each test, not before: the rate-limit clock is put in place before each one.
  afterEach(() => vi.restoreAllMocks());

  const from = (address: string, key?: string) => {
    const req = request(t.server).get('/v1/inventory').set('X-Forwarded-For', address);
    return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
  };

  it('should stop looking keys up for an IP whose budget is spent, and while it is banned', async () => {
    // Reads of the key table: a request refused its lookup still calls `verify`, which refuses it.
    const lookups = vi.spyOn(
      t.app.get<Repository<ApiKeyEntity>>(getRepositoryToken(ApiKeyEntity)),
      'findOneBy',
    );
    const queries = vi.spyOn(t.app.get(DataSource), 'query');
    for (let i = 0; i < 60; i++) await from('203.0.113.50', randomKey()).expect(401);
    expect(lookups).toHaveBeenCalledTimes(60);
    const codes = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const res = await from('203.0.113.50', randomKey()).expect(429);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      codes.add(res.body.code as string);
    }
    expect([...codes].sort()).toEqual(['api_key_banned', 'rate_limit_exceeded']);
    expect(lookups).toHaveBeenCalledTimes(60);
    // Only the key table matters: background work (the history pruner's timer) may query others.
    expect(queries.mock.calls.filter(([sql]) => /api_keys/i.test(String(sql)))).toEqual([]);
    // Another client is not affected.
    expect((await from('203.0.113.51', randomKey()).expect(401)).headers).toMatchObject({
      'x-ratelimit-remaining': '59',
    });
  });

  /** Sends until the answer is a ban (the guards' refusal), and returns that answer. */
  const banned = async (send: () => request.Test) => {
    for (let i = 0; i < 100; i++) {
      const res = await send();
      if (res.body.code === 'api_key_banned') return res;
    }
    throw new Error('never banned');
  };
  const comparable = (res: request.Response) => {
    const { 'x-request-id': _id, date: _date, ...headers } = res.headers;
    return { status: res.status, headers, body: res.body as unknown };
  };

  it('should refuse a banned key before routing, as the guards did, and serve it again once the ban ends', async () => {
    const key = await t.createKey({ perMinute: 1 });
    const first = await banned(() => from('203.0.113.60', key));
    const guard = vi.spyOn(t.app.get(RateLimitGuard), 'canActivate');
    const gated = await from('203.0.113.60', key).expect(429);
    expect(guard).not.toHaveBeenCalled();
    expect(comparable(gated)).toEqual(comparable(first));
    // Its rate-limit status still answers it; another key from the same address is served.
    await request(t.server)
      .get('/v1/rate_limit')
      .set('Authorization', `Bearer ${key}`)
      .set('X-Forwarded-For', '203.0.113.60')
      .expect(200);
    await from('203.0.113.60', await t.createKey()).expect(200);
    expect(guard).toHaveBeenCalledTimes(2);
    clock.advance(600_000);
    await from('203.0.113.60', key).expect(200);
    expect(guard).toHaveBeenCalledTimes(3);
  });

  it('should refuse a banned address before routing without a valid key, and serve its valid keys', async () => {
    const first = await banned(() => from('203.0.113.61'));
    const guard = vi.spyOn(t.app.get(RateLimitGuard), 'canActivate');
    const lookups = vi.spyOn(ApiKeysService.prototype, 'verify');
    const gated = await from('203.0.113.61').expect(429);
    expect(comparable(gated)).toEqual(comparable(first));
    await from('203.0.113.61', 'pk_test_malformed').expect(429);
    await request(t.server)
      .patch('/v1/inventory/1')
      .set('X-Forwarded-For', '203.0.113.61')
      .send('{not json')
      .expect(429);
    // Express routes without regard to case: so does the gate.
    await request(t.server).get('/V1/Inventory').set('X-Forwarded-For', '203.0.113.61').expect(429);
    expect(guard).not.toHaveBeenCalled();
    expect(lookups).not.toHaveBeenCalled();
    // A well-formed key might be valid: it is looked up (within the address's lookup budget).
    const key = await t.createKey({ plan: 'pro' });
    const served = await from('203.0.113.61', key).expect(200);
    expect(served.headers['x-ratelimit-limit']).toBe('300');
    expect((await from('203.0.113.61', randomKey()).expect(429)).body.code).toBe('api_key_banned');
    expect(lookups).toHaveBeenCalledTimes(2);
    // Cached now, the valid key is served without a lookup, banned address or not.
    await from('203.0.113.61', key).expect(200);
    expect(lookups).toHaveBeenCalledTimes(2);
    // Health is not limited, and another address is not affected.
    await request(t.server).get('/health').set('X-Forwarded-For', '203.0.113.61').expect(200);
    await from('203.0.113.62').expect(401);
  });

  it('should serve a valid key by its own plan from an address whose anonymous budget is spent, also after its cache entry ran out', async () => {
    const key = await t.createKey({ plan: 'pro' });
    await from('203.0.113.63', key).expect(200);
    for (let i = 0; i < 60; i++) await from('203.0.113.63').expect(401);
    await from('203.0.113.63').expect(429);
    await from('203.0.113.63').expect(429);
    // Its entry older than the cache TTL: looked up again, and served.
    const realNow = Date.now.bind(Date);
    const clockAhead = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 6_000);
    const lookups = vi.spyOn(ApiKeysService.prototype, 'verify');
    const res = await Promise.resolve(from('203.0.113.63', key).expect(200)).finally(() =>
      clockAhead.mockRestore(),
    );
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '298',
    });
  });

  it('should take the client address nginx appends, never the one a client writes', async () => {
    for (let i = 0; i < 60; i++) await from(`${i}.${i}.${i}.${i}, 198.51.100.1`).expect(401);
    const res = await from('10.0.0.1, 198.51.100.1').expect(429);
    expect(res.body.code).toBe('rate_limit_exceeded');
    // IPv4-mapped IPv6 is the same client.
    await from('::ffff:198.51.100.1').expect(429);
  });

  it('should fall back to the socket address when the forwarded one is not an address', async () => {
    for (const garbage of ['not-an-ip', 'x'.repeat(8000), '999.1.1.1', '1.2.3.4<script>']) {
      const res = await from(garbage).expect(401);
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    // All four counted as one client: the socket's.
    const last = await from('also-not-an-ip').expect(401);
    expect(last.headers['x-ratelimit-remaining']).toBe('55');
  });

  it('should refuse a request that sends Authorization twice, with the rate-limit headers', async () => {
    const key = await t.createKey();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 1 }]);
    const res = await request(t.server)
      .patch('/v1/inventory/1')
      .set('X-Forwarded-For', '192.0.2.10')
      // Node sends each value of an array as a header line of its own.
      .set('Authorization', [`Bearer ${key}`, 'Bearer pk_test_someoneelse'] as unknown as string)
      .send({ quantity: 2 })
      .expect(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      message: 'Authorization must be sent once; this request carries it more than once',
      status: 400,
    });
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('should replace a client request id that could be a key', async () => {
    const key = await t.createKey();
    for (const id of [key, key.slice(8), key.slice(8).toUpperCase(), 'a'.repeat(32)]) {
      const res = await request(t.server).get('/health').set('X-Request-Id', id).expect(200);
      expect(res.headers['x-request-id']).not.toBe(id);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const kept = await request(t.server).get('/health').set('X-Request-Id', 'trace-42').expect(200);
    expect(kept.headers['x-request-id']).toBe('trace-42');
  });

  it('should name at most 10 unknown fields', async () => {
    const key = await t.createKey({ plan: 'enterprise', perMinute: 1e6, perDay: 1e6 });
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 1 }]);
    const body: Record<string, number> = { quantity: 1 };
    for (let i = 0; i < 1500; i++) body[`f${i}`] = 0;
    const res = await request(t.server)
      .patch('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .send(body)
      .expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message.match(/should not exist/g)).toHaveLength(10);
    expect(res.body.message).toMatch(/; and 1490 more$/);
    expect(res.text.length).toBeLessThan(1000);
  });

  it('should serve only what Swagger UI loads under /docs', async () => {
    await request(t.server).get('/docs').expect(200);
    await request(t.server).get('/docs/swagger-ui-bundle.js').expect(200);
    await request(t.server).get('/docs/swagger-ui-init.js').expect(200);
    for (const path of [
      '/docs/package.json',
      '/docs/README.md',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/index.html',
      '/docs/absolute-path.js',
    ]) {
      const res = await request(t.server).get(path).expect(404);
      expect(res.body, path).toMatchObject({ code: 'not_found', status: 404 });
    }
  });

  it('should answer a flood of readiness probes from one check a second', async () => {
    const pings = vi.spyOn(TypeOrmHealthIndicator.prototype, 'pingCheck');
    // A minute past any check an earlier test made; the clock stands still through the flood.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    try {
      await Promise.all(
        Array.from({ length: 50 }, () => request(t.server).get('/health/ready').expect(200)),
      );
      for (let i = 0; i < 50; i++) await request(t.server).get('/health/ready').expect(200);
      expect(pings).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1000);
      await request(t.server).get('/health/ready').expect(200);
      expect(pings).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a valid key sharing an address with an abuser (e2e)', () => {
  let t: TestApp;
  useRateLimitClock(() => t);

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1', API_KEY_CACHE_TTL_MS: '1' });
  });
  afterAll(() => t.close());

  it('should keep working once its cache entry expires, while random keys stay unlooked-up', async () => {
    const key = await t.createKey();
    const from = (k: string) =>
      request(t.server)
        .get('/v1/inventory')
        .set('X-Forwarded-For', '203.0.113.80')
        .set('Authorization', `Bearer ${k}`);
    await from(key).expect(200);
    for (let i = 0; i < 90; i++) await from(randomKey());
    const lookups = vi.spyOn(ApiKeysService.prototype, 'verify');
    await from(randomKey()).expect(429);
    expect(lookups).not.toHaveBeenCalled();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.advanceTimersByTime(t.config.auth.keyCacheTtlMs + 1);
      await from(key).expect(200);
    } finally {
      vi.useRealTimers();
    }
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
