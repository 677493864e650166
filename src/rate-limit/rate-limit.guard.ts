import type { ServerResponse } from 'node:http';
import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type Resolvable,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import { identifyRequest } from '../auth/api-key-identify.guard.js';
import { isPublicRoute } from '../auth/public.decorator.js';
import type { IdentifiedRequest } from '../auth/principal.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import type { Quota } from '../auth/plans.js';
import { clientAddress, ipv6Prefix64 } from '../common/client-address.js';
import { ApiError, refusal } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { Clock } from './clock.js';
import { MetricsService } from '../metrics/metrics.service.js';
import {
  rateLimitHeaders,
  rateLimitPolicyHeader,
  retryAfterSeconds,
} from './rate-limit.headers.js';
import { PLAN_WINDOWS, quotaOf } from './plan-windows.js';
import type { RateLimitOutcome, WindowSpec } from './rate-limit.policy.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './storage/rate-limit.storage.js';
import { IS_UNCOUNTED } from './uncounted.decorator.js';

export type MeteredRequest = IdentifiedRequest & { rateLimit?: RateLimitOutcome };
/** Routes whose cost depends on the body (RateLimitCost): a valid key is counted once it is read. */
export const RATE_LIMIT_COST = 'petstore:rateLimitCost';
export const RATE_LIMIT_REQUEST_FIELDS: readonly PropertyKey[] = ['rateLimit'];

const uncountedRoutes = new WeakMap<object, boolean>();

/** How long a client is told to wait when the store is down and the limiter fails closed. */
export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;

/** Bans remembered for refusing before routing; beyond this, the oldest is forgotten (and asked for again). */
const MAX_BANS_KEPT = 10_000;
/** The one /v1 operation that answers a banned key (uncounted; case-insensitive, as Express routes). */
const ANSWERS_WHILE_BANNED = /^\/v1\/rate_limit(?:[/?]|$)/i;

function setLimitHeaders(res: ServerResponse, outcome: RateLimitOutcome): void {
  const limitHeaders = rateLimitHeaders(outcome);
  for (const name in limitHeaders) res.setHeader(name, limitHeaders[name]);
}

function resolve(value: Resolvable<number>, context: ExecutionContext): number | Promise<number> {
  return typeof value === 'function' ? value(context) : value;
}

