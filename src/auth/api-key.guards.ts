import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '../common/errors/api-error.js';
import { ApiKeysService } from './api-keys.service.js';
import type { IdentifiedRequest, Identity } from './principal.js';
import { IS_PUBLIC } from './public.decorator.js';

export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) === true;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header ?? '');
  return match?.[1];
}

/** Finds out who is calling, never rejecting: later guards decide what an identity may do. */
@Injectable()
export class ApiKeyIdentifyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    req.identity = await this.identify(req.headers.authorization);
    return true;
  }

  private async identify(header: string | undefined): Promise<Identity> {
    if (header === undefined || header.trim() === '') return { kind: 'missing' };
    const token = bearerToken(header);
    const principal = token === undefined ? undefined : await this.apiKeys.authenticate(token);
    return principal ? { kind: 'key', principal } : { kind: 'invalid' };
  }
}

/** Rejects, with 401, any non-public request without a valid key. */
@Injectable()
export class ApiKeyRequiredGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const identity = context.switchToHttp().getRequest<IdentifiedRequest>().identity;
    if (identity?.kind === 'key') return true;
    if (identity?.kind === 'invalid') {
      throw new UnauthorizedError('The API key is invalid or has been revoked', 'invalid_token');
    }
    throw new UnauthorizedError('An API key is required: send it as "Authorization: Bearer <API_KEY>"');
  }
}
