import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorFunction,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Public } from '../auth/public.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { RateLimitHealthIndicator } from '../rate-limit/rate-limit.health.js';
import { GracefulShutdown } from './graceful-shutdown.js';

/** Every 503 names when to try again (contract). */
const NOT_READY_HEADERS = { 'Retry-After': '5' };
export const READY_CHECK_MAX_AGE_MS = 1000;

type ReadyOutcome = { ok: true; body: unknown } | { ok: false; message: string };

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly rateLimit: RateLimitHealthIndicator,
    private readonly shutdown: GracefulShutdown,
  ) {}

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  // Probes share the check in flight, cached up to the contract's 1 s: one ping a second.
  @Get('ready')
  @HealthCheck()
  ready(): Promise<unknown> {
    if (this.shutdown.draining)
      throw new ApiError('service_unavailable', 'Not ready: shutting down', NOT_READY_HEADERS);
    const now = Date.now();
    if (this.lastCheck === undefined || now - this.lastCheck.at >= READY_CHECK_MAX_AGE_MS) {
      this.lastCheck = { at: now, result: this.check() };
    }
    return this.lastCheck.result.then((outcome) => {
      if (outcome.ok) return outcome.body;
      throw new ApiError('service_unavailable', outcome.message, NOT_READY_HEADERS);
    });
  }

  private lastCheck?: { at: number; result: Promise<ReadyOutcome> };

  private async check(): Promise<ReadyOutcome> {
    const checks: HealthIndicatorFunction[] = [
      () => this.db.pingCheck('database', { timeout: 1000 }),
      ...this.rateLimit.checks(),
    ];
    try {
      return { ok: true, body: await this.health.check(checks) };
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      const failed = Object.keys((err.getResponse() as { error?: object }).error ?? {});
      return {
        ok: false,
        message: `Not ready: ${failed.join(', ') || 'a dependency'} unavailable`,
      };
    }
  }
}
