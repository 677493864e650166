import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeysService } from './api-keys.service.js';
import type { IdentifiedRequest, Identity } from './principal.js';
import { isAnonymousRoute, isPublicRoute } from './public.decorator.js';

const MISSING: Identity = Object.freeze({ kind: 'missing' });
const INVALID: Identity = Object.freeze({ kind: 'invalid' });
const DUPLICATE: Identity = Object.freeze({ kind: 'duplicate' });

function bearerToken(header: string): string | undefined {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}

// Node keeps the first of several `Authorization` headers; a proxy that keeps the last would see
// another caller than the service does, so the request is refused.
export function sentMoreThanOnce(rawHeaders: readonly string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i];
    if (header.length === name.length && header.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/** Who the request says it is, from its Authorization header alone: never rejects, never waits. */
export function identifyRequest(req: IdentifiedRequest, apiKeys: ApiKeysService): Identity {
  const header = req.headers.authorization;
  if (header === undefined) return MISSING;
  if (sentMoreThanOnce(req.rawHeaders, 'authorization')) return DUPLICATE;
  if (header.trim() === '') return MISSING;
  const token = bearerToken(header);
  return token === undefined ? INVALID : apiKeys.identify(token);
}

// Never rejects and never waits: a key the cache does not know is left unverified, for the
// limiter to look up only while the client may afford it. The ban gate may have identified the
// request already.
@Injectable()
export class ApiKeyIdentifyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    if (isAnonymousRoute(this.reflector, context)) req.identity = MISSING;
    else req.identity ??= identifyRequest(req, this.apiKeys);
    return true;
  }
}
