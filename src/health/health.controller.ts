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

/** Every 503 names when to try again (contract); a probe of a replaced or recovering instance may retry soon. */
const NOT_READY_HEADERS = { 'Retry-After': '5' };

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly rateLimit: RateLimitHealthIndicator,
    private readonly shutdown: GracefulShutdown,
  ) {}

  /** Liveness: the process serves HTTP. Never touches a dependency. */
  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: every dependency answers; 503 names the ones that do not. */
  @Get('ready')
  @HealthCheck()
  async ready(): Promise<unknown> {
    if (this.shutdown.draining)
      throw new ApiError('service_unavailable', 'Not ready: shutting down', NOT_READY_HEADERS);
    const checks: HealthIndicatorFunction[] = [
      () => this.db.pingCheck('database', { timeout: 1000 }),
      ...this.rateLimit.checks(),
    ];
    try {
      return await this.health.check(checks);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      const failed = Object.keys((err.getResponse() as { error?: object }).error ?? {});
      throw new ApiError(
        'service_unavailable',
        `Not ready: ${failed.join(', ') || 'a dependency'} unavailable`,
        NOT_READY_HEADERS,
      );
    }
  }
}
