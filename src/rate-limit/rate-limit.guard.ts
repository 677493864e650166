import type { ServerResponse } from 'node:http';
import { ExecutionContext, Injectable, Optional } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  minutes,
  SkipThrottle,
  ThrottlerGuard,
  type Resolvable,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import { identifyRequest } from '../auth/api-key-identify.guard.js';
import { isPublicRoute } from '../auth/public.decorator.js';
import type { IdentifiedRequest, Identity } from '../auth/principal.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { PLAN_QUOTAS } from '../auth/plans.js';
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
import { RATE_LIMIT_COST, type RateLimitCostFunction } from './rate-limit-cost.decorator.js';
import {
  ONE_REQUEST,
  type Charge,
  type RateLimitOutcome,
  type WindowSpec,
} from './rate-limit.policy.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './storage/rate-limit.storage.js';
import { RouteMetadata } from './route-metadata.js';
import { IS_UNCOUNTED } from './uncounted.decorator.js';

/** The windows of a request gathered throttler by throttler, counted at once by the last. */
interface PendingCount {
  windows: WindowSpec[];
  remaining: number;
}

export type MeteredRequest = IdentifiedRequest & {
  rateLimit?: RateLimitOutcome;
  rateLimitPending?: PendingCount;
};

/** How long a client is told to wait when the store is down and the limiter fails closed. */
export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;

/**
 * Per client IP: lookups of keys this instance does not know, taken before each lookup starts,
 * with bans as any window. Apart from the IP's anonymous windows, so what keyless requests spent
 * never stops a valid key.
 */
export const LOOKUP_BUDGET: readonly WindowSpec[] = [
  { name: 'lookups', ttlMs: minutes(1), limit: PLAN_QUOTAS.free.perMinute },
];
/** `GET /v1/rate_limit`'s own budget per key (contract): refused past it, never banned for it. */
export const STATUS_BUDGET: readonly WindowSpec[] = [
  { name: 'status', ttlMs: minutes(1), limit: 60 },
];
const UNBANNED: Charge = Object.freeze({ cost: 1, bans: false });

/** Bans remembered for refusing before routing; beyond this, the oldest is forgotten (and asked for again). */
const MAX_BANS_KEPT = 10_000;
/** The one /v1 operation that answers a banned key (case-insensitive, as Express routes). */
const ANSWERS_WHILE_BANNED = /^\/v1\/rate_limit(?:[/?]|$)/i;
const API_PATH = /^\/v1\//i;

function setLimitHeaders(res: ServerResponse, outcome: RateLimitOutcome): void {
  const limitHeaders = rateLimitHeaders(outcome);
  for (const name in limitHeaders) res.setHeader(name, limitHeaders[name]);
}

function resolve(value: Resolvable<number>, context: ExecutionContext): number | Promise<number> {
  return typeof value === 'function' ? value(context) : value;
}

// `@SkipThrottle({ name: true })` read under the key the decorator itself writes, found by
// applying it to a probe, so the guard knows which throttlers a route will reach.
function skipMetadataKey(name: string): string {
  const probe = (): void => undefined;
  SkipThrottle({ [name]: true })(probe);
  return Reflect.getOwnMetadataKeys(probe)[0] as string;
}

