import { DynamicModule, Global, Module } from '@nestjs/common';
import { RequestObservers } from '../platform/http/index.js';
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
export class MetricsModule {
  constructor(config: AppConfig, metrics: MetricsService, observers: RequestObservers) {
    if (config.metrics.enabled) observers.add(metrics);
  }

  static forRoot(config: AppConfig): DynamicModule {
    const onApiPort = config.metrics.enabled && config.metrics.port === undefined;
    return {
      module: MetricsModule,
      controllers: onApiPort ? [MetricsController] : [],
      providers: [MetricsService, MetricsServer],
      exports: [MetricsService],
    };
  }
}
