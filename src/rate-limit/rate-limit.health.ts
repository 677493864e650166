import { Injectable, Optional } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import {
  HealthIndicatorFunction,
  HealthIndicatorResult,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { RedisRateLimitStorage } from './storage/redis.storage.js';
import type { RateLimitStorage } from './storage/rate-limit.storage.js';

@Injectable()
export class RateLimitHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @InjectThrottlerStorage() private readonly storage: RateLimitStorage,
    private readonly config: AppConfig,
    @Optional() metrics?: MetricsService,
  ) {
    if (storage instanceof RedisRateLimitStorage && metrics)
      storage.connection.onFailover(() => metrics.redisFailover());
  }

  checks(): HealthIndicatorFunction[] {
    const storage = this.storage;
    if (!this.config.rateLimit.enabled || !(storage instanceof RedisRateLimitStorage)) return [];
    return [() => this.redis(storage)];
  }

  // Degraded, not down, when failing open: requests are still served, just not counted.
  private async redis(storage: RedisRateLimitStorage): Promise<HealthIndicatorResult> {
    const indicator = this.health.check('redis');
    try {
      await storage.ping();
      return indicator.up();
    } catch {
      const message = 'Redis does not answer';
      return this.config.rateLimit.failOpen
        ? indicator.degraded({ message: `${message}; requests are served without rate limiting` })
        : indicator.down({ message: `${message}; /v1 requests are refused until it does` });
    }
  }
}
