import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { refusal, type ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { ApiKeysService } from './api-keys.service.js';
import type { IdentifiedRequest, Identity } from './principal.js';
import { isAnonymousRoute, isPublicRoute } from './public.decorator.js';
import { SEND_KEY_HINT, unauthorizedReason } from './unauthorized-message.js';

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
    if (isPublicRoute(this.reflector, context) || isAnonymousRoute(this.reflector, context))
      return true;
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
