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

/** Global: AuthModule's guard takes lookups from the same storage. */
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
