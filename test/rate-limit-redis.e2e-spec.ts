import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ThrottlerStorage } from '@nestjs/throttler';
import { RedisRateLimitStorage } from '../src/rate-limit/storage/redis.storage.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { useRateLimitClock } from './support/manual-clock.js';
import { describeRateLimitStorage } from './support/rate-limit-storage.contract.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every key this run writes starts with it, so runs never meet and cleanup is exact. */
const PREFIX = `petstore-test:${randomUUID()}:`;
const REQUIRED = process.env.CI === 'true';

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const reachable = await redisAnswers(REDIS_URL);
if (!reachable && !REQUIRED) {
  console.warn(
    `\n!!! Redis rate-limit tests SKIPPED: nothing answers at ${REDIS_URL} (with CI=true this fails the run)\n`,
  );
}

describe.runIf(reachable || REQUIRED)('rate limiting on Redis (e2e)', () => {
  let redis: Redis;

  beforeAll(() => {
    if (!reachable)
      throw new Error(`Redis at ${REDIS_URL} does not answer, and CI=true requires it`);
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const redisEnv = (prefix = PREFIX) => ({
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    REDIS_COMMAND_TIMEOUT_MS: '2000',
  });

  describeRateLimitStorage('redis', async (clock, ban) => {
    const storage = new RedisRateLimitStorage(
      { url: REDIS_URL, keyPrefix: PREFIX, commandTimeoutMs: 2000 },
      ban,
      clock,
    );
    await storage.onModuleInit();
    return storage;
  });

  describe('requests of one turn', () => {
    let storage: RedisRateLimitStorage;
    beforeAll(async () => {
      storage = new RedisRateLimitStorage(
        { url: REDIS_URL, keyPrefix: PREFIX, commandTimeoutMs: 2000 },
        { threshold: 2, durationMs: 600_000 },
      );
      await storage.onModuleInit();
    });
    afterAll(() => storage.close());

    it('should go to Redis in one script call, peeks included, each decided in arrival order as if alone', async () => {
      const evalsha = vi.spyOn(storage.redis, 'evalsha');
      const minute = [{ name: 'minute', ttlMs: 60_000, limit: 3 }];
      const both = [...minute, { name: 'day', ttlMs: 86_400_000, limit: 100 }];
      const [busy, other] = [`busy-${randomUUID()}`, `other-${randomUUID()}`];
      const outcomes = await Promise.all([
        ...Array.from({ length: 7 }, () => storage.consume(busy, minute)),
        storage.consume(other, both),
        storage.peek(other, both),
        storage.consume(busy, minute),
      ]);
      expect(evalsha).toHaveBeenCalledTimes(1);
      evalsha.mockRestore();
      // Three accepted, two rejected, the third rejection over the threshold earns the ban.
      expect(outcomes.map((o) => o.status)).toEqual([
        'allowed',
        'allowed',
        'allowed',
        'limited',
        'limited',
        'banned',
        'banned',
        'allowed',
        'allowed',
        'banned',
      ]);
      expect(outcomes.slice(0, 3).map((o) => o.windows[0].used)).toEqual([1, 2, 3]);
      expect(outcomes[7].windows.map((w) => w.used)).toEqual([1, 1]);
      // A peek in the same script call reads, in order, and counts nothing.
      expect(outcomes[8]).toMatchObject({ status: 'allowed', retryAt: 0 });
      expect(outcomes[8].windows.map((w) => w.used)).toEqual([1, 1]);
    });
  });

  describe('app', () => {
    let t: TestApp;
    const clock = useRateLimitClock(() => t);

    beforeAll(async () => {
      t = await createTestApp(redisEnv());
    });
    afterAll(() => t.close());

    const get = (key?: string) => {
      const req = request(t.server).get('/v1/inventory');
      return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
    };

    it('should keep its counters in Redis', () => {
      expect(t.app.get(ThrottlerStorage)).toBeInstanceOf(RedisRateLimitStorage);
    });

    it('should let exactly 60 requests of a free key through, then answer 429 with the headers', async () => {
      const key = await t.createKey();
      for (let i = 1; i <= 60; i++) {
        expect((await get(key).expect(200)).headers['x-ratelimit-remaining']).toBe(String(60 - i));
      }
      const res = await get(key).expect(429);
      expect(res.body.code).toBe('rate_limit_exceeded');
      expect(res.headers).toMatchObject({
        'retry-after': '30',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil((clock.now() + 30_000) / 1000)),
        ratelimit: '"minute";r=0;t=30, "day";r=940;t=43170',
      });
    });

    it('should ban a key that goes on after 20 rejections, and end the ban on time', async () => {
      const key = await t.createKey({ perMinute: 1 });
      await get(key).expect(200);
      for (let i = 0; i < 20; i++)
        expect((await get(key).expect(429)).body.code).toBe('rate_limit_exceeded');
      const banned = await get(key).expect(429);
      expect(banned.body.code).toBe('api_key_banned');
      expect(banned.headers['retry-after']).toBe('600');
      clock.advance(300_000);
      expect((await get(key).expect(429)).headers['retry-after']).toBe('300');
      clock.advance(300_000);
      await get(key).expect(200);
    });

    it('should count anonymous requests per IP', async () => {
      for (let i = 1; i <= 60; i++)
        expect((await get().expect(401)).headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect((await get().expect(429)).body.code).toBe('rate_limit_exceeded');
    });

    it('should keep every key under the prefix, in one hash slot per client, expiring by itself', async () => {
      const key = await t.createKey({ perMinute: 1 });
      for (let i = 0; i < 22; i++) await get(key);
      const keys = await redis.keys(`${PREFIX}*`);
      const mine = keys.filter((name) => /\{key:\d+\}/.test(name));
      expect(mine.length).toBeGreaterThan(0);
      for (const name of keys) {
        // The hash tag is the first {...}: everything one client's script touches sits in one slot.
        expect(name).toMatch(/^[^{}]*\{[^{}]+\}:(ban|[^{}:]+:\d+)$/);
        const ttl = await redis.pttl(name);
        expect(ttl, name).toBeGreaterThan(0);
        expect(ttl, name).toBeLessThanOrEqual(86_400_000 + 5_000);
      }
      const ban = mine.find((name) => name.endsWith(':ban'));
      expect(await redis.pttl(ban!)).toBeLessThanOrEqual(600_000 + 5_000);
    });

    it('should answer GET /v1/rate_limit with one script call: its budget and the plan read together', async () => {
      const storage = t.app.get<RedisRateLimitStorage>(ThrottlerStorage);
      const key = await t.createKey();
      await get(key).expect(200);
      const evalsha = vi.spyOn(storage.redis, 'evalsha');
      const multi = vi.spyOn(storage.redis, 'multi');
      const res = await request(t.server)
        .get('/v1/rate_limit')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('59');
      expect(evalsha).toHaveBeenCalledTimes(1);
      expect(multi).not.toHaveBeenCalled();
      evalsha.mockRestore();
      multi.mockRestore();
    });

    it('should reload its script when Redis has forgotten it', async () => {
      const storage = t.app.get<RedisRateLimitStorage>(ThrottlerStorage);
      const key = await t.createKey();
      // Used once, the key is cached: the next request is one script call.
      await get(key).expect(200);
      const evalsha = vi
        .spyOn(storage.redis, 'evalsha')
        .mockRejectedValueOnce(new Error('NOSCRIPT No matching script.'));
      expect((await get(key).expect(200)).headers['x-ratelimit-remaining']).toBe('58');
      expect(evalsha).toHaveBeenCalledTimes(2);
      evalsha.mockRestore();
    });
  });

  describe('two instances sharing Redis', () => {
    const directory = mkdtempSync(join(tmpdir(), 'petstore-rate-limit-'));
    const env = {
      ...redisEnv(`${PREFIX}pair:`),
      DATABASE_URL: `sqlite:${join(directory, 'shared.sqlite')}`,
    };
    let a: TestApp;
    let b: TestApp;
    useRateLimitClock(
      () => a,
      () => b,
    );

    beforeAll(async () => {
      a = await createTestApp(env);
      b = await createTestApp(env);
      await a.app.listen(0, '127.0.0.1');
      await b.app.listen(0, '127.0.0.1');
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      rmSync(directory, { recursive: true, force: true });
    });

    it('should let exactly the limit through among 200 concurrent requests split over both', async () => {
      const key = await a.createKey();
      const urls = [await a.app.getUrl(), await b.app.getUrl()];
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          request(urls[i % 2])
            .get('/v1/inventory')
            .set('Authorization', `Bearer ${key}`),
        ),
      );
      const statuses = responses.map((res) => res.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(140);
      const remaining = responses
        .filter((res) => res.status === 200)
        .map((res) => Number(res.headers['x-ratelimit-remaining']));
      expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    });
  });
});
