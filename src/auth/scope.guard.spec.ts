import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import type { Identity } from './principal.js';
import { Public } from './public.decorator.js';
import { AnyScope, KeyScopeGuard } from './scope.guard.js';
import type { KeyScope } from './key-scope.js';

class InventoryController {
  update(): void {}
}

@AnyScope()
class CatchAllController {
  notFound(): void {}
}

class HealthController {
  @Public()
  check(): void {}
}

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

function context(
  method: string,
  identity: Identity | undefined,
  controller: object = InventoryController,
  handler: () => void = InventoryController.prototype.update,
): ExecutionContext {
  return {
    getClass: () => controller,
    getHandler: () => handler,
    switchToHttp: () => ({ getRequest: () => ({ method, identity }) }),
  } as unknown as ExecutionContext;
}

describe('KeyScopeGuard', () => {
  const guard = new KeyScopeGuard(new Reflector());

  it('should let a read key read and a write key do everything', () => {
    expect(guard.canActivate(context('GET', keyOf('read')))).toBe(true);
    expect(guard.canActivate(context('HEAD', keyOf('read')))).toBe(true);
    expect(guard.canActivate(context('GET', keyOf('write')))).toBe(true);
    expect(guard.canActivate(context('PATCH', keyOf('write')))).toBe(true);
  });

  it('should refuse a read key any other method with 403 forbidden', () => {
    for (const method of ['PATCH', 'POST', 'PUT', 'DELETE']) {
      expect(() => guard.canActivate(context(method, keyOf('read')))).toThrow(
        expect.objectContaining({
          code: 'forbidden',
          status: 403,
          message: `This API key has the read scope, which allows only GET requests; ${method} needs a key with the write scope`,
        }),
      );
    }
  });

  it('should leave routes marked for any scope, public routes and callers without a key to others', () => {
    const catchAll = CatchAllController.prototype.notFound;
    expect(guard.canActivate(context('DELETE', keyOf('read'), CatchAllController, catchAll))).toBe(
      true,
    );
    expect(
      guard.canActivate(
        context('POST', keyOf('read'), HealthController, HealthController.prototype.check),
      ),
    ).toBe(true);
    expect(guard.canActivate(context('PATCH', { kind: 'missing' }))).toBe(true);
    expect(guard.canActivate(context('PATCH', undefined))).toBe(true);
  });
});
