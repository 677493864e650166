import { DynamicModule, Module } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ThrottlerModule } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { AuthModule } from '../auth/auth.module.js';
import { AppConfig } from '../config/app-config.js';
import { deploymentId } from '../database/deployment-id.js';
import { Clock, SystemClock } from './clock.js';
import { LookupBudget } from './lookup-budget.js';
import { planThrottler } from './plan-windows.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitHealthIndicator } from './rate-limit.health.js';
import type { BanPolicy } from './rate-limit.policy.js';
import { RateLimitRefusals } from './rate-limit.refusals.js';
import { MemoryRateLimitStorage } from './storage/memory.storage.js';
import { RateLimitStorage } from './storage/rate-limit.storage.js';
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

/**
 * @nestjs/throttler with one throttler, the caller's plan, whose limit comes from the caller
 * ApiKeyGuard works out; its storage counts the plan's windows and bans. Global: AuthModule's
 * guard takes lookups from the same storage.
 */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: RateLimitModule,
      global: true,
      imports: [
        ThrottlerModule.forRootAsync({
          imports: [AuthModule],
          inject: [RateLimitStorage, ApiKeyGuard],
          useFactory: (storage: RateLimitStorage, auth: ApiKeyGuard) => ({
            throttlers: [planThrottler((context) => auth.callerOf(context))],
            storage,
          }),
        }),
        AuthModule,
      ],
      providers: [
        { provide: Clock, useValue: clock },
        // A factory, so the storage (and its Redis client) is built by the injector, once.
        {
          provide: RateLimitStorage,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => createRateLimitStorage(config, clock, dataSource),
        },
        HealthIndicatorService,
        LookupBudget,
        RateLimitRefusals,
        RateLimitGuard,
        RateLimitHealthIndicator,
      ],
      exports: [
        Clock,
        RateLimitStorage,
        LookupBudget,
        RateLimitRefusals,
        RateLimitGuard,
        RateLimitHealthIndicator,
      ],
    };
  }
}
