import { loadConfig } from '../config/app-config.js';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import type { ApiKeysService } from './api-keys.service.js';
import { ApiKeyIdentifyGuard, sentMoreThanOnce } from './api-key-identify.guard.js';
import { ApiKeyRequiredGuard } from './api-key-required.guard.js';
import type { Identity } from './principal.js';
import { isPublicRoute, Public } from './public.decorator.js';

class BaseController {
  list(): void {}
}

@Public()
class OpenController extends BaseController {}

class ClosedController extends BaseController {
  @Public()
  health(): void {}
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
  it('should find a header repeated in any case, and only then', () => {
    expect(
      sentMoreThanOnce(['Host', 'x', 'Authorization', 'a', 'authorization', 'b'], 'authorization'),
    ).toBe(true);
    expect(sentMoreThanOnce(['AUTHORIZATION', 'a', 'Accept', '*/*'], 'authorization')).toBe(false);
    expect(sentMoreThanOnce(['X-Authorization', 'a', 'Authorization', 'b'], 'authorization')).toBe(
      false,
    );
  });
});

describe('key guards', () => {
  const http = (req: object) =>
    ({
      getClass: () => ClosedController,
      getHandler: () => BaseController.prototype.list,
      switchToHttp: () => ({ getRequest: () => req }),
    }) as unknown as ExecutionContext;
  const apiKeys = {
    identify: (token: string): Identity => ({
      kind: 'unverified',
      hash: `h(${token})`,
      knownValid: false,
    }),
    verify: () => Promise.resolve({ kind: 'invalid' } as Identity),
  } as unknown as ApiKeysService;

  it('should leave an uncached key unverified, never waiting on the database', () => {
    const req: { headers: object; rawHeaders: string[]; identity?: Identity } = {
      headers: { authorization: 'Bearer pk_test_x' },
      rawHeaders: ['Authorization', 'Bearer pk_test_x'],
    };
    expect(new ApiKeyIdentifyGuard(new Reflector(), apiKeys).canActivate(http(req))).toBe(true);
    expect(req.identity).toEqual({ kind: 'unverified', hash: 'h(pk_test_x)', knownValid: false });
  });

  it('should refuse with pre-built errors that carry no stack', async () => {
    const guard = new ApiKeyRequiredGuard(new Reflector(), apiKeys, loadConfig({}));
    const refusals: unknown[] = [];
    for (const identity of [{ kind: 'missing' }, { kind: 'invalid' }, { kind: 'duplicate' }]) {
      try {
        guard.canActivate(http({ identity, headers: {} }));
      } catch (err) {
        refusals.push(err);
      }
    }
    expect(refusals.map((err) => (err as { code: string }).code)).toEqual([
      'unauthorized',
      'unauthorized',
      'validation_failed',
    ]);
    for (const err of refusals) expect((err as Error).stack).toBeUndefined();
    await expect(
      guard.canActivate(
        http({ headers: {}, identity: { kind: 'unverified', hash: 'h', knownValid: false } }),
      ),
    ).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
