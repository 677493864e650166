import type { Repository } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/app-config.js';
import { generateApiKey, hashApiKey } from './api-key.codec.js';
import type { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeysService } from './api-keys.service.js';
import { LOOKUP_WAIT_MS, LOOKUPS_BUSY } from './lookup-permits.js';

describe('ApiKeysService.identify', () => {
  it('should refuse a key of the other environment by its prefix, without a lookup', async () => {
    for (const [env, foreign] of [
      ['development', generateApiKey('production')],
      ['staging', generateApiKey('production')],
      ['production', generateApiKey('development')],
    ] as const) {
      const findOneBy = vi.fn().mockResolvedValue(null);
      const service = new ApiKeysService(
        { findOneBy } as unknown as Repository<ApiKeyEntity>,
        loadConfig({ APP_ENV: env }),
      );
      expect(service.identify(foreign)).toEqual({ kind: 'invalid' });
      const own = service.identify(generateApiKey(env));
      expect(own.kind).toBe('unverified');
      expect(findOneBy).not.toHaveBeenCalled();
    }
  });
});

describe('ApiKeysService lookups', () => {
  const T0 = Date.parse('2030-01-15T12:00:00Z');
  const raw = generateApiKey('development');
  const row = {
    id: 4,
    keyHash: hashApiKey(raw),
    keyPrefix: 'pk_dev_abcd',
    plan: 'pro',
    perMinute: null,
    perDay: null,
    environment: 'development',
    scope: 'write',
    expiresAt: null,
    revokedAt: null,
  } as unknown as ApiKeyEntity;

  let answers: ((value: ApiKeyEntity | null) => void)[];
  let service: ApiKeysService;
  const findOneBy = vi.fn(
    () => new Promise<ApiKeyEntity | null>((resolve) => answers.push(resolve)),
  );

  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
    answers = [];
    findOneBy.mockClear();
    service = new ApiKeysService(
      { findOneBy } as unknown as Repository<ApiKeyEntity>,
      loadConfig({ APP_ENV: 'development', API_KEY_CACHE_TTL_MS: '8000' }),
    );
  });
  afterEach(() => vi.useRealTimers());
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('should look a key up once however many requests carry it meanwhile', async () => {
    const identity = service.identify(raw);
    if (identity.kind !== 'unverified') throw new Error('expected an unverified key');
    const pending = Array.from({ length: 50 }, () => service.verify(identity.hash));
    await settle();
    expect(findOneBy).toHaveBeenCalledTimes(1);
    answers[0](null);
    expect(new Set(await Promise.all(pending))).toEqual(new Set([{ kind: 'invalid' }]));
    // Over: the next request looks it up again.
    void service.verify(identity.hash);
    await settle();
    expect(findOneBy).toHaveBeenCalledTimes(2);
  });

  it('should refresh a key in use in the background before its entry runs out, serving it from the cache meanwhile', async () => {
    const identity = service.identify(raw);
    if (identity.kind !== 'unverified') throw new Error('expected an unverified key');
    const verified = service.verify(identity.hash);
    await settle();
    answers[0](row);
    expect(await verified).toMatchObject({ kind: 'key', principal: { keyId: 4 } });
    vi.setSystemTime(T0 + 3_999);
    expect(service.identify(raw).kind).toBe('key');
    expect(findOneBy).toHaveBeenCalledTimes(1);
    // Past half its life: every request is still served from the cache, one lookup refreshes it.
    vi.setSystemTime(T0 + 4_000);
    for (let i = 0; i < 20; i++) expect(service.identify(raw).kind).toBe('key');
    await settle();
    expect(findOneBy).toHaveBeenCalledTimes(2);
    answers[1](row);
    await settle();
    // Refreshed at T0 + 4 s: good until T0 + 12 s, past the first entry's end.
    vi.setSystemTime(T0 + 11_000);
    expect(service.identify(raw).kind).toBe('key');
  });

  it('should drop a key revoked meanwhile at its refresh, so it stops before its entry would have ended', async () => {
    const identity = service.identify(raw);
    if (identity.kind !== 'unverified') throw new Error('expected an unverified key');
    const verified = service.verify(identity.hash);
    await settle();
    answers[0](row);
    await verified;
    vi.setSystemTime(T0 + 5_000);
    expect(service.identify(raw).kind).toBe('key');
    await settle();
    answers[1](null);
    await settle();
    expect(service.identify(raw)).toMatchObject({ kind: 'unverified', knownValid: false });
  });

  it('should hold at most its share of the pool in lookups at once', async () => {
    const config = loadConfig({
      APP_ENV: 'development',
      DATABASE_URL: 'postgres://localhost/petstore',
      DB_POOL_SIZE: '8',
    });
    service = new ApiKeysService({ findOneBy } as unknown as Repository<ApiKeyEntity>, config);
    expect(service.lookupPermits.size).toBe(2);
    const pending = Array.from({ length: 5 }, (_, i) =>
      service.verify(`hash-${i}`).catch((err: unknown) => err),
    );
    await settle();
    expect(findOneBy).toHaveBeenCalledTimes(2);
    answers[0](null);
    await settle();
    expect(findOneBy).toHaveBeenCalledTimes(3);
    // The rest wait at most LOOKUP_WAIT_MS for a permit, then are refused with a 503.
    await vi.advanceTimersByTimeAsync(LOOKUP_WAIT_MS);
    const settled = await Promise.all(pending.slice(3));
    expect(settled).toEqual([LOOKUPS_BUSY, LOOKUPS_BUSY]);
    expect(LOOKUPS_BUSY).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      headers: { 'Retry-After': '1' },
    });
    expect(findOneBy).toHaveBeenCalledTimes(3);
  });
});
