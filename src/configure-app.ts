import type { NestApplicationOptions } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { setupOpenApi } from './openapi/openapi.setup.js';
import type { Express } from 'express';
import { applySecurity, overrideResponseJson, RequestObservers } from './platform/http/index.js';
import { banGate } from './rate-limit/ban-gate.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AppConfig } from './config/app-config.js';
import { RateLimitRefusals } from './rate-limit/rate-limit.refusals.js';

export const APP_OPTIONS: NestApplicationOptions = {
  // Bodies are read by JsonBodyGuard, after the other guards, with a 16 KiB limit.
  bodyParser: false,
  bufferLogs: true,
};

/** Everything main.ts does to the app besides listening, so the tests run the same pipeline. */
export function configureApp(
  app: NestExpressApplication,
  config: AppConfig,
): NestExpressApplication {
  app.useLogger(app.get(Logger));
  app.flushLogs();
  applySecurity(app, config);
  app.set('trust proxy', config.http.trustProxy);
  overrideResponseJson(app.getHttpAdapter().getInstance() as Express);
  setupOpenApi(app, config);
  // After the documentation's routes, before every route of the API (registered at init).
  app.use(app.get(RequestObservers).middleware);
  // Observed, logged and counted like any answer; refused before routing.
  app.use(
    banGate(
      app.get(ApiKeyGuard),
      app.get(RateLimitRefusals),
      app.get(AppConfig),
      app.get(AllExceptionsFilter),
    ),
  );
  app.enableShutdownHooks();
  return app;
}
