import type { ExceptionFilter } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { NextFunction, Request, Response } from 'express';
import type { IdentifiedRequest } from '../auth/principal.js';
import type { RateLimitGuard } from './rate-limit.guard.js';

/**
 * Refuses a client the limiter has banned before Express routes the request: a flood from a
 * banned client then costs the router and the guard chain nothing. The answer is the guard's own
 * refusal, written by the app's exception filter, so it is the one the guards would have given.
 */
export function banGate(guard: RateLimitGuard, filter: ExceptionFilter) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const refusal = guard.refuseBanned(req as IdentifiedRequest, res);
    if (refusal === undefined) return next();
    filter.catch(refusal, new ExecutionContextHost([req, res, next]));
  };
}