// @nestjs/throttler's guard with the contract's behaviour where its defaults differ: one counter
// per caller (a key by its id, anything else by client IP), every window of a request counted in
// one atomic storage call, bans, unsuffixed X-RateLimit-* headers with Reset as a Unix time, also
// on 429s. Its flow is the library's: `shouldSkip` finds out whose request it is, the throttlers
// resolve the limits of that caller's plan (or a route's @Throttle), `handleRequest` counts.
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: RateLimitStorage,
    private readonly config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    super(options, store, new RouteMetadata());
  }

  /** The bans this instance has met, by tracker, with the outcome that announced each. */
  private readonly bans = new Map<string, RateLimitOutcome>();
  private readonly skipKeys = new Map<string, string>();

  // Runs once per request before any throttler resolves its limit, which depends on whose key
  // this is: so the key is looked up here, within the client's lookup budget.
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (
      !this.config.rateLimit.enabled ||
      context.getType() !== 'http' ||
      isPublicRoute(this.reflector, context)
    )
      return true;
    const req = context.switchToHttp().getRequest<MeteredRequest>();
    const res = context.switchToHttp().getResponse<ServerResponse>();
    try {
      // A key the cache knows costs no await (nor does a request without one).
      const identity =
        req.identity?.kind === 'unverified' ? await this.identify(req, res) : req.identity;
      if (identity?.kind === 'key' && this.isUncounted(context)) {
        await this.report(context, req, res, identity);
        return true;
      }
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      this.metrics?.redisError();
      const windows = this.planWindows(context);
      // The status has nothing true to say without the store, open or closed.
      if (req.identity?.kind === 'key' && this.isUncounted(context)) {
        res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(windows));
        throw new ApiError('service_unavailable', 'Rate-limit state is temporarily unavailable', {
          'Retry-After': String(STORE_DOWN_RETRY_AFTER_SECONDS),
        });
      }
      return this.storeUnavailable(res, windows);
    }
    req.rateLimitPending = { windows: [], remaining: this.throttlersReached(context) };
    return false;
  }

  // The identify guard has run: no identity is a route it leaves alone.
  private async identify(req: MeteredRequest, res: ServerResponse): Promise<Identity | undefined> {
    const identity = req.identity;
    if (identity?.kind !== 'unverified') return identity;
    // A key valid at its last lookup is looked up again whatever its IP did (one lookup however
    // many requests carry it); any other key only while its IP has lookups left. The budget is
    // taken by the request that starts the lookup, so concurrent requests with one key take one.
    if (identity.knownValid) return (req.identity = await this.apiKeys.verify(identity.hash));
    let admitted = false;
    const admit = (): Promise<void> => {
      admitted = true;
      return this.takeLookup(req, res);
    };
    try {
      return (req.identity = await this.apiKeys.verify(identity.hash, admit));
    } catch (err) {
      // It joined a lookup whose own client had no budget left: its own budget decides.
      if (admitted || !(err instanceof ApiError)) throw err;
      await this.takeLookup(req, res);
      return (req.identity = await this.apiKeys.verify(identity.hash));
    }
  }

  private async takeLookup(req: IdentifiedRequest, res: ServerResponse): Promise<void> {
    const tracker = this.lookupTracker(req);
    let outcome: RateLimitOutcome;
    try {
      outcome = await this.store.consume(tracker, LOOKUP_BUDGET);
    } catch (err) {
      // Fail open: the lookup share of the pool still bounds what the lookups can take. The
      // error is counted once per request, by the count that follows or by the refusal.
      if (!(err instanceof RateLimitStoreUnavailableError) || !this.config.rateLimit.failOpen)
        throw err;
      return;
    }
    if (outcome.status !== 'allowed') this.refuse(res, tracker, outcome);
  }

  /** How many throttlers `handleRequest` will see for this route: the last one counts. */
  private throttlersReached(context: ExecutionContext): number {
    let reached = 0;
    for (const throttler of this.throttlers) {
      const name = throttler.name!;
      const skipIf = throttler.skipIf ?? this.commonOptions.skipIf;
      if (this.routeValue(context, this.skipKey(name)) === true || skipIf?.(context) === true)
        continue;
      reached += 1;
    }
    return reached;
  }

  private skipKey(name: string): string {
    let key = this.skipKeys.get(name);
    if (key === undefined) this.skipKeys.set(name, (key = skipMetadataKey(name)));
    return key;
  }

  private routeValue(context: ExecutionContext, metadataKey: string): unknown {
    return this.reflector.getAllAndOverride(metadataKey, [
      context.getHandler(),
      context.getClass(),
    ]);
  }

  protected override async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    getTracker,
  }: ThrottlerRequest): Promise<boolean> {
    const req = context.switchToHttp().getRequest<MeteredRequest>();
    const res = context.switchToHttp().getResponse<ServerResponse>();
    const pending = req.rateLimitPending!;
    pending.windows.push({
      name: throttler.name!,
      ttlMs: ttl,
      limit,
      counter: this.routeCounter(context, throttler, ttl, limit),
    });
    if (--pending.remaining > 0) return true;
    const windows = pending.windows;
    try {
      const tracker = await getTracker(req, context);
      const charge = this.chargeOf(context, req);
      // The memory store answers at once: awaited only when it is a promise (Redis).
      const counted = this.store.consume(
        tracker,
        windows,
        charge instanceof Promise ? await charge : charge,
      );
      const outcome = counted instanceof Promise ? await counted : counted;
      if (outcome.status !== 'allowed') this.refuse(res, tracker, outcome);
      setLimitHeaders(res, outcome);
      return true;
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      this.metrics?.redisError();
      return this.storeUnavailable(res, windows);
    }
  }

  // A route whose @Throttle() sets another limit or window than the plan's keeps its own count of
  // that window; the plan's windows are one count per caller across routes.
  private routeCounter(
    context: ExecutionContext,
    throttler: ThrottlerOptions,
    ttl: number,
    limit: number,
  ): string | undefined {
    const plan = this.planWindow(context, throttler);
    if (plan.ttlMs === ttl && plan.limit === limit) return undefined;
    return `${throttler.name!}@${context.getClass().name}.${context.getHandler().name}`;
  }

  private chargeOf(context: ExecutionContext, req: IdentifiedRequest): Charge | Promise<Charge> {
    const cost = this.routeValue(context, RATE_LIMIT_COST) as RateLimitCostFunction | undefined;
    if (cost === undefined) return ONE_REQUEST;
    return Promise.resolve(cost(req)).then((units) =>
      Number.isSafeInteger(units) && units > 1 ? { cost: units, bans: true } : ONE_REQUEST,
    );
  }

  // Callers without a valid key, by client address (IPv6 per /64): always a valid IP
  // (clientAddress), so a tracker never carries client text.
  protected override getTracker(req: IdentifiedRequest): Promise<string> {
    const identity = req.identity;
    return Promise.resolve(
      identity?.kind === 'key' ? `key:${identity.principal.keyId}` : this.ipTracker(req),
    );
  }

  private lookupTracker(req: IdentifiedRequest): string {
    return `${this.ipTracker(req)}#lookups`;
  }

  private ipTracker(req: IdentifiedRequest): string {
    const address = clientAddress(req);
    return address.includes(':') ? `ip:${ipv6Prefix64(address)}` : `ip:${address}`;
  }

  private refuse(res: ServerResponse, tracker: string, outcome: RateLimitOutcome): never {
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
   * store. Undefined for anything else, which the guards then decide as always. A key not in the
   * cache is refused only while its address may not look keys up: a valid key is served whatever
   * else its address did.
   */
  refuseBanned(req: IdentifiedRequest, res: ServerResponse): ApiError | undefined {
    if (this.bans.size === 0 || !this.config.rateLimit.enabled || !API_PATH.test(req.url))
      return undefined;
    const identity = (req.identity ??= identifyRequest(req, this.apiKeys));
    let tracker: string;
    if (identity.kind === 'key') {
      if (ANSWERS_WHILE_BANNED.test(req.url)) return undefined;
      tracker = `key:${identity.principal.keyId}`;
    } else if (identity.kind === 'unverified') {
      if (identity.knownValid) return undefined;
      tracker = this.lookupTracker(req);
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
    const quota =
      blocking === undefined
        ? 'the quota'
        : blocking === outcome.windows[0] && blocking.name === LOOKUP_BUDGET[0].name
          ? `this address's budget of ${blocking.limit} lookups of unknown API keys a minute`
          : `the ${blocking.name} quota of ${blocking.limit} requests`;
    return refusal(
      'rate_limit_exceeded',
      `Rate limit exceeded: ${quota} is used up; retry in ${retryAfter} s`,
      headers,
    );
  }

  private isUncounted(context: ExecutionContext): boolean {
    return this.routeValue(context, IS_UNCOUNTED) === true;
  }

  // An uncounted route (the status) spends its own budget instead of the plan's windows, and
  // reports those windows: both in one batched storage call.
  private async report(
    context: ExecutionContext,
    req: MeteredRequest,
    res: ServerResponse,
    identity: Extract<Identity, { kind: 'key' }>,
  ): Promise<void> {
    const tracker = `key:${identity.principal.keyId}`;
    const [budget, standing] = await Promise.all([
      this.store.consume(`${tracker}#status`, STATUS_BUDGET, UNBANNED),
      this.store.peek(tracker, this.planWindows(context)),
    ]);
    req.rateLimit = standing;
    setLimitHeaders(res, standing);
    if (budget.status === 'allowed') return;
    const retryAfter = retryAfterSeconds(budget);
    throw refusal(
      'rate_limit_exceeded',
      `Rate limit exceeded: the rate-limit status may be read ${STATUS_BUDGET[0].limit} times a minute; retry in ${retryAfter} s`,
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** The caller's plan windows, without any route's @Throttle(). */
  private planWindows(context: ExecutionContext): WindowSpec[] {
    return this.throttlers.map((throttler) => this.planWindow(context, throttler));
  }

  // PLAN_WINDOWS resolve synchronously; a throttler whose option returns a promise is not a plan's.
  private planWindow(context: ExecutionContext, throttler: ThrottlerOptions): WindowSpec {
    return {
      name: throttler.name!,
      ttlMs: resolve(throttler.ttl, context) as number,
      limit: resolve(throttler.limit, context) as number,
    };
  }

  // RATE_LIMIT_FAIL_OPEN serves uncounted or refuses with 503; either way the counts are unknown,
  // so only the policy is advertised.
  private storeUnavailable(res: ServerResponse, windows: readonly WindowSpec[]): boolean {
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
