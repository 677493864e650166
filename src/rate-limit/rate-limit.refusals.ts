import type { ServerResponse } from 'node:http';
import { Injectable, Optional } from '@nestjs/common';
import { ApiError, refusal } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { Clock } from './clock.js';
import {
  rateLimitHeaders,
  rateLimitPolicyHeader,
  retryAfterSeconds,
} from './rate-limit.headers.js';
import type { RateLimitOutcome, WindowSpec } from './rate-limit.policy.js';

export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;
const MAX_BANS_KEPT = 10_000;

export function setLimitHeaders(res: ServerResponse, outcome: RateLimitOutcome): void {
  const limitHeaders = rateLimitHeaders(outcome);
  for (const name in limitHeaders) res.setHeader(name, limitHeaders[name]);
}

/** Bans are remembered so the ban gate refuses the client's next requests before routing. */
@Injectable()
export class RateLimitRefusals {
  private readonly bans = new Map<string, RateLimitOutcome>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  get anyBans(): boolean {
    return this.bans.size > 0;
  }

  refuse(
    res: ServerResponse,
    tracker: string,
    outcome: RateLimitOutcome,
    quota: (blocking: RateLimitOutcome['windows'][number]) => string = (window) =>
      `the ${window.name} quota of ${window.limit} requests`,
  ): ApiError {
    if (outcome.status === 'banned') this.remember(tracker, outcome);
    setLimitHeaders(res, outcome);
    const retryAfter = retryAfterSeconds(outcome);
    const headers = { 'Retry-After': String(retryAfter) };
    if (outcome.status === 'banned') {
      this.metrics?.rateLimitBanObserved(tracker, outcome, this.config.rateLimit.banSeconds * 1000);
      return refusal(
        'api_key_banned',
        `Banned for ${retryAfter} s after too many requests over the rate limit; back off before retrying`,
        headers,
      );
    }
    const blocking = outcome.windows.find(
      (w) => w.used >= w.limit && w.resetAt === outcome.retryAt,
    );
    return refusal(
      'rate_limit_exceeded',
      `Rate limit exceeded: ${blocking === undefined ? 'the quota' : quota(blocking)} is used up; retry in ${retryAfter} s`,
      headers,
    );
  }

  /** A ban never ends early, so the store is not asked. */
  banned(res: ServerResponse, tracker: string): ApiError | undefined {
    const ban = this.bans.get(tracker);
    if (ban === undefined) return undefined;
    const now = this.clock.now();
    if (now >= ban.retryAt) {
      this.bans.delete(tracker);
      return undefined;
    }
    return this.refuse(res, tracker, { ...ban, now });
  }

  private remember(tracker: string, ban: RateLimitOutcome): void {
    this.bans.delete(tracker);
    if (this.bans.size >= MAX_BANS_KEPT) this.bans.delete(this.bans.keys().next().value!);
    this.bans.set(tracker, ban);
  }

  /** The counts are unknown either way, so only the policy is advertised. */
  storeUnavailable(res: ServerResponse, windows: readonly WindowSpec[]): ApiError | undefined {
    this.metrics?.redisError();
    res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(windows));
    if (this.config.rateLimit.failOpen) return undefined;
    return new ApiError(
      'service_unavailable',
      'Rate limiting is temporarily unavailable; retry shortly',
      { 'Retry-After': String(STORE_DOWN_RETRY_AFTER_SECONDS) },
    );
  }
}
