import type { ExecutionContext } from '@nestjs/common';
import { days, minutes, type ThrottlerOptions } from '@nestjs/throttler';
import { PLAN_QUOTAS, type Quota } from '../auth/plans.js';
import type { IdentifiedRequest } from '../auth/principal.js';

/** A key's own quota (its plan's, or its overrides); callers without a valid key get the free plan's. */
export function quotaOf(req: IdentifiedRequest): Quota {
  return req.identity?.kind === 'key' ? req.identity.principal.quota : PLAN_QUOTAS.free;
}

const quotaIn = (context: ExecutionContext): Quota =>
  quotaOf(context.switchToHttp().getRequest<IdentifiedRequest>());

// Their names appear in the RateLimit-Policy and RateLimit headers.
export const PLAN_WINDOWS: ThrottlerOptions[] = [
  { name: 'minute', ttl: minutes(1), limit: (context) => quotaIn(context).perMinute },
  { name: 'day', ttl: days(1), limit: (context) => quotaIn(context).perDay },
];
