import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { refusal, type ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { ApiKeysService } from './api-keys.service.js';
import type { IdentifiedRequest, Identity } from './principal.js';
import { IS_PUBLIC } from './public.decorator.js';
import { SEND_KEY_HINT, unauthorizedReason } from './unauthorized-message.js';

// Looked up once per route, by class and handler as the metadata is: a handler inherited by two
// controllers may be public in one only.
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

// Never rejects and never waits: a key the cache does not know is left unverified, for the
// limiter to look up only while the client may afford it.
@Injectable()
export class ApiKeyIdentifyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    req.identity = this.identify(req);
    return true;
  }

  private identify(req: IdentifiedRequest): Identity {
    const header = req.headers.authorization;
    if (header === undefined) return MISSING;
    if (sentMoreThanOnce(req.rawHeaders, 'authorization')) return DUPLICATE;
    if (header.trim() === '') return MISSING;
    const token = bearerToken(header);
    return token === undefined ? INVALID : this.apiKeys.identify(token);
  }
}

const BEARER = { 'WWW-Authenticate': 'Bearer realm="petstore"' };
const BEARER_INVALID = { 'WWW-Authenticate': 'Bearer realm="petstore", error="invalid_token"' };
// Built once: refusals are what floods are made of.
const KEY_REQUIRED = refusal('unauthorized', `An API key is required: ${SEND_KEY_HINT}`, BEARER);
const KEY_INVALID = refusal(
  'unauthorized',
  'The API key is invalid or has been revoked',
  BEARER_INVALID,
);
const AUTHORIZATION_REPEATED = refusal(
  'validation_failed',
  'Authorization must be sent once; this request carries it more than once',
);

/** A key still unverified here (the limiter is off) is looked up now. */
@Injectable()
export class ApiKeyRequiredGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const identity = req.identity;
    if (identity?.kind !== 'unverified') return this.admit(identity, req);
    return this.apiKeys.verify(identity.hash).then((verified) => {
      req.identity = verified;
      return this.admit(verified, req);
    });
  }

  private admit(identity: Identity | undefined, req?: IdentifiedRequest): boolean {
    if (identity?.kind === 'key') return true;
    if (identity?.kind === 'duplicate') throw AUTHORIZATION_REPEATED;
    if (identity?.kind === 'invalid' || identity?.kind === 'missing')
      throw this.refusalFor(req?.headers.authorization);
    throw KEY_REQUIRED;
  }

  private refusalFor(header: string | undefined): ApiError {
    const reason = unauthorizedReason(header, this.config.env);
    if (reason.message === KEY_INVALID.message) return KEY_INVALID;
    if (reason.message === KEY_REQUIRED.message) return KEY_REQUIRED;
    return refusal('unauthorized', reason.message, reason.bearerError ? BEARER_INVALID : BEARER);
  }
}
