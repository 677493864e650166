import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, RouterModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import {
  AllExceptionsFilter,
  EXCEPTION_MAPPERS,
  FAILURE_OBSERVERS,
  type FailureObserver,
} from './common/errors/all-exceptions.filter.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { ApiValidationPipe } from './common/pipes/validation.pipe.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { databaseUnavailable } from './database/database-errors.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { HoldsModule } from './holds/holds.module.js';
import { AdjustmentsModule } from './inventory/adjustments/adjustments.module.js';
import { InventoryModule } from './inventory/inventory.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MetricsService } from './metrics/metrics.service.js';
import { OrdersModule } from './orders/orders.module.js';
import { PetsModule } from './pets/pets.module.js';
import { NotFoundModule, OutsideApiNotFoundModule } from './not-found/not-found.module.js';
import { JsonBodyGuard, RequestObserversModule } from './platform/http/index.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimitStatusModule } from './rate-limit/rate-limit-status.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RootModule } from './root/root.module.js';
import { SeedModule } from './seed/seed.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

const API_V1_MODULES = [
  InventoryModule,
  AdjustmentsModule,
  HoldsModule,
  PetsModule,
  OrdersModule,
  RateLimitStatusModule,
  NotFoundModule,
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        RequestObserversModule,
        LoggingModule.forRoot(config),
        DatabaseModule,
        ScheduleModule.forRoot(),
        AuthModule,
        RateLimitModule.forRoot(config),
        HealthModule,
        RootModule,
        MetricsModule.forRoot(),
        SeedModule,
        WebhooksModule,
        // NotFoundModule comes last so its catch-all route is registered after every real one.
        ...API_V1_MODULES,
        RouterModule.register([{ path: 'v1', children: API_V1_MODULES }]),
        OutsideApiNotFoundModule,
      ],
      providers: [
        // In this order: the limiter counts every request (and sets its headers) before the bearer
        // guard refuses a caller without a valid key (401) or scope (403), and both come before
        // the body is read. The two ask ApiKeyGuard for the caller, worked out once per request.
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: EXCEPTION_MAPPERS, useValue: [databaseUnavailable] },
        {
          provide: FAILURE_OBSERVERS,
          inject: [{ token: MetricsService, optional: true }],
          useFactory: (metrics?: MetricsService): FailureObserver[] =>
            metrics ? [(exception, code) => metrics.recordFailure(exception, code)] : [],
        },
        AllExceptionsFilter,
        { provide: APP_FILTER, useExisting: AllExceptionsFilter },
      ],
    };
  }
}
