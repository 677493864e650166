import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { ApiKeysService } from './api-keys.service.js';
import type { IdentifiedRequest, Identity, Principal } from './principal.js';
import { IS_PUBLIC } from './public.decorator.js';
import { unauthorizedReason } from './unauthorized-message.js';

/**
 * Routes are fixed once the app runs: each route's answer is looked up once, not by three guards
 * per request. By class and handler, as the metadata is: a handler inherited by two controllers
 * may be public in one only.
 */
const publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  const controller = context.getClass();
  const handler = context.getHandler();
  let handlers = publicRoutes.get(controller);
  if (handlers === undefined) publicRoutes.set(controller, (handlers = new WeakMap()));
  let isPublic = handlers.get(handler);
  if (isPublic === undefined) {
    isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) === true;
    handlers.set(handler, isPublic);
  }
  return isPublic;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header ?? '');
  return match?.[1];
}

function identityOf(principal: Principal | undefined): Identity {
  return principal ? { kind: 'key', principal } : { kind: 'invalid' };
}

/** Finds out who is calling, never rejecting: later guards decide what an identity may do. */
@Injectable()
export class ApiKeyIdentifyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    // Synchronous for a cached key, so the common request waits no turn here.
    const identity = this.identify(req.headers.authorization);
    if (!(identity instanceof Promise)) {
      req.identity = identity;
      return true;
    }
    return identity.then((found) => {
      req.identity = found;
      return true;
    });
  }

  private identify(header: string | undefined): Identity | Promise<Identity> {
    if (header === undefined || header.trim() === '') return { kind: 'missing' };
    const token = bearerToken(header);
    if (token === undefined) return { kind: 'invalid' };
    const principal = this.apiKeys.authenticate(token);
    return principal instanceof Promise ? principal.then(identityOf) : identityOf(principal);
  }
}

/** Rejects, with 401, any non-public request without a valid key. */
@Injectable()
export class ApiKeyRequiredGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    if (req.identity?.kind === 'key') return true;
    const reason = unauthorizedReason(req.headers.authorization, this.config.env);
    throw new UnauthorizedError(reason.message, reason.bearerError);
  }
}
