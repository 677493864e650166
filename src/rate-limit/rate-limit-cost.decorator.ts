import { SetMetadata, type Type } from '@nestjs/common';
import type { Request } from 'express';

export const RATE_LIMIT_COST = 'petstore:rateLimitCost';

export type RateLimitCostFunction = (req: Request) => number | Promise<number>;

export interface RequestCost {
  cost(req: Request): number | Promise<number>;
}

export type RateLimitCostSource = RateLimitCostFunction | Type<RequestCost>;

export function isCostProvider(source: RateLimitCostSource): source is Type<RequestCost> {
  return typeof (source as Type<RequestCost>).prototype?.cost === 'function';
}

// All or nothing: a cost that does not fit every window is refused whole (429) and counts nothing.
export const RateLimitCost = (cost: RateLimitCostSource): MethodDecorator =>
  SetMetadata(RATE_LIMIT_COST, cost);
