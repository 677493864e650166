import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { ApiKeyGuard } from '../auth/api-key.guard.js';
import type { IdentifiedRequest } from '../auth/principal.js';
import type { AppConfig } from '../config/app-config.js';
import type { RateLimitRefusals } from './rate-limit.refusals.js';
import { ipTracker, keyTracker, lookupTracker } from './trackers.js';

/** The one /v1 operation that answers a banned key (case-insensitive, as Express routes). */
const ANSWERS_WHILE_BANNED = /^\/v1\/rate_limit(?:[/?]|$)/i;
const API_PATH = /^\/v1\//i;

function httpHost(req: Request, res: Response, next: NextFunction): ArgumentsHost {
  const args = [req, res, next];
  const http = { getRequest: () => req, getResponse: () => res, getNext: () => next };
  const notHttp = (): never => {
    throw new Error('the ban gate answers HTTP requests only');
  };
  return {
    getArgs: () => args,
    getArgByIndex: (index: number) => args[index],
    switchToHttp: () => http,
    switchToRpc: notHttp,
    switchToWs: notHttp,
    getType: () => 'http',
  } as ArgumentsHost;
}

// Before routing, so a banned flood costs the router and guards nothing (docs/performance.md).
export function banGate(
  auth: ApiKeyGuard,
  refusals: RateLimitRefusals,
  config: AppConfig,
  filter: ExceptionFilter,
) {
  const trackerOf = (req: Request): string | undefined => {
    const identity = auth.identify(req as IdentifiedRequest);
    if (identity.kind === 'key')
      return ANSWERS_WHILE_BANNED.test(req.url) ? undefined : keyTracker(identity.principal.keyId);
    if (identity.kind === 'unverified') return identity.knownValid ? undefined : lookupTracker(req);
    return ipTracker(req);
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!refusals.anyBans || !config.rateLimit.enabled || !API_PATH.test(req.url)) return next();
    const tracker = trackerOf(req);
    const refusal = tracker === undefined ? undefined : refusals.banned(res, tracker);
    if (refusal === undefined) return next();
    filter.catch(refusal, httpHost(req, res, next));
  };
}
