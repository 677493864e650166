import { DynamicModule, Module } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ThrottlerModule } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { AppConfig } from '../config/app-config.js';
import { deploymentId } from '../database/deployment-id.js';
import { Clock, SystemClock } from './clock.js';
import { PLAN_WINDOWS } from './plan-windows.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitHealthIndicator } from './rate-limit.health.js';
import type { BanPolicy } from './rate-limit.policy.js';
import { MemoryRateLimitStorage } from './storage/memory.storage.js';
import type { RateLimitStorage } from './storage/rate-limit.storage.js';
import { RedisRateLimitStorage } from './storage/redis.storage.js';

export function banPolicy(config: AppConfig): BanPolicy {
  return {
    threshold: config.rateLimit.banThreshold,
    durationMs: config.rateLimit.banSeconds * 1000,
  };
}

// A disabled limiter never connects; Redis keys carry the deployment's id.
export async function createRateLimitStorage(
  config: AppConfig,
  clock: Clock,
  dataSource: DataSource,
): Promise<RateLimitStorage> {
  return config.rateLimit.enabled && config.redis
    ? new RedisRateLimitStorage(
        config.redis,
        banPolicy(config),
        clock,
        `${await deploymentId(dataSource)}:`,
      )
    : new MemoryRateLimitStorage(banPolicy(config), clock);
}

@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: RateLimitModule,
      global: true,
      imports: [
        // A factory, so the storage (and its Redis client) is built by the injector, once.
        ThrottlerModule.forRootAsync({
          inject: [DataSource],
          useFactory: async (dataSource: DataSource) => ({
            throttlers: PLAN_WINDOWS,
            storage: await createRateLimitStorage(config, clock, dataSource),
          }),
        }),
        AuthModule,
      ],
      providers: [
        { provide: Clock, useValue: clock },
        HealthIndicatorService,
        RateLimitGuard,
        RateLimitHealthIndicator,
      ],
      exports: [Clock, RateLimitGuard, RateLimitHealthIndicator],
    };
  }
}