// @nestjs/throttler's guard with the contract's behaviour where its defaults differ: one counter
// per caller, every window in one storage call, unsuffixed X-RateLimit-* headers with Reset as a
// Unix time, also on 429s. Expects the identify guard to have run first.
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: RateLimitStorage,
    reflector: Reflector,
    private readonly config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    super(options, store, reflector);
    const throttlers = Array.isArray(options) ? options : options.throttlers;
    this.throttlersArePlans = throttlers === PLAN_WINDOWS;
  }

  /** With the plan windows, a request's windows follow from its quota alone: resolved once per quota. */
  private readonly throttlersArePlans: boolean;
  private readonly planWindows = new WeakMap<Quota, WindowSpec[]>();
  /** The bans this instance has met, by tracker, with the outcome that announced each. */
  private readonly bans = new Map<string, RateLimitOutcome>();

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    // Every step that can answer synchronously does: a request waits for nothing it need not.
    if (this.skips(context)) return true;
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const res = context.switchToHttp().getResponse<ServerResponse>();
    try {
      let identity = req.identity;
      if (identity?.kind === 'unverified') {
        // A key the cache does not know costs a database lookup, and unknown keys count against
        // their IP: a client whose IP is refused anyway gets that refusal without the lookup.
        if (!identity.knownValid) {
          const tracker = this.ipTracker(req);
          const probe = this.store.refuses(tracker, await this.windows(context));
          const outcome = probe instanceof Promise ? await probe : probe;
          if (outcome.status !== 'allowed') this.refuse(res, tracker, outcome);
        }
        identity = req.identity = await this.apiKeys.verify(identity.hash);
      }
      const resolved = this.windows(context);
      const windows = Array.isArray(resolved) ? resolved : await resolved;
      const tracker =
        identity?.kind === 'key' ? `key:${identity.principal.keyId}` : this.ipTracker(req);
      // Only a valid key goes uncounted: anything else is refused with 401 and counts against its
      // IP, or unknown keys could be tried here without limit.
      if (identity?.kind === 'key' && this.isUncounted(context))
        return await this.report(req, res, tracker, windows);
      const deferred =
        identity?.kind === 'key' &&
        this.reflector.get<unknown>(RATE_LIMIT_COST, context.getHandler()) !== undefined;
      const counted = deferred
        ? this.store.refuses(tracker, windows)
        : this.store.consume(tracker, windows);
      const outcome = counted instanceof Promise ? await counted : counted;
      if (outcome.status !== 'allowed') this.refuse(res, tracker, outcome);
      setLimitHeaders(res, outcome);
      if (deferred) (req as MeteredRequest).rateLimit = outcome;
      return true;
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      this.metrics?.redisError();
      return this.storeUnavailable(res, await this.windows(context));
    }
  }

  refuse(res: ServerResponse, tracker: string, outcome: RateLimitOutcome): never {
    if (outcome.status === 'banned') this.remember(tracker, outcome);
    throw this.refusal(res, tracker, outcome);
  }

  private remember(tracker: string, ban: RateLimitOutcome): void {
    this.bans.delete(tracker);
    if (this.bans.size >= MAX_BANS_KEPT) this.bans.delete(this.bans.keys().next().value!);
    this.bans.set(tracker, ban);
  }

  /**
   * The refusal of a client this instance saw banned, decided before routing (the ban gate in
   * configure-app), far cheaper than the same refusal through the router and guards
   * (docs/performance.md). A ban never ends early, so it holds until its time without asking the
   * store. Undefined for anything else, which the guards then decide as always.
   */
  refuseBanned(req: IdentifiedRequest, res: ServerResponse): ApiError | undefined {
    if (this.bans.size === 0 || !this.config.rateLimit.enabled || !req.url.startsWith('/v1/'))
      return undefined;
    const identity = (req.identity ??= identifyRequest(req, this.apiKeys));
    let tracker: string;
    if (identity.kind === 'key') {
      if (ANSWERS_WHILE_BANNED.test(req.url)) return undefined;
      tracker = `key:${identity.principal.keyId}`;
    } else if (identity.kind === 'unverified' && identity.knownValid) {
      // Valid at its last lookup: the lookup decides whose standing applies.
      return undefined;
    } else tracker = this.ipTracker(req);
    const ban = this.bans.get(tracker);
    if (ban === undefined) return undefined;
    const now = this.clock.now();
    if (now >= ban.retryAt) {
      this.bans.delete(tracker);
      return undefined;
    }
    return this.refusal(res, tracker, { ...ban, now });
  }

  private refusal(res: ServerResponse, tracker: string, outcome: RateLimitOutcome): ApiError {
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
    const quota = blocking
      ? `the ${blocking.name} quota of ${blocking.limit} requests`
      : 'the quota';
    return refusal(
      'rate_limit_exceeded',
      `Rate limit exceeded: ${quota} is used up; retry in ${retryAfter} s`,
      headers,
    );
  }

  private isUncounted(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let uncounted = uncountedRoutes.get(handler);
    if (uncounted === undefined) {
      uncounted = this.reflector.get<boolean>(IS_UNCOUNTED, handler) === true;
      uncountedRoutes.set(handler, uncounted);
    }
    return uncounted;
  }

  private async report(
    req: MeteredRequest,
    res: ServerResponse,
    tracker: string,
    windows: WindowSpec[],
  ): Promise<boolean> {
    try {
      req.rateLimit = await this.store.peek(tracker, windows);
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      this.metrics?.redisError();
      res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(windows));
      throw new ApiError('service_unavailable', 'Rate-limit state is temporarily unavailable', {
        'Retry-After': String(STORE_DOWN_RETRY_AFTER_SECONDS),
      });
    }
    const limitHeaders = rateLimitHeaders(req.rateLimit);
    for (const name in limitHeaders) res.setHeader(name, limitHeaders[name]);
    return true;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.skips(context);
  }

  /** Off entirely when disabled; never for health (and docs, which are served outside Nest's router). */
  private skips(context: ExecutionContext): boolean {
    return (
      !this.config.rateLimit.enabled ||
      context.getType() !== 'http' ||
      isPublicRoute(this.reflector, context)
    );
  }

  // Callers without a valid key, by client address (IPv6 per /64): always a valid IP
  // (clientAddress), so a tracker never carries client text.
  protected override getTracker(req: IdentifiedRequest): Promise<string> {
    return Promise.resolve(this.ipTracker(req));
  }

  private ipTracker(req: IdentifiedRequest): string {
    const address = clientAddress(req);
    return address.includes(':') ? `ip:${ipv6Prefix64(address)}` : `ip:${address}`;
  }

  /** Our plans resolve their limits synchronously; a throttler option that returns a promise is awaited. */
  private windows(context: ExecutionContext): WindowSpec[] | Promise<WindowSpec[]> {
    const req = context.switchToHttp().getRequest<IdentifiedRequest>();
    const quota = quotaOf(req);
    const known = this.planWindows.get(quota);
    if (known !== undefined) return known;
    const resolved = this.resolveWindows(context);
    if (Array.isArray(resolved) && this.throttlersArePlans) this.planWindows.set(quota, resolved);
    return resolved;
  }

  private resolveWindows(context: ExecutionContext): WindowSpec[] | Promise<WindowSpec[]> {
    let pending = false;
    const windows = this.throttlers.map((throttler) => {
      const ttlMs = resolve(throttler.ttl, context);
      const limit = resolve(throttler.limit, context);
      pending ||= typeof ttlMs !== 'number' || typeof limit !== 'number';
      return { name: throttler.name ?? 'default', ttlMs, limit };
    });
    if (!pending) return windows as WindowSpec[];
    return Promise.all(
      windows.map(async ({ name, ttlMs, limit }) => ({
        name,
        ttlMs: await ttlMs,
        limit: await limit,
      })),
    );
  }

  // RATE_LIMIT_FAIL_OPEN serves uncounted or refuses with 503; either way the counts are unknown,
  // so only the policy is advertised.
  private storeUnavailable(res: ServerResponse, windows: WindowSpec[]): boolean {
    res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(windows));
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
