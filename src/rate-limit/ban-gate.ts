import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IdentifiedRequest } from '../auth/principal.js';
import type { RateLimitGuard } from './rate-limit.guard.js';

/** What the exception filter is given for a request answered outside Nest's router. */
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

/**
 * Refuses a client the limiter has banned before Express routes the request: a flood from a
 * banned client then costs the router and the guard chain nothing. The answer is the guard's own
 * refusal, written by the app's exception filter, so it is the one the guards would have given.
 */
export function banGate(guard: RateLimitGuard, filter: ExceptionFilter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const refusal = guard.refuseBanned(req as IdentifiedRequest, res);
    if (refusal === undefined) return next();
    filter.catch(refusal, httpHost(req, res, next));
  };
}
