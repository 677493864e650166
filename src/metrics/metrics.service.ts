import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RequestObserver } from '../platform/http/index.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { TypeORMError } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { isDatabaseUnavailable } from '../database/database-errors.js';

const WEBHOOK_OUTCOMES = ['delivered', 'http_error', 'timeout', 'connection_error', 'blocked'];
const HOLD_OUTCOMES = ['confirmed', 'released', 'expired'] as const;
export type HoldOutcome = (typeof HOLD_OUTCOMES)[number];

export type RateLimitRejection = 'rate_limit_exceeded' | 'api_key_banned';

interface ExpressRoute {
  path: string;
  stack: { handle: { name: string } }[];
}

interface RequestSeries {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

/** Requests that matched no route at all (outside /v1, where NotFoundController answers). */
export const UNMATCHED_OPERATION = 'unmatched';
/** A banned client's requests, refused before routing (rate-limit/ban-gate.ts): the only unrouted 429s. */
export const BANNED_OPERATION = 'banned';

const DATABASE_ERROR_NAMES = new Set(['SqliteError', 'DatabaseError']);
const REDIS_ERROR_NAMES = new Set(['ReplyError', 'RedisError', 'MaxRetriesPerRequestError']);

function routeOf(req: Request): ExpressRoute | undefined {
  return (req as Request & { route?: ExpressRoute }).route;
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null ? (err.constructor?.name ?? '') : '';
}

// pg rejects a connection it could not open or lost with a plain Error, unwrapped by TypeORM:
// without isDatabaseUnavailable an outage would barely move the counter.
export function isDatabaseError(err: unknown): boolean {
  if (err instanceof TypeORMError || DATABASE_ERROR_NAMES.has(errorName(err))) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return true;
  return isDatabaseUnavailable(err);
}

export function isRedisError(err: unknown): boolean {
  return REDIS_ERROR_NAMES.has(errorName(err));
}

// A registry of its own, not prom-client's global one, so apps in one process (tests) never clash.
@Injectable()
export class MetricsService implements RequestObserver {
  readonly registry = new Registry();
  readonly enabled: boolean;

  private readonly requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by operation (operationId, or route template) and status code',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });

  private readonly duration = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from receiving a request to sending the last byte of its response',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly rateLimitRejections = new Counter({
    name: 'petstore_rate_limit_rejections_total',
    help: 'Requests refused with 429, by error code (rate_limit_exceeded or api_key_banned)',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  private readonly rateLimitBans = new Counter({
    name: 'petstore_rate_limit_bans_total',
    help: 'API keys banned for exceeding the rejection threshold within a window',
    registers: [this.registry],
  });

  private readonly databaseErrors = new Counter({
    name: 'petstore_database_errors_total',
    help: 'Database errors (failed queries, lost connections) that reached a request',
    registers: [this.registry],
  });

  private readonly redisErrors = new Counter({
    name: 'petstore_redis_errors_total',
    help: 'Redis errors: failed or timed-out commands and connection errors',
    registers: [this.registry],
  });

  private readonly redisFailovers = new Counter({
    name: 'petstore_redis_failovers_total',
    help: 'Redis failovers this instance followed: a Sentinel promotion, or a Cluster replica made master',
    registers: [this.registry],
  });

  private readonly webhookAttempts = new Counter({
    name: 'petstore_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, http_error, timeout, connection_error, blocked)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly webhookAttemptDuration = new Histogram({
    name: 'petstore_webhook_delivery_duration_seconds',
    help: 'Time from sending a webhook to its answer (or failure)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [this.registry],
  });

  /** Per endpoint delivered from here: when its oldest change not yet accepted was made (null: none). */
  private readonly webhookPending = new Map<number, number | null>();

  private readonly webhookLagSeconds = new Gauge({
    name: 'petstore_webhook_lag_seconds',
    help: 'Per endpoint, on the instance delivering to it: age of the oldest change not yet accepted (0 when caught up)',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
    // At scrape time, so the lag keeps growing while an endpoint waits for a retry.
    collect: () => {
      const now = Date.now();
      this.webhookLagSeconds.reset();
      for (const [endpoint, since] of this.webhookPending)
        this.webhookLagSeconds.set(
          { endpoint: String(endpoint) },
          since === null ? 0 : Math.max(0, now - since) / 1000,
        );
    },
  });

