import type { ServerResponse } from 'node:http';
import {
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, ForbiddenError, refusal } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { LookupBudget } from '../rate-limit/lookup-budget.js';
import { ApiKeysService } from './api-keys.service.js';
import { requiredScope, scopeAllows } from './key-scope.js';
import type { Caller, IdentifiedRequest, Identity, Principal } from './principal.js';
import { isAnonymousRoute, isPublicRoute } from './public.decorator.js';
import { SEND_KEY_HINT, unauthorizedReason } from './unauthorized-message.js';

const MISSING: Identity = Object.freeze({ kind: 'missing' });
const INVALID: Identity = Object.freeze({ kind: 'invalid' });
const DUPLICATE: Identity = Object.freeze({ kind: 'duplicate' });

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
const ANONYMOUS: Caller = Object.freeze({ principal: undefined, refusal: undefined });

const ANY_SCOPE = 'petstore:anyScope';

export const AnyScope = (): MethodDecorator & ClassDecorator => SetMetadata(ANY_SCOPE, true);

function bearerToken(header: string): string | undefined {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}

// Node keeps the first Authorization header; a proxy keeping the last would see another caller.
export function sentMoreThanOnce(rawHeaders: readonly string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i];
    if (header.length === name.length && header.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

// The limiter runs first (the contract counts a request before refusing it) and shares the lookup.
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly callers = new WeakMap<object, Caller | Promise<Caller>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly config: AppConfig,
    private readonly lookups: LookupBudget,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http' || isPublicRoute(this.reflector, context)) return true;
    const caller = this.callerOf(context);
    return caller instanceof Promise ? caller.then(admit) : admit(caller);
  }

  callerOf(context: ExecutionContext): Caller | Promise<Caller> {
    const http = context.switchToHttp();
    const req = http.getRequest<IdentifiedRequest>();
    let caller = this.callers.get(req);
    if (caller !== undefined) return caller;
    const identity = isAnonymousRoute(this.reflector, context) ? MISSING : this.identify(req);
    caller =
      identity.kind === 'unverified'
        ? this.verify(req, http.getResponse<ServerResponse>(), identity).then((verified) =>
            this.decide(context, req, verified),
          )
        : this.decide(context, req, identity);
    this.callers.set(req, caller);
    return caller;
  }

  identify(req: IdentifiedRequest): Identity {
    const header = req.headers.authorization;
    if (header === undefined) return MISSING;
    if (sentMoreThanOnce(req.rawHeaders, 'authorization')) return DUPLICATE;
    if (header.trim() === '') return MISSING;
    const token = bearerToken(header);
    return token === undefined ? INVALID : this.apiKeys.identify(token);
  }

  // The budget is taken by the request starting the lookup: concurrent ones with one key take one.
  private async verify(
    req: IdentifiedRequest,
    res: ServerResponse,
    identity: Extract<Identity, { kind: 'unverified' }>,
  ): Promise<Identity> {
    if (identity.knownValid) return this.apiKeys.verify(identity.hash);
    let admitted = false;
    try {
      return await this.apiKeys.verify(identity.hash, () => {
        admitted = true;
        return this.lookups.take(req, res);
      });
    } catch (err) {
      // It joined a lookup whose own client had no budget left: its own budget decides.
      if (admitted || !(err instanceof ApiError)) throw err;
      await this.lookups.take(req, res);
      return this.apiKeys.verify(identity.hash);
    }
  }

  private decide(context: ExecutionContext, req: IdentifiedRequest, identity: Identity): Caller {
    if (identity.kind === 'key') {
      req.principal = identity.principal;
      return {
        principal: identity.principal,
        refusal: this.scopeRefusal(context, req, identity.principal),
      };
    }
    if (identity.kind === 'missing' && isAnonymousRoute(this.reflector, context)) return ANONYMOUS;
    if (identity.kind === 'duplicate')
      return { principal: undefined, refusal: AUTHORIZATION_REPEATED };
    return { principal: undefined, refusal: this.unauthorized(req.headers.authorization) };
  }

  private scopeRefusal(
    context: ExecutionContext,
    req: IdentifiedRequest,
    principal: Principal,
  ): ApiError | undefined {
    const needed = requiredScope(req.method);
    if (
      scopeAllows(principal.scope, needed) ||
      this.reflector.getAllAndOverride<boolean>(ANY_SCOPE, [
        context.getHandler(),
        context.getClass(),
      ])
    )
      return undefined;
    return new ForbiddenError(
      `This API key has the ${principal.scope} scope, which allows only GET requests; ${req.method} needs a key with the ${needed} scope`,
    );
  }

  private unauthorized(header: string | undefined): ApiError {
    const reason = unauthorizedReason(header, this.config.env);
    if (reason.message === KEY_INVALID.message) return KEY_INVALID;
    if (reason.message === KEY_REQUIRED.message) return KEY_REQUIRED;
    return refusal('unauthorized', reason.message, reason.bearerError ? BEARER_INVALID : BEARER);
  }
}

function admit(caller: Caller): true {
  if (caller.refusal !== undefined) throw caller.refusal;
  return true;
}

export const ApiPrincipal = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const principal = context.switchToHttp().getRequest<IdentifiedRequest>().principal;
  if (principal === undefined) throw new Error('ApiPrincipal read on a route without a key');
  return principal;
});
