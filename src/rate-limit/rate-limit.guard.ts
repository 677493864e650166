import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type Resolvable,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import { isPublicRoute } from '../auth/api-key.guards.js';
import type { IdentifiedRequest } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import {
  rateLimitHeaders,
  rateLimitPolicyHeader,
  retryAfterSeconds,
} from './rate-limit.headers.js';
import type { RateLimitOutcome, WindowSpec } from './rate-limit.policy.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './storage/rate-limit.storage.js';

/** How long a client is told to wait when the store is down and the limiter fails closed. */
export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;

async function resolve(value: Resolvable<number>, context: ExecutionContext): Promise<number> {
  return typeof value === 'function' ? value(context) : value;
}

/**
 * @nestjs/throttler's guard, kept for its options, storage and tracker plumbing, with the
 * contract's behaviour where its defaults differ: one counter per caller rather than per route,
 * every window decided in one storage call, unsuffixed X-RateLimit-* headers with Reset as a
 * Unix time, and the headers on 429s too. Expects the identify guard to have run first.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: RateLimitStorage,
    reflector: Reflector,
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    super(options, store, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (await this.shouldSkip(context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const res = context.switchToHttp().getResponse<Record<string, unknown>>();
    const windows = await this.windows(context);
    const tracker = await this.getTracker(req);
    let outcome: RateLimitOutcome;
    try {
      outcome = await this.store.consume(tracker, windows);
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      this.metrics?.redisError();
      return this.storeUnavailable(res, windows);
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(outcome)))
      this.setResponseHeader(res, name, value);
    if (outcome.status === 'allowed') return true;

    const retryAfter = retryAfterSeconds(outcome);
    const headers = { 'Retry-After': String(retryAfter) };
    if (outcome.status === 'banned') {
      this.metrics?.rateLimitBanObserved(tracker, outcome, this.config.rateLimit.banSeconds * 1000);
      throw new ApiError(
        'api_key_banned',
        `Banned for ${retryAfter} s after too many requests over the rate limit; back off before retrying`,
        headers,
      );
    }
    const blocking = outcome.windows.find(
      (w) => w.used >= w.limit && w.resetAt === outcome.retryAt,
    );
    const quota = blocking
      ? `the ${blocking.name} quota of ${blocking.limit} requests`
      : 'the quota';
    throw new ApiError(
      'rate_limit_exceeded',
      `Rate limit exceeded: ${quota} is used up; retry in ${retryAfter} s`,
      headers,
    );
  }

  /** Off entirely when disabled; never for health (and docs, which are served outside Nest's router). */
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return (
      !this.config.rateLimit.enabled ||
      context.getType() !== 'http' ||
      isPublicRoute(this.reflector, context)
    );
  }

  /** A valid key is counted by key id, whatever its address; anyone else by client IP (IPv6 per /64). */
  protected override async getTracker(req: IdentifiedRequest): Promise<string> {
    const identity = req.identity;
    if (identity?.kind === 'key') return `key:${identity.principal.keyId}`;
    return `ip:${await super.getTracker(req)}`;
  }

  private windows(context: ExecutionContext): Promise<WindowSpec[]> {
    return Promise.all(
      this.throttlers.map(async (throttler) => ({
        name: throttler.name ?? 'default',
        ttlMs: await resolve(throttler.ttl, context),
        limit: await resolve(throttler.limit, context),
      })),
    );
  }

  /**
   * RATE_LIMIT_FAIL_OPEN decides: serve without counting, or refuse with 503 so the limits hold.
   * Either way the counts are unknown, so only the policy is advertised.
   */
  private storeUnavailable(res: Record<string, unknown>, windows: WindowSpec[]): boolean {
    this.setResponseHeader(res, 'RateLimit-Policy', rateLimitPolicyHeader(windows));
    if (this.config.rateLimit.failOpen) return true;
    throw new ApiError(
      'service_unavailable',
      'Rate limiting is temporarily unavailable; retry shortly',
      {
        'Retry-After': String(STORE_DOWN_RETRY_AFTER_SECONDS),
      },
    );
  }
}
