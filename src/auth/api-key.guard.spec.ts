import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config.js';
import type { LookupBudget } from '../rate-limit/lookup-budget.js';
import { AnyScope, ApiKeyGuard, sentMoreThanOnce } from './api-key.guard.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { KeyScope } from './key-scope.js';
import type { Identity } from './principal.js';
import { Anonymous, isPublicRoute, Public } from './public.decorator.js';

class BaseController {
  list(): void {}
}

@Public()
class OpenController extends BaseController {}

class ClosedController extends BaseController {
  @Public()
  health(): void {}
}

@AnyScope()
class CatchAllController {
  notFound(): void {}
}

@Anonymous()
class OutsideController {
  unmatched(): void {}
}

const route = (controller: object, handler: () => void) =>
  ({ getClass: () => controller, getHandler: () => handler }) as unknown as ExecutionContext;

describe('isPublicRoute', () => {
  it('should answer by controller and handler, the same each time, for a handler two controllers share', () => {
    const reflector = new Reflector();
    const shared = BaseController.prototype.list;
    for (let i = 0; i < 2; i++) {
      expect(isPublicRoute(reflector, route(OpenController, shared))).toBe(true);
      expect(isPublicRoute(reflector, route(ClosedController, shared))).toBe(false);
      expect(
        isPublicRoute(reflector, route(ClosedController, ClosedController.prototype.health)),
      ).toBe(true);
    }
  });
});

describe('sentMoreThanOnce', () => {
  it('should find a header sent twice, whatever its case, and nothing else', () => {
    expect(
      sentMoreThanOnce(['Host', 'x', 'Authorization', 'a', 'authorization', 'b'], 'authorization'),
    ).toBe(true);
    expect(sentMoreThanOnce(['AUTHORIZATION', 'a', 'Accept', '*/*'], 'authorization')).toBe(false);
    expect(sentMoreThanOnce(['X-Authorization', 'a', 'Authorization', 'b'], 'authorization')).toBe(
      false,
    );
  });
});

const keyOf = (scope: KeyScope): Identity => ({
  kind: 'key',
  principal: {
    keyId: 1,
    keyPrefix: 'pk_test_abcd',
    plan: 'free',
    quota: { perMinute: 60, perDay: 1000 },
    scope,
  },
});

describe('ApiKeyGuard', () => {
  /** A guard whose key cache knows `cached` and whose lookups find `found`, counting them. */
  function guardOf(cached: Identity, found: Identity = { kind: 'invalid' }) {
    const seen = { lookups: 0, budgetTaken: 0 };
    const apiKeys = {
      identify: () => cached,
      verify: async (_hash: string, admit?: () => Promise<void>) => {
        await admit?.();
        seen.lookups += 1;
        return found;
      },
    } as unknown as ApiKeysService;
    const lookups = {
      take: () => {
        seen.budgetTaken += 1;
        return Promise.resolve();
      },
    } as unknown as LookupBudget;
    return {
      guard: new ApiKeyGuard(new Reflector(), apiKeys, loadConfig({}), lookups),
      seen,
    };
  }

  function context(
    method: string,
    authorization: string | undefined,
    controller: object = BaseController,
    handler: () => void = BaseController.prototype.list,
  ): ExecutionContext {
    const req = {
      method,
      headers: authorization === undefined ? {} : { authorization },
      rawHeaders: authorization === undefined ? [] : ['Authorization', authorization],
    };
    return {
      getType: () => 'http',
      getClass: () => controller,
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }),
    } as unknown as ExecutionContext;
  }

  const refusalOf = async (guard: ApiKeyGuard, ctx: ExecutionContext) => {
    try {
      await guard.canActivate(ctx);
    } catch (err) {
      return err as { code: string; status: number; message: string; stack?: string };
    }
    return undefined;
  };

  it('should work the caller out once per request, however many ask, with one lookup and one budget taken', async () => {
    const { guard, seen } = guardOf(
      { kind: 'unverified', hash: 'h', knownValid: false },
      keyOf('write'),
    );
    const ctx = context('GET', 'Bearer pk_test_x');
    const [first, second] = await Promise.all([guard.callerOf(ctx), guard.callerOf(ctx)]);
    expect(await guard.canActivate(ctx)).toBe(true);
    expect(first).toBe(second);
    expect(first.principal?.keyId).toBe(1);
    expect(seen).toEqual({ lookups: 1, budgetTaken: 1 });
  });

  it('should refuse callers without a valid key with pre-built errors that carry no stack', async () => {
    const refusals = [
      await refusalOf(guardOf({ kind: 'missing' }).guard, context('GET', undefined)),
      await refusalOf(guardOf({ kind: 'invalid' }).guard, context('GET', 'Bearer x')),
      await refusalOf(
        guardOf({ kind: 'unverified', hash: 'h', knownValid: false }).guard,
        context('GET', 'Bearer pk_test_x'),
      ),
    ];
    expect(refusals.map((err) => err?.code)).toEqual([
      'unauthorized',
      'unauthorized',
      'unauthorized',
    ]);
    for (const err of refusals) expect(err?.stack).toBeUndefined();
    const twice = context('GET', 'Bearer x');
    const req = twice.switchToHttp().getRequest<{ rawHeaders: string[] }>();
    req.rawHeaders.push('authorization', 'Bearer y');
    expect(await refusalOf(guardOf(keyOf('write')).guard, twice)).toMatchObject({
      code: 'validation_failed',
    });
  });

  it('should let a read key read and refuse it any other method with 403 forbidden', async () => {
    const { guard } = guardOf(keyOf('read'));
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(await refusalOf(guard, context(method, 'Bearer k'))).toBeUndefined();
    for (const method of ['PATCH', 'POST', 'PUT', 'DELETE']) {
      expect(await refusalOf(guard, context(method, 'Bearer k'))).toMatchObject({
        code: 'forbidden',
        status: 403,
        message: `This API key has the read scope, which allows only GET requests; ${method} needs a key with the write scope`,
      });
    }
    expect(await refusalOf(guardOf(keyOf('write')).guard, context('PATCH', 'Bearer k'))).toBe(
      undefined,
    );
  });

  it('should leave public routes alone, any scope where the route allows it, and need no key where the route is anonymous', async () => {
    const { guard, seen } = guardOf({ kind: 'missing' });
    expect(
      await refusalOf(
        guard,
        context('POST', undefined, ClosedController, ClosedController.prototype.health),
      ),
    ).toBeUndefined();
    expect(
      await refusalOf(
        guardOf(keyOf('read')).guard,
        context('DELETE', 'Bearer k', CatchAllController, CatchAllController.prototype.notFound),
      ),
    ).toBeUndefined();
    const outside = context(
      'GET',
      'Bearer pk_test_x',
      OutsideController,
      OutsideController.prototype.unmatched,
    );
    expect(await refusalOf(guard, outside)).toBeUndefined();
    expect((await guard.callerOf(outside)).principal).toBeUndefined();
    expect(seen.lookups).toBe(0);
  });
});
