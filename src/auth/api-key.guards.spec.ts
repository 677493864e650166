import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { isPublicRoute } from './api-key.guards.js';
import { Public } from './public.decorator.js';

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