  private readonly holdsEnded = new Counter({
    name: 'petstore_holds_ended_total',
    help: 'Holds ended, by outcome: confirmed or released here, or expired (counted by the instance whose sweep saw it)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private activeHolds: (() => Promise<number>) | undefined;

  private readonly holdsActive = new Gauge({
    name: 'petstore_holds_active',
    help: 'Holds keeping units now, in the whole deployment (read from the database at scrape time)',
    registers: [this.registry],
    collect: async () => {
      if (this.activeHolds) this.holdsActive.set(await this.activeHolds());
    },
  });

  private readonly operations = new WeakMap<object, string>();
  /** The two series of each (operation, status) pair, looked up once: prom-client hashes label sets on every call. */
  private readonly series = new Map<string, RequestSeries>();
  private readonly bansCounted = new Set<string>();

  constructor(config: AppConfig) {
    this.enabled = config.metrics.enabled;
    // Zero-valued series exist from the start, so rates and alerts work before the first event.
    for (const code of ['rate_limit_exceeded', 'api_key_banned'] as const)
      this.rateLimitRejections.inc({ code }, 0);
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookAttempts.inc({ outcome }, 0);
    for (const outcome of HOLD_OUTCOMES) this.holdsEnded.inc({ outcome }, 0);
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
  }

  // From arrival to last byte, so requests refused by a guard (401, 429) are counted too.
  finished(req: Request, res: Response, elapsedMs: number): void {
    const route = routeOf(req);
    const operation =
      route !== undefined
        ? this.operationOf(route)
        : res.statusCode === 429
          ? BANNED_OPERATION
          : UNMATCHED_OPERATION;
    const series = this.seriesOf(operation, res.writableFinished ? res.statusCode : 'aborted');
    series.count.inc();
    series.duration.observe(elapsedMs / 1000);
  }

  recordFailure(exception: unknown, code: string): void {
    if (code === 'rate_limit_exceeded' || code === 'api_key_banned') this.rateLimitRejected(code);
    if (isDatabaseError(exception)) this.databaseError();
    else if (isRedisError(exception)) this.redisError();
  }

  rateLimitRejected(code: RateLimitRejection): void {
    this.rateLimitRejections.inc({ code });
  }

  rateLimitBanned(): void {
    this.rateLimitBans.inc();
  }

  // Counted once: the answer whose retry is a full ban away started it. Same-millisecond requests
  // get the same answer, so (client, ban end) pairs are remembered for a while.
  rateLimitBanObserved(
    client: string,
    outcome: { now: number; retryAt: number },
    banMs: number,
  ): void {
    if (outcome.retryAt - outcome.now !== banMs) return;
    const ban = `${client}@${outcome.retryAt}`;
    if (this.bansCounted.has(ban)) return;
    if (this.bansCounted.size >= 10_000)
      this.bansCounted.delete(this.bansCounted.values().next().value!);
    this.bansCounted.add(ban);
    this.rateLimitBanned();
  }

  databaseError(): void {
    this.databaseErrors.inc();
  }

  redisError(): void {
    this.redisErrors.inc();
  }

  redisFailover(): void {
    this.redisFailovers.inc();
  }

  webhookAttempt(outcome: string, seconds: number): void {
    this.webhookAttempts.inc({ outcome });
    this.webhookAttemptDuration.observe(seconds);
  }

  /**
   * `oldestPendingAt`: when the endpoint's oldest change not yet accepted was made (Unix ms), null
   * when caught up, undefined once this instance no longer delivers to it (it reports nothing).
   */
  webhookLag(endpointId: number, oldestPendingAt: number | null | undefined): void {
    if (oldestPendingAt === undefined) this.webhookPending.delete(endpointId);
    else this.webhookPending.set(endpointId, oldestPendingAt);
  }

  countActiveHolds(count: () => Promise<number>): void {
    this.activeHolds = count;
  }

  holdEnded(outcome: HoldOutcome, count = 1): void {
    this.holdsEnded.inc({ outcome }, count);
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  private seriesOf(operation: string, status: number | 'aborted'): RequestSeries {
    const key = `${operation} ${status}`;
    let series = this.series.get(key);
    if (series === undefined) {
      const labels = { operation, status: String(status) };
      series = { count: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    return series;
  }

  // The operationId (Nest names handlers `Controller.method`), else the route template; never the
  // raw path, which would give every pet id its own series.
  private operationOf(route: ExpressRoute): string {
    const known = this.operations.get(route);
    if (known !== undefined) return known;
    const name = route.stack.at(-1)?.handle.name ?? '';
    const dot = name.lastIndexOf('.');
    const operation = dot > 0 ? name.slice(dot + 1) : route.path;
    this.operations.set(route, operation);
    return operation;
  }
}
