import type { ExecutionContext } from '@nestjs/common';
import { days, minutes, type ThrottlerOptions } from '@nestjs/throttler';
import { PLAN_QUOTAS, type Quota } from '../auth/plans.js';
import type { Caller } from '../auth/principal.js';
import type { WindowSpec } from './rate-limit.policy.js';

export const PLAN_THROTTLER = 'minute';
export const DAY_WINDOW = 'day';

export function quotaOf(caller: Caller): Quota {
  return caller.principal?.quota ?? PLAN_QUOTAS.free;
}

export function planWindows(quota: Quota): WindowSpec[] {
  return [
    { name: PLAN_THROTTLER, ttlMs: minutes(1), limit: quota.perMinute },
    { name: DAY_WINDOW, ttlMs: days(1), limit: quota.perDay },
  ];
}

/** Its minute through the throttler's options, so @Throttle() can change it for a route. */
export function planThrottler(
  callerOf: (context: ExecutionContext) => Caller | Promise<Caller>,
): ThrottlerOptions {
  return {
    name: PLAN_THROTTLER,
    ttl: minutes(1),
    limit: (context) => {
      const caller = callerOf(context);
      return caller instanceof Promise
        ? caller.then((known) => quotaOf(known).perMinute)
        : quotaOf(caller).perMinute;
    },
  };
}
