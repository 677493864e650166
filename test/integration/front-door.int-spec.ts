import { randomBytes } from 'node:crypto';
import { getRepositoryToken } from '@nestjs/typeorm';
import request from 'supertest';
import type { Repository } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '../../src/auth/api-key.codec.js';
import { ApiKeyEntity } from '../../src/auth/api-key.entity.js';
import { ApiKeysService } from '../../src/auth/api-keys.service.js';
import { LOOKUP_BUDGET } from '../../src/rate-limit/lookup-budget.js';
import { createTestApp, type TestApp } from '../support/create-test-app.js';
import { uniqueSuffix } from './support/cluster.js';
import { requireIntegrationContext } from './support/context.js';

const context = requireIntegrationContext();

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A well-formed production key that no database holds. */
const randomKey = () => `pk_live_${[...randomBytes(40)].map((byte) => BASE62[byte % 62]).join('')}`;
const CACHE_TTL_MS = 5_000;

describe('the front door on PostgreSQL and Redis (integration)', () => {
  let t: TestApp;
  let lookups: number;
  let concurrent: number;
  let mostConcurrent: number;
  const ignored = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp({
      APP_ENV: 'production',
      TRUST_PROXY: '1',
      DB_POOL_SIZE: '8',
      API_KEY_CACHE_TTL_MS: String(CACHE_TTL_MS),
      REDIS_URL: context.redisUrl,
      REDIS_KEY_PREFIX: `${context.redisKeyPrefix}front_${uniqueSuffix()}:`,
      REDIS_COMMAND_TIMEOUT_MS: '5000',
    });
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
    // Every key lookup is one query of api_keys: counted, with how many run at once.
    const keys = t.app.get<Repository<ApiKeyEntity>>(getRepositoryToken(ApiKeyEntity));
    const findOneBy = keys.findOneBy.bind(keys);
    vi.spyOn(keys, 'findOneBy').mockImplementation(async (where) => {
      // The honest key's own refresh-ahead lookups are not the storm's.
      if (!ignored.has(String((where as { keyHash?: unknown }).keyHash))) lookups += 1;
      mostConcurrent = Math.max(mostConcurrent, ++concurrent);
      try {
        return await findOneBy(where);
      } finally {
        concurrent -= 1;
      }
    });
  }, 60_000);
  afterAll(() => t?.close());
  beforeEach(() => {
    lookups = concurrent = mostConcurrent = 0;
  });

  const from = (address: string, key: string) =>
    request(t.server)
      .get('/v1/inventory')
      .set('X-Forwarded-For', address)
      .set('Authorization', `Bearer ${key}`);

  it('should serve a new valid key sent by 150 concurrent requests from one address, with one lookup and none of the lookup budget but its first', async () => {
    const fresh = await t.createKey({ plan: 'business' });
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => from('203.0.113.77', fresh)),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(150).fill(200));
    expect(lookups).toBe(1);
  });

  it('should look up at most the lookup budget of 400 concurrent random keys from one address, within its share of the pool, while an honest key elsewhere is served', async () => {
    const honest = await t.createKey({ plan: 'business' });
    ignored.add(hashApiKey(honest));
    await from('198.51.100.1', honest).expect(200);
    lookups = mostConcurrent = 0;
    const [storm, honestAnswers] = await Promise.all([
      Promise.all(Array.from({ length: 400 }, () => from('203.0.113.9', randomKey()))),
      Promise.all(Array.from({ length: 50 }, () => from('198.51.100.1', honest))),
    ]);
    expect(lookups).toBeLessThanOrEqual(LOOKUP_BUDGET[0].limit);
    expect(mostConcurrent).toBeLessThanOrEqual(t.app.get(ApiKeysService).lookupPermits.size);
    expect(t.app.get(ApiKeysService).lookupPermits.size).toBe(2);
    const statuses = new Set(storm.map((res) => res.status));
    expect([...statuses].every((status) => status === 401 || status === 429)).toBe(true);
    expect(honestAnswers.map((res) => res.status)).toEqual(Array(50).fill(200));
  });

  it('should look a banned valid key up at most once per cache refresh at 400 concurrent requests', async () => {
    const key = await t.createKey({ perMinute: 1 });
    await from('198.51.100.2', key).expect(200);
    for (let i = 0; i < 30; i++) {
      const res = await from('198.51.100.2', key);
      if (res.body.code === 'api_key_banned') break;
    }
    expect((await from('198.51.100.2', key).expect(429)).body.code).toBe('api_key_banned');
    const cachedAt = Date.now();
    const realNow = Date.now.bind(Date);
    const at = (offset: number) => {
      const shift = cachedAt + offset - realNow();
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
    };
    try {
      lookups = 0;
      // Past half the entry's life: served from the cache, one lookup refreshes it.
      at(CACHE_TTL_MS * 0.6);
      let answers = await Promise.all(Array.from({ length: 400 }, () => from('198.51.100.2', key)));
      expect(answers.every((res) => res.body.code === 'api_key_banned')).toBe(true);
      expect(lookups).toBe(1);
      // Past the end of even the refreshed entry: one lookup, which every request waits for.
      lookups = 0;
      at(CACHE_TTL_MS * 3);
      answers = await Promise.all(Array.from({ length: 400 }, () => from('198.51.100.2', key)));
      expect(answers.every((res) => res.body.code === 'api_key_banned')).toBe(true);
      expect(lookups).toBe(1);
    } finally {
      vi.mocked(Date.now).mockRestore();
    }
  });
});
