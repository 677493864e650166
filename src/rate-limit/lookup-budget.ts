import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { minutes } from '@nestjs/throttler';
import type { Request } from 'express';
import { PLAN_QUOTAS } from '../auth/plans.js';
import { AppConfig } from '../config/app-config.js';
import { planWindows } from './plan-windows.js';
import type { WindowSpec } from './rate-limit.policy.js';
import { RateLimitRefusals } from './rate-limit.refusals.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './storage/rate-limit.storage.js';
import { lookupTracker } from './trackers.js';

/** Apart from the IP's anonymous windows, so keyless requests never stop a valid key. */
export const LOOKUP_BUDGET: readonly WindowSpec[] = [
  { name: 'lookups', ttlMs: minutes(1), limit: PLAN_QUOTAS.free.perMinute },
];
const ANONYMOUS_WINDOWS = planWindows(PLAN_QUOTAS.free);

@Injectable()
export class LookupBudget {
  constructor(
    // The throttler's storage itself, not through its options: they depend on ApiKeyGuard.
    private readonly store: RateLimitStorage,
    private readonly config: AppConfig,
    private readonly refusals: RateLimitRefusals,
  ) {}

  async take(req: Request, res: ServerResponse): Promise<void> {
    if (!this.config.rateLimit.enabled) return;
    const tracker = lookupTracker(req);
    let outcome;
    try {
      outcome = await this.store.consume(tracker, LOOKUP_BUDGET);
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      // Fail open: the pool's lookup share still bounds them; the error is counted once, below.
      if (this.config.rateLimit.failOpen) return;
      throw this.refusals.storeUnavailable(res, ANONYMOUS_WINDOWS);
    }
    if (outcome.status === 'allowed') return;
    throw this.refusals.refuse(
      res,
      tracker,
      outcome,
      (window) => `this address's budget of ${window.limit} lookups of unknown API keys a minute`,
    );
  }
}
