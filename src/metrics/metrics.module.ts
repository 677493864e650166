import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus metrics. MetricsService is global so the exception filter and the rate limiter can
 * report events. METRICS_ENABLED=false removes the endpoint and the per-request timing;
 * METRICS_PORT moves the endpoint off the API port.
 */
@Global()
@Module({})
export class MetricsModule implements NestModule {
  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  static forRoot(config: AppConfig): DynamicModule {
    const onApiPort = config.metrics.enabled && config.metrics.port === undefined;
    return {
      module: MetricsModule,
      controllers: onApiPort ? [MetricsController] : [],
      providers: [MetricsService, MetricsServer],
      exports: [MetricsService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    if (!this.config.metrics.enabled) return;
    consumer.apply(this.metrics.middleware).forRoutes('*');
  }
}
