import { DynamicModule, Global, Module } from '@nestjs/common';
import { RequestObservers } from '../platform/http/index.js';
import { AppConfig } from '../config/app-config.js';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

// Never on the API port (it reveals versions, traffic and bans, and a scrape is dear). Global so
// the exception filter and the limiter can report events.
@Global()
@Module({})
export class MetricsModule {
  constructor(config: AppConfig, metrics: MetricsService, observers: RequestObservers) {
    if (config.metrics.enabled) observers.add(metrics);
  }

  static forRoot(): DynamicModule {
    return {
      module: MetricsModule,
      providers: [MetricsService, MetricsServer],
      exports: [MetricsService],
    };
  }
}
