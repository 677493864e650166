import { DynamicModule, Global, Inject, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '../../config/app-config.js';
import { RequestObservers } from '../../platform/http/index.js';
import { requestLog } from './request-log.js';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

export function createLogger(config: AppConfig): Logger {
  return pino({
    level: config.log.level,
    // Credentials never reach the log, whatever is logged and at whatever level.
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
      censor: '[redacted]',
    },
  });
}

/**
 * nestjs-pino serves as Nest's logger, but its per-request middleware (pino-http) is not mounted
 * (`forRoutes: []`): it builds a child logger, a serialised request and an AsyncLocalStorage
 * context for every request; `requestLog` writes the same one line without them.
 */
@Global()
@Module({})
export class LoggingModule {
  constructor(@Inject(ROOT_LOGGER) logger: Logger, observers: RequestObservers) {
    observers.add(requestLog(logger));
  }

  static forRoot(config: AppConfig): DynamicModule {
    const logger = createLogger(config);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger }, forRoutes: [] })],
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
      exports: [ROOT_LOGGER],
    };
  }
}
