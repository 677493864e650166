import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export const RATE_LIMIT_COST = 'petstore:rateLimitCost';

export type RateLimitCostFunction = (req: Request) => number | Promise<number>;

/**
 * The request counts `cost(req)` units against every window of its caller, all or nothing: one
 * that does not fit is refused whole (429) and counts nothing. A cost below 1 or not an integer
 * counts as 1. It runs in the limiter, before the body is read.
 */
export const RateLimitCost = (cost: (req: Request) => number | Promise<number>): MethodDecorator =>
  SetMetadata(RATE_LIMIT_COST, cost);
