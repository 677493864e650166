import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/support/manual-clock.js';
import type { Identity } from '../auth/principal.js';
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

function context(
  req: { ip: string; identity?: Identity },
  handler: () => void = InventoryController.prototype.list,
) {
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

  beforeEach(async () => {
    const config = loadConfig({});
    const storage = new MemoryRateLimitStorage(
      banPolicy(config),
      new ManualClock(Date.parse('2030-01-15T12:00:30Z')),
    );
    guard = new RateLimitGuard(
      { throttlers: PLAN_WINDOWS, storage },
      storage,
      new Reflector(),
      config,
    );
    await guard.onModuleInit();
  });

  const remaining = async (req: { ip: string; identity?: Identity }) => {
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
});
