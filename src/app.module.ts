import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, RouterModule } from '@nestjs/core';
import { ApiKeyIdentifyGuard, ApiKeyRequiredGuard } from './auth/api-key.guards.js';
import { AuthModule } from './auth/auth.module.js';
import { KeyScopeGuard } from './auth/scope.guard.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { JsonBodyGuard } from './common/http/json-body.guard.js';
import { NotFoundController } from './common/http/not-found.controller.js';
import { RequestObserversModule } from './common/http/request-observers.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { ApiValidationPipe } from './common/pipes/validation.pipe.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule, SeedModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { InventoryModule } from './inventory/inventory.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { PetsModule } from './pets/pets.module.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimitStatusModule } from './rate-limit/rate-limit-status.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';

@Module({ controllers: [NotFoundController] })
class NotFoundModule {}

/** The versioned API. Its modules' routes live under /v1; health (and docs) stay outside. */
const API_V1_MODULES = [
  InventoryModule,
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
        AuthModule,
        RateLimitModule.forRoot(config),
        HealthModule,
        MetricsModule.forRoot(),
        SeedModule,
        // NotFoundModule comes last so its catch-all route is registered after every real one.
        ...API_V1_MODULES,
        RouterModule.register([{ path: 'v1', children: API_V1_MODULES }]),
      ],
      providers: [
        // Guards run in this order. Identify the caller first without rejecting anyone, so the
        // limiter (next) can count anonymous and invalid-key requests per IP and put its headers
        // on every response, 401 included; only then is a valid key required, and only then is
        // a body read. The limiter sets its headers on the response before it can throw, so the
        // error filter keeps them. A key's scope is checked after the limiter, so a read key's
        // PATCH is counted like any request and refused before its body is read.
        { provide: APP_GUARD, useClass: ApiKeyIdentifyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: ApiKeyRequiredGuard },
        { provide: APP_GUARD, useClass: KeyScopeGuard },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
