import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/support/manual-clock.js';
import type { ApiKeysService } from '../auth/api-keys.service.js';
import type { Identity } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { Public } from '../auth/public.decorator.js';
import { loadConfig } from '../config/app-config.js';
import { PLAN_WINDOWS } from './plan-windows.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { banPolicy } from './rate-limit.module.js';
import { MemoryRateLimitStorage } from './storage/memory.storage.js';

class InventoryController {
  list(): void {}
  @Public()
  health(): void {}
}

type FakeRequest = { ip: string; identity?: Identity; socket?: { remoteAddress: string } };

function context(req: FakeRequest, handler: () => void = InventoryController.prototype.list) {
  const headers: Record<string, string> = {};
  const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
  const ctx = {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => InventoryController,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { ctx, headers };
}

const key = (keyId: number, perMinute = 60): Identity => ({
  kind: 'key',
  principal: {
    keyId,
    keyPrefix: 'pk_test_abcd',
    plan: 'pro',
    quota: { perMinute, perDay: 10_000 },
    scope: 'write',
  },
});

describe('RateLimitGuard', () => {
  let guard: RateLimitGuard;
  let lookups: string[];
  const known = new Map<string, Identity>([['hash-of-key-9', key(9, 300)]]);

  beforeEach(async () => {
    const config = loadConfig({});
    const clock = new ManualClock(Date.parse('2030-01-15T12:00:30Z'));
    const storage = new MemoryRateLimitStorage(banPolicy(config), clock);
    lookups = [];
    const apiKeys = {
      verify: (hash: string) => {
        lookups.push(hash);
        return Promise.resolve(known.get(hash) ?? { kind: 'invalid' });
      },
    } as unknown as ApiKeysService;
    guard = new RateLimitGuard(
      { throttlers: PLAN_WINDOWS, storage },
      storage,
      new Reflector(),
      config,
      apiKeys,
      clock,
    );
    await guard.onModuleInit();
  });

  const remaining = async (req: FakeRequest) => {
    const { ctx, headers } = context(req);
    await guard.canActivate(ctx);
    return headers['X-RateLimit-Remaining'];
  };

  it('should count the addresses of one IPv6 /64 as one client, and other networks apart', async () => {
    expect(await remaining({ ip: '2001:db8:1:2::a' })).toBe('59');
    expect(await remaining({ ip: '2001:db8:1:2:ffff::b' })).toBe('58');
    expect(await remaining({ ip: '2001:db8:1:3::a' })).toBe('59');
  });

  it('should count an IPv4 client the same whether it arrives over IPv4 or IPv6', async () => {
    expect(await remaining({ ip: '192.0.2.1' })).toBe('59');
    expect(await remaining({ ip: '::ffff:192.0.2.1' })).toBe('58');
  });

  it('should count a key by its id, whatever its address, with its own quota', async () => {
    expect(await remaining({ ip: '192.0.2.1', identity: key(7, 300) })).toBe('299');
    expect(await remaining({ ip: '198.51.100.9', identity: key(7, 300) })).toBe('298');
    expect(await remaining({ ip: '192.0.2.1', identity: { kind: 'invalid' } })).toBe('59');
  });

  it('should leave @Public() routes alone', async () => {
    const { ctx, headers } = context({ ip: '192.0.2.1' }, InventoryController.prototype.health);
    expect(await guard.canActivate(ctx)).toBe(true);
    expect(headers).toEqual({});
  });

  it('should look an uncached key up only while its IP has budget, and count an unknown one there', async () => {
    const unverified = (hash: string, knownValid = false): Identity => ({
      kind: 'unverified',
      hash,
      knownValid,
    });
    const req = { ip: '192.0.2.7', identity: unverified('hash-of-key-9') };
    expect(await remaining(req)).toBe('299');
    expect(req.identity).toEqual(key(9, 300));
    for (let i = 0; i < 60; i++) {
      expect(await remaining({ ip: '192.0.2.7', identity: unverified(`random-${i}`) })).toBe(
        String(59 - i),
      );
    }
    expect(lookups).toHaveLength(61);
    // The IP's budget is spent: neither a random key nor a real one is looked up any more.
    for (const hash of ['random-x', 'hash-of-key-9']) {
      const { ctx, headers } = context({ ip: '192.0.2.7', identity: unverified(hash) });
      await expect(guard.canActivate(ctx)).rejects.toMatchObject({
        code: 'rate_limit_exceeded',
      });
      expect(headers['X-RateLimit-Remaining']).toBe('0');
    }
    expect(lookups).toHaveLength(61);
    // A key valid at its last lookup (its cache entry since expired) is looked up again.
    expect(await remaining({ ip: '192.0.2.7', identity: unverified('hash-of-key-9', true) })).toBe(
      '298',
    );
    expect(lookups).toHaveLength(62);
  });

  it('should refuse without capturing a stack, and ban the IP like any other client', async () => {
    let last: unknown;
    for (let i = 0; i < 60 + 21 + 1; i++) {
      const { ctx } = context({
        ip: '192.0.2.8',
        identity: { kind: 'unverified', hash: 'x', knownValid: false },
      });
      last = await guard.canActivate(ctx).catch((err: unknown) => err);
    }
    expect(last).toBeInstanceOf(ApiError);
    expect(last).toMatchObject({ code: 'api_key_banned', status: 429 });
    expect((last as Error).stack).toBeUndefined();
    expect(lookups).toHaveLength(60);
  });

  it('should count a client whose forwarded address is not an IP by its socket address', async () => {
    const socket = { remoteAddress: '::ffff:10.9.8.7' };
    expect(await remaining({ ip: 'not an address', socket })).toBe('59');
    expect(await remaining({ ip: '10.9.8.7' })).toBe('58');
  });
});
