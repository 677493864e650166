import { SetMetadata, type Type } from '@nestjs/common';
import type { Request } from 'express';

export const RATE_LIMIT_COST = 'petstore:rateLimitCost';

export type RateLimitCostFunction = (req: Request) => number | Promise<number>;

/** A provider that prices a request, for a cost that needs other services (resolved from the app). */
export interface RequestCost {
  cost(req: Request): number | Promise<number>;
}

export type RateLimitCostSource = RateLimitCostFunction | Type<RequestCost>;

export function isCostProvider(source: RateLimitCostSource): source is Type<RequestCost> {
  return typeof (source as Type<RequestCost>).prototype?.cost === 'function';
}

/**
 * The request counts `cost(req)` units against every window of its caller, all or nothing: one
 * that does not fit is refused whole (429) and counts nothing. A cost below 1 or not an integer
 * counts as 1. It runs in the limiter, before the body is read, and only for a caller the route
 * admits (a valid key of the scope it needs).
 */
export const RateLimitCost = (cost: RateLimitCostSource): MethodDecorator =>
  SetMetadata(RATE_LIMIT_COST, cost);
