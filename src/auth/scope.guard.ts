import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '../common/errors/api-error.js';
import { isPublicRoute } from './api-key.guards.js';
import { requiredScope, scopeAllows } from './key-scope.js';
import type { IdentifiedRequest } from './principal.js';

const ANY_SCOPE = 'petstore:anyScope';

/** Marks a route every valid key may reach, whatever its scope and the method. */
export const AnyScope = (): MethodDecorator & ClassDecorator => SetMetadata(ANY_SCOPE, true);

/**
 * Refuses, with 403, a key whose scope does not cover the request's method. Runs after the
 * limiter, so a refused request is counted and carries the rate-limit headers like any other,
 * and before the body is read, so nothing is parsed or changed.
 */
@Injectable()
export class KeyScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const identity = req.identity;
    if (identity?.kind !== 'key') return true;
    const needed = requiredScope(req.method);
    const { scope } = identity.principal;
    if (scopeAllows(scope, needed)) return true;
    if (
      this.reflector.getAllAndOverride<boolean>(ANY_SCOPE, [
        context.getHandler(),
        context.getClass(),
      ])
    ) {
      return true;
    }
    throw new ForbiddenError(
      `This API key has the ${scope} scope, which allows only GET requests; ${req.method} needs a key with the ${needed} scope`,
    );
  }
}
