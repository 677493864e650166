import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { ApiKeysService } from './auth/api-keys.service.js';
import { keyHint } from './auth/key-hint.js';
import { ApiExpressAdapter } from './common/http/http-adapter.js';
import { ConfigError } from './config/env.schema.js';
import { AppConfig, loadConfig } from './config/app-config.js';
import { APP_OPTIONS, configureApp } from './configure-app.js';
import { DemoSeeder } from './database/seed/demo-seeder.js';

function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`Invalid configuration: ${err.message}\n`);
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const app = configureApp(
    await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot(config),
      new ApiExpressAdapter(),
      APP_OPTIONS,
    ),
    config,
  );
  const demoKey = await app.get(DemoSeeder).seedIfEmpty();
  await app.listen(config.http.port, config.http.host);

  const logger = app.get(Logger);
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  logger.log(`Listening on ${url} (${config.env}, ${config.database.type})`, 'Bootstrap');
  if (demoKey) {
    // Development only, on an empty database: the one time a raw key is ever written out.
    logger.log(`Demo API key (free plan, shown once): ${demoKey}`, 'Bootstrap');
    logger.log(
      `Try it: curl -H 'Authorization: Bearer ${demoKey}' ${url}/v1/inventory`,
      'Bootstrap',
    );
  } else {
    const hint = keyHint(await app.get(ApiKeysService).countUsable());
    logger[hint.level](hint.message, 'Bootstrap');
  }
}

void bootstrap();
