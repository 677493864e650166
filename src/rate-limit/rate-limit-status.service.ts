import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { days, minutes } from '@nestjs/throttler';
import type { Principal } from '../auth/principal.js';
import { RateLimitStatus } from './dto/rate-limit-status.dto.js';
import { windowViews } from './rate-limit.headers.js';
import type { RateLimitOutcome } from './rate-limit.policy.js';
import { RateLimitStorage } from './storage/rate-limit.storage.js';

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
  constructor(@InjectThrottlerStorage() private readonly store: RateLimitStorage) {}

  // With limiting off nothing was read, so the (never counted) store is asked directly.
  async getRateLimit(principal: Principal, read?: RateLimitOutcome): Promise<RateLimitStatus> {
    const outcome =
      read ??
      (await this.store.peek(`key:${principal.keyId}`, [
        { name: 'minute', ttlMs: minutes(1), limit: principal.quota.perMinute },
        { name: 'day', ttlMs: days(1), limit: principal.quota.perDay },
      ]));
    return rateLimitStatus(principal.plan, outcome);
  }
}
