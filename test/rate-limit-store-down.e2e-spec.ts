import { createServer, type Server, type Socket } from 'node:net';
import { ThrottlerStorage } from '@nestjs/throttler';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimitStoreUnavailableError } from '../src/rate-limit/storage/rate-limit.storage.js';
import { RedisRateLimitStorage } from '../src/rate-limit/storage/redis.storage.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

/** Nothing listens on port 1: connections are refused at once. */
const DEAD_REDIS = 'redis://127.0.0.1:1';

function useApp(env: Record<string, string>): () => TestApp {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(() => t.close());
  return () => t;
}

async function inventory(t: TestApp, status: number) {
  const key = await t.createKey();
  return request(t.server)
    .get('/v1/inventory')
    .set('Authorization', `Bearer ${key}`)
    .expect(status);
}

describe('rate limiting with Redis down, failing closed (e2e)', () => {
  const app = useApp({ REDIS_URL: DEAD_REDIS });

  it('should refuse /v1 requests with 503 and Retry-After rather than serve them uncounted', async () => {
    const res = await inventory(app(), 503);
    expect(res.body).toEqual({
      code: 'service_unavailable',
      message: 'Rate limiting is temporarily unavailable; retry shortly',
      status: 503,
    });
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('should report Redis in /health/ready but stay alive', async () => {
    const ready = await request(app().server).get('/health/ready').expect(503);
    expect(ready.body).toEqual({
      code: 'service_unavailable',
      message: 'Not ready: redis unavailable',
      status: 503,
    });
    expect(ready.headers['retry-after']).toBe('5');
    await request(app().server).get('/health').expect(200);
  });
});

describe('the Redis storage while Redis is down', () => {
  it('should fail each request at once and log the outage once', async () => {
    const ban = { threshold: 20, durationMs: 600_000 };
    const storage = new RedisRateLimitStorage(
      { url: DEAD_REDIS, keyPrefix: 'x:', commandTimeoutMs: 100 },
      ban,
    );
    const warn = vi.spyOn(storage['logger'], 'warn').mockImplementation(() => {});
    try {
      await storage.onModuleInit();
      for (let i = 0; i < 3; i++) {
        await expect(
          storage.consume('key:1', [{ name: 'minute', ttlMs: 60_000, limit: 60 }]),
        ).rejects.toThrow(RateLimitStoreUnavailableError);
      }
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      await storage.close();
    }
  });
});

describe('rate limiting with Redis down, failing open (e2e)', () => {
  const app = useApp({ REDIS_URL: DEAD_REDIS, RATE_LIMIT_FAIL_OPEN: 'true' });

  it('should serve /v1 requests without counting them', async () => {
    const res = await inventory(app(), 200);
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(res.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=1000;w=86400');
  });

  it('should report Redis as degraded while staying ready', async () => {
    const ready = await request(app().server).get('/health/ready').expect(200);
    expect(ready.body.status).toBe('degraded');
    expect(ready.body.details.redis).toEqual({
      status: 'degraded',
      message: 'Redis does not answer; requests are served without rate limiting',
    });
  });
});

/**
 * Just enough of Redis to look healthy: answers the ready check, SCRIPT LOAD and PING, but never
 * the script calls themselves, as a Redis stuck on something else would.
 */
function stallingRedis(): Server {
  const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
  return createServer((socket) => {
    socket.on('data', (data) => {
      const command = data.toString('latin1').toUpperCase();
      if (command.includes('INFO'))
        socket.write(bulk('# Server\r\nredis_version:7.0.0\r\nloading:0\r\n'));
      else if (command.includes('SCRIPT')) socket.write(bulk('0'.repeat(40)));
      else if (command.includes('PING')) socket.write('+PONG\r\n');
    });
  });
}

describe('rate limiting with a Redis that stops answering (e2e)', () => {
  const sockets = new Set<Socket>();
  const redis = stallingRedis().on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let t: TestApp;

  beforeAll(async () => {
    await new Promise<void>((resolve) => redis.listen(0, '127.0.0.1', resolve));
    const { port } = redis.address() as { port: number };
    t = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_COMMAND_TIMEOUT_MS: '100',
    });
  });
  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => redis.close(resolve));
  });

  it('should give up on it after the command timeout and answer 503', async () => {
    expect(t.app.get<RedisRateLimitStorage>(ThrottlerStorage).redis.status).toBe('ready');
    const res = await inventory(t, 503);
    expect(res.body.code).toBe('service_unavailable');
  });
});

describe('rate limiting switched off with REDIS_URL set (e2e)', () => {
  const app = useApp({ REDIS_URL: DEAD_REDIS, RATE_LIMIT_ENABLED: 'false' });

  it('should neither use nor check Redis', async () => {
    await inventory(app(), 200);
    const ready = await request(app().server).get('/health/ready').expect(200);
    expect(ready.body.details.redis).toBeUndefined();
  });
});
