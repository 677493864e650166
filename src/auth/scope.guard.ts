import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '../common/errors/api-error.js';
import { isPublicRoute } from './public.decorator.js';
import { requiredScope, scopeAllows } from './key-scope.js';
import type { IdentifiedRequest } from './principal.js';

const ANY_SCOPE = 'petstore:anyScope';

export const AnyScope = (): MethodDecorator & ClassDecorator => SetMetadata(ANY_SCOPE, true);

// Runs after the limiter, so a refusal is counted and carries the rate-limit headers, and before
// the body is read.
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
