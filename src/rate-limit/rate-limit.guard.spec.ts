import type { ExecutionContext } from '@nestjs/common';
import { Reflector, type ModuleRef } from '@nestjs/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/support/manual-clock.js';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import type { ApiKeysService } from '../auth/api-keys.service.js';
import type { KeyScope } from '../auth/key-scope.js';
import type { Identity, Principal } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { Public } from '../auth/public.decorator.js';
import { loadConfig } from '../config/app-config.js';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { LookupBudget } from './lookup-budget.js';
import { planThrottler } from './plan-windows.js';
import { RateLimitRefusals } from './rate-limit.refusals.js';
import { RateLimitCost } from './rate-limit-cost.decorator.js';
import { Uncounted } from './uncounted.decorator.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { banPolicy } from './rate-limit.module.js';
import { MemoryRateLimitStorage } from './storage/memory.storage.js';

class InventoryController {
  list(): void {}
  @Public()
  health(): void {}
  @SkipThrottle({ minute: true, day: true })
  unthrottled(): void {}
  @Throttle({ minute: { limit: 3, ttl: 60_000 } })
  tight(): void {}
  @RateLimitCost((req) => Number(req.headers['x-lines']))
  batch(): void {}
  @Uncounted()
  status(): void {}
}

type FakeRequest = {
  ip: string;
  /** What the key cache says of the key the request carries (none: no Authorization). */
  identity?: Identity;
  socket?: { remoteAddress: string };
  headers?: Record<string, string>;
  rawHeaders?: string[];
  method?: string;
  principal?: Principal;
};

/** Each Authorization token the fake key cache knows, with what it says of it. */
const tokens = new Map<string, Identity>();

