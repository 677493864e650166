import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, minutes } from '@nestjs/throttler';
import type { Principal } from '../auth/principal.js';
import { ApiError, refusal } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { RateLimitStatus } from './dto/rate-limit-status.dto.js';
import { planWindows } from './plan-windows.js';
import { retryAfterSeconds, windowViews } from './rate-limit.headers.js';
import type { Charge, RateLimitOutcome, WindowSpec } from './rate-limit.policy.js';
import {
  RateLimitRefusals,
  setLimitHeaders,
  STORE_DOWN_RETRY_AFTER_SECONDS,
} from './rate-limit.refusals.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './storage/rate-limit.storage.js';
import { keyTracker } from './trackers.js';

/** Contract: refused past it, never banned for it. */
export const STATUS_BUDGET: readonly WindowSpec[] = [
  { name: 'status', ttlMs: minutes(1), limit: 60 },
];
const UNBANNED: Charge = Object.freeze({ cost: 1, bans: false });

const unixSeconds = (ms: number): number => Math.ceil(ms / 1000);

export function rateLimitStatus(
  plan: Principal['plan'],
  outcome: RateLimitOutcome,
): RateLimitStatus {
  return {
    plan,
    windows: windowViews(outcome).map((view) => ({
      name: view.name,
      limit: view.limit,
      remaining: view.remaining,
      reset: unixSeconds(view.resetAt),
    })),
    bannedUntil: outcome.status === 'banned' ? unixSeconds(outcome.retryAt) : null,
  };
}

@Injectable()
export class RateLimitStatusService {
  constructor(
    @InjectThrottlerStorage() private readonly store: RateLimitStorage,
    private readonly config: AppConfig,
    private readonly refusals: RateLimitRefusals,
  ) {}

  async getRateLimit(principal: Principal, res: ServerResponse): Promise<RateLimitStatus> {
    const tracker = keyTracker(principal.keyId);
    const windows = planWindows(principal.quota);
    // With limiting off nothing is counted or limited: the (never counted) store is read.
    if (!this.config.rateLimit.enabled) {
      res.setHeader('Cache-Control', 'no-store');
      return rateLimitStatus(principal.plan, await this.store.peek(tracker, windows));
    }
    let budget: RateLimitOutcome;
    let standing: RateLimitOutcome;
    try {
      [budget, standing] = await Promise.all([
        this.store.consume(`${tracker}#status`, STATUS_BUDGET, UNBANNED),
        this.store.peek(tracker, windows),
      ]);
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      // The status has nothing true to say without the store, open or closed.
      this.refusals.storeUnavailable(res, windows);
      throw new ApiError('service_unavailable', 'Rate-limit state is temporarily unavailable', {
        'Retry-After': String(STORE_DOWN_RETRY_AFTER_SECONDS),
      });
    }
    setLimitHeaders(res, standing);
    if (budget.status !== 'allowed') {
      const retryAfter = retryAfterSeconds(budget);
      throw refusal(
        'rate_limit_exceeded',
        `Rate limit exceeded: the rate-limit status may be read ${STATUS_BUDGET[0].limit} times a minute; retry in ${retryAfter} s`,
        { 'Retry-After': String(retryAfter) },
      );
    }
    // On the answer only, not by @Header(): a refusal carries the headers the document gives it.
    res.setHeader('Cache-Control', 'no-store');
    return rateLimitStatus(principal.plan, standing);
  }
}
