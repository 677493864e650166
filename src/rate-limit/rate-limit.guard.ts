import type { ServerResponse } from 'node:http';
import { ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import type { Caller } from '../auth/principal.js';
import { isPublicRoute } from '../auth/public.decorator.js';
import { ValidationFailedError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { PLAN_THROTTLER, planWindows, quotaOf } from './plan-windows.js';
import {
  isCostProvider,
  RATE_LIMIT_COST,
  type RateLimitCostSource,
  type RequestCost,
} from './rate-limit-cost.decorator.js';
import { headlineWindow, retryAfterSeconds, windowViews } from './rate-limit.headers.js';
import {
  ONE_REQUEST,
  type Charge,
  type RateLimitOutcome,
  type WindowSpec,
} from './rate-limit.policy.js';
import { RateLimitRefusals, setLimitHeaders } from './rate-limit.refusals.js';
import { RouteMetadata } from './route-metadata.js';
import { RateLimitStorage, RateLimitStoreUnavailableError } from './storage/rate-limit.storage.js';
import { ipTracker, keyTracker } from './trackers.js';
import { IS_UNCOUNTED } from './uncounted.decorator.js';

interface RateLimitDetail extends ThrottlerLimitDetail {
  outcome: RateLimitOutcome;
}

// The contract's behaviour where @nestjs/throttler's defaults differ; hooks are order-independent.
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly costs = new Map<Type<RequestCost>, RequestCost>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly store: RateLimitStorage,
    private readonly config: AppConfig,
    private readonly auth: ApiKeyGuard,
    private readonly refusals: RateLimitRefusals,
    private readonly moduleRef: ModuleRef,
  ) {
    super(options, store, new RouteMetadata());
  }

  // A valid key on an uncounted route (the status) is not counted: the route spends its own budget.
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (
      !this.config.rateLimit.enabled ||
      context.getType() !== 'http' ||
      isPublicRoute(this.reflector, context)
    )
      return true;
    if (this.routeValue(context, IS_UNCOUNTED) !== true) return false;
    return (await this.auth.callerOf(context)).principal !== undefined;
  }

  protected override async getTracker(
    req: Record<string, unknown>,
    context?: ExecutionContext,
  ): Promise<string> {
    const known = context && this.auth.callerOf(context);
    const principal = (known instanceof Promise ? await known : known)?.principal;
    return principal ? keyTracker(principal.keyId) : ipTracker(req as unknown as Request);
  }

  protected override async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    getTracker,
  }: ThrottlerRequest): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<ServerResponse>();
    const known = this.auth.callerOf(context);
    const caller = known instanceof Promise ? await known : known;
    const windows = this.windows(context, caller, throttler.name ?? PLAN_THROTTLER, ttl, limit);
    try {
      const tracker = await getTracker(req, context);
      const priced = this.chargeOf(context, caller, req);
      const charge = priced instanceof Promise ? await priced : priced;
      const oversized = windows.find((window) => charge.cost > window.limit);
      const counted = this.store.consume(tracker, windows, oversized ? ONE_REQUEST : charge);
      const outcome = counted instanceof Promise ? await counted : counted;
      if (outcome.status !== 'allowed')
        await this.throwThrottlingException(context, limitDetail(tracker, outcome));
      setLimitHeaders(res, outcome);
      // It could never fit: counted as one request, and refused as what it is.
      if (oversized) throw tooLarge(charge.cost, oversized);
      return true;
    } catch (err) {
      if (!(err instanceof RateLimitStoreUnavailableError)) throw err;
      const refusal = this.refusals.storeUnavailable(res, windows);
      if (refusal) throw refusal;
      return true;
    }
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: RateLimitDetail,
  ): Promise<void> {
    const res = context.switchToHttp().getResponse<ServerResponse>();
    throw this.refusals.refuse(res, detail.tracker, detail.outcome);
  }

  // A route's own @Throttle() limit keeps its own count; the plan's is one per caller.
  private windows(
    context: ExecutionContext,
    caller: Caller,
    name: string,
    ttl: number,
    limit: number,
  ): WindowSpec[] {
    const [minute, day] = planWindows(quotaOf(caller));
    if (minute.ttlMs === ttl && minute.limit === limit) return [minute, day];
    const counter = `${name}@${context.getClass().name}.${context.getHandler().name}`;
    return [{ name, ttlMs: ttl, limit, counter }, day];
  }

  // A caller the route refuses counts one request, and its body is never read for a cost.
  private chargeOf(
    context: ExecutionContext,
    caller: Caller,
    req: Request,
  ): Charge | Promise<Charge> {
    const source = this.routeValue(context, RATE_LIMIT_COST) as RateLimitCostSource | undefined;
    if (source === undefined || caller.refusal !== undefined) return ONE_REQUEST;
    const units = isCostProvider(source) ? this.costProvider(source).cost(req) : source(req);
    return Promise.resolve(units).then((cost) =>
      Number.isSafeInteger(cost) && cost > 1 ? { cost, bans: true } : ONE_REQUEST,
    );
  }

  private costProvider(type: Type<RequestCost>): RequestCost {
    let provider = this.costs.get(type);
    if (provider === undefined) {
      provider = this.moduleRef.get(type, { strict: false });
      if (provider === undefined) throw new Error(`${type.name} is not a provider of the app`);
      this.costs.set(type, provider);
    }
    return provider;
  }

  private routeValue(context: ExecutionContext, metadataKey: string): unknown {
    return this.reflector.getAllAndOverride(metadataKey, [
      context.getHandler(),
      context.getClass(),
    ]);
  }
}

function limitDetail(tracker: string, outcome: RateLimitOutcome): RateLimitDetail {
  const headline = headlineWindow(windowViews(outcome));
  const seconds = (at: number) => Math.max(0, Math.ceil((at - outcome.now) / 1000));
  return {
    limit: headline.limit,
    ttl: headline.ttlMs,
    key: tracker,
    tracker,
    totalHits: headline.limit - headline.remaining + 1,
    timeToExpire: seconds(headline.resetAt),
    isBlocked: true,
    timeToBlockExpire: retryAfterSeconds(outcome),
    outcome,
  };
}

function tooLarge(cost: number, window: WindowSpec): ValidationFailedError {
  return new ValidationFailedError(
    `This request counts as ${cost} requests, more than the ${window.name} quota of ${window.limit} requests can ever hold: split it into parts of at most ${window.limit}`,
  );
}