function context(req: FakeRequest, handler: () => void = InventoryController.prototype.list) {
  if (req.identity !== undefined && req.identity.kind !== 'missing') {
    const token = `token-${tokens.size}`;
    tokens.set(token, req.identity);
    req.headers = { ...req.headers, authorization: `Bearer ${token}` };
    req.rawHeaders = ['Authorization', req.headers.authorization];
  }
  req.headers ??= {};
  req.rawHeaders ??= [];
  req.method ??= 'GET';
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

const key = (keyId: number, perMinute = 60, scope: KeyScope = 'write'): Identity => ({
  kind: 'key',
  principal: {
    keyId,
    keyPrefix: 'pk_test_abcd',
    plan: 'pro',
    quota: { perMinute, perDay: 10_000 },
    scope,
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
      identify: (token: string) => tokens.get(token) ?? { kind: 'invalid' },
      // As ApiKeysService.verify: `admit` runs before the lookup it starts, and may refuse it.
      verify: async (hash: string, admit?: () => Promise<void>) => {
        await admit?.();
        lookups.push(hash);
        return known.get(hash) ?? { kind: 'invalid' };
      },
    } as unknown as ApiKeysService;
    const refusals = new RateLimitRefusals(config, clock);
    const auth = new ApiKeyGuard(
      new Reflector(),
      apiKeys,
      config,
      new LookupBudget(storage, config, refusals),
    );
    guard = new RateLimitGuard(
      { throttlers: [planThrottler((ctx) => auth.callerOf(ctx))], storage },
      storage,
      config,
      auth,
      refusals,
      {} as ModuleRef,
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

  const unverified = (hash: string, knownValid = false): Identity => ({
    kind: 'unverified',
    hash,
    knownValid,
  });
  const refusal = async (req: FakeRequest, handler?: () => void) => {
    const { ctx, headers } = context(req, handler);
    const err = await guard.canActivate(ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { err: err as ApiError | undefined, headers };
  };

  it('should serve a valid key by its own plan after its address spent and earned a ban on its anonymous budget', async () => {
    for (let i = 0; i < 60; i++)
      await remaining({ ip: '192.0.2.7', identity: { kind: 'missing' } });
    expect((await refusal({ ip: '192.0.2.7', identity: { kind: 'missing' } })).err).toMatchObject({
      code: 'rate_limit_exceeded',
    });
    // A brand-new key, looked up now, is counted by its own plan.
    const req = { ip: '192.0.2.7', identity: unverified('hash-of-key-9') };
    expect(await remaining(req)).toBe('299');
    expect(req).toMatchObject({ principal: { keyId: 9 } });
    for (let i = 0; i < 21; i++) await refusal({ ip: '192.0.2.7', identity: { kind: 'missing' } });
    expect((await refusal({ ip: '192.0.2.7', identity: { kind: 'missing' } })).err).toMatchObject({
      code: 'api_key_banned',
    });
    // Banned address: the key, cached or valid at its last lookup, is still served.
    expect(await remaining({ ip: '192.0.2.7', identity: key(9, 300) })).toBe('298');
    expect(await remaining({ ip: '192.0.2.7', identity: unverified('hash-of-key-9', true) })).toBe(
      '297',
    );
  });

  it('should take the lookup budget before each lookup, so concurrent unknown keys from one address cause at most 60 lookups', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        refusal({ ip: '192.0.2.9', identity: unverified(`random-${i}`) }),
      ),
    );
    expect(lookups).toHaveLength(60);
    const refused = results.filter((r) => r.err !== undefined);
    expect(refused).toHaveLength(140);
    expect(refused[0].err).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect(refused[0].err?.message).toContain('budget of 60 lookups of unknown API keys');
    // The 60 looked up were unknown: they counted against the address's anonymous windows.
    expect((await refusal({ ip: '192.0.2.9', identity: { kind: 'missing' } })).err).toMatchObject({
      code: 'rate_limit_exceeded',
    });
    // Another address has its own budget.
    expect(await remaining({ ip: '192.0.2.10', identity: unverified('random-x') })).toBe('59');
    expect(lookups).toHaveLength(61);
  });

  it('should refuse without capturing a stack, and ban an address that keeps sending unknown keys', async () => {
    let last: ApiError | undefined;
    for (let i = 0; i < 60 + 21 + 1; i++)
      last = (await refusal({ ip: '192.0.2.8', identity: unverified(`x-${i}`) })).err;
    expect(last).toBeInstanceOf(ApiError);
    expect(last).toMatchObject({ code: 'api_key_banned', status: 429 });
    expect(last?.stack).toBeUndefined();
    expect(lookups).toHaveLength(60);
  });

  it('should count a client whose forwarded address is not an IP by its socket address', async () => {
    const socket = { remoteAddress: '::ffff:10.9.8.7' };
    expect(await remaining({ ip: 'not an address', socket })).toBe('59');
    expect(await remaining({ ip: '10.9.8.7' })).toBe('58');
  });

  describe("the throttler's decorators", () => {
    const handler = (name: keyof InventoryController) => InventoryController.prototype[name];
    const hit = async (name: keyof InventoryController, req: FakeRequest) => {
      const { ctx, headers } = context(req, handler(name));
      await guard.canActivate(ctx);
      return headers;
    };

    it('should neither count nor limit a route that skips every throttler with @SkipThrottle()', async () => {
      for (let i = 0; i < 70; i++)
        expect(await hit('unthrottled', { ip: '192.0.2.20' })).toEqual({});
      expect(await remaining({ ip: '192.0.2.20' })).toBe('59');
    });

    it("should hold a route with @Throttle() to its own limit, counted apart from the plan's window", async () => {
      for (let i = 0; i < 3; i++) await hit('tight', { ip: '192.0.2.22' });
      const { err, headers } = await refusal({ ip: '192.0.2.22' }, handler('tight'));
      expect(err).toMatchObject({ code: 'rate_limit_exceeded' });
      expect(err?.message).toContain('minute quota of 3');
      expect(headers['X-RateLimit-Limit']).toBe('3');
      // The plan's minute saw none of them; the shared day saw all three.
      const { ctx, headers: plain } = context({ ip: '192.0.2.22' });
      await guard.canActivate(ctx);
      expect(plain.RateLimit).toBe('"minute";r=59;t=30, "day";r=996;t=43170');
    });
  });

  describe('@RateLimitCost()', () => {
    const batch = InventoryController.prototype.batch;
    const lines = (n: number, scope: KeyScope = 'write'): FakeRequest => ({
      ip: '192.0.2.30',
      method: 'POST',
      identity: key(30, 60, scope),
      headers: { 'x-lines': String(n) },
    });

    it('should count the cost in every window, and refuse whole, counting nothing, a request that does not fit', async () => {
      const { ctx, headers } = context(lines(50), batch);
      await guard.canActivate(ctx);
      expect(headers.RateLimit).toBe('"minute";r=10;t=30, "day";r=9950;t=43170');
      const { err, headers: refused } = await refusal(lines(11), batch);
      expect(err).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
      expect(refused.RateLimit).toBe('"minute";r=10;t=30, "day";r=9950;t=43170');
      const { ctx: fits, headers: after } = context(lines(10), batch);
      await guard.canActivate(fits);
      expect(after['X-RateLimit-Remaining']).toBe('0');
    });

    it('should refuse a request costing more than a window can ever hold as such, counted as one', async () => {
      const { err, headers } = await refusal(lines(61), batch);
      expect(err).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(err?.message).toContain('more than the minute quota of 60 requests');
      expect(headers['X-RateLimit-Remaining']).toBe('59');
    });

    it('should charge one request, without pricing it, to a caller the route refuses', async () => {
      const { err, headers } = await refusal(lines(50, 'read'), batch);
      expect(err).toBeUndefined();
      expect(headers['X-RateLimit-Remaining']).toBe('59');
    });
  });

  describe('an uncounted route (the rate-limit status)', () => {
    const status = InventoryController.prototype.status;

    it("should leave a valid key's call to the route, which spends its own budget, and count anyone else", async () => {
      await remaining({ ip: '192.0.2.40', identity: key(11, 300) });
      for (let i = 0; i < 70; i++) {
        const { ctx, headers } = context({ ip: '192.0.2.40', identity: key(11, 300) }, status);
        expect(await guard.canActivate(ctx)).toBe(true);
        expect(headers).toEqual({});
      }
      expect(await remaining({ ip: '192.0.2.40', identity: key(11, 300) })).toBe('298');
      const { ctx, headers } = context({ ip: '192.0.2.41' }, status);
      await guard.canActivate(ctx);
      expect(headers['X-RateLimit-Remaining']).toBe('59');
    });
  });
});
