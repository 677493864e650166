import type { ServerResponse } from 'node:http';
import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type * as express from 'express';
import { rateLimitHeaders } from './rate-limit.headers.js';
import { RATE_LIMIT_COST, RateLimitGuard, type MeteredRequest } from './rate-limit.guard.js';
import type { RateLimitOutcome, WindowSpec } from './rate-limit.policy.js';
import { RateLimitStorage } from './storage/rate-limit.storage.js';

export type RateLimitCostFn = (req: express.Request) => number | Promise<number>;

function setLimitHeaders(res: ServerResponse, outcome: RateLimitOutcome): void {
  const headers = rateLimitHeaders(outcome);
  for (const name in headers) res.setHeader(name, headers[name]);
}

/**
 * Counts a request whose cost the limiter deferred (a valid key on a RateLimitCost route), once its
 * body is read: `cost` units or none. It runs after the global guards, the body reader included.
 */
@Injectable()
export class RateLimitCostGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimitGuard,
    @InjectThrottlerStorage() private readonly store: RateLimitStorage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<MeteredRequest & express.Request>();
    const res = context.switchToHttp().getResponse<ServerResponse>();
    const probe = req.rateLimit;
    if (probe === undefined || req.identity?.kind !== 'key') return true;
    const cost = this.reflector.get<RateLimitCostFn>(RATE_LIMIT_COST, context.getHandler());
    const units = Math.max(1, Math.floor(await cost(req)));
    const tracker = `key:${req.identity.principal.keyId}`;
    const windows: WindowSpec[] = probe.windows.map(({ name, ttlMs, limit }) => ({
      name,
      ttlMs,
      limit,
    }));
    // `used >= limit - (units - 1)` refuses exactly when the units do not all fit.
    const fits = await this.store.refuses(
      tracker,
      windows.map((window) => ({ ...window, limit: window.limit - units + 1 })),
    );
    if (fits.status !== 'allowed') {
      this.limiter.refuse(res, tracker, {
        ...fits,
        windows: fits.windows.map((window, i) => ({ ...window, limit: windows[i].limit })),
      });
    }
    let outcome = fits;
    for (let unit = 0; unit < units; unit++) {
      outcome = await this.store.consume(tracker, windows);
      if (outcome.status !== 'allowed') this.limiter.refuse(res, tracker, outcome);
    }
    req.rateLimit = outcome;
    setLimitHeaders(res, outcome);
    return true;
  }
}

/** The route counts `cost(req)` requests against the caller's windows, all or nothing. */
export function RateLimitCost(cost: RateLimitCostFn): MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_COST, cost), UseGuards(RateLimitCostGuard));
}
