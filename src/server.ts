import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { AppModule } from './app.module.js';
import { StartupError } from './common/errors/startup-error.js';
import { createLogger, ROOT_LOGGER } from './common/logging/logging.module.js';
import { ApiKeysService } from './auth/api-keys.service.js';
import { keyHint } from './auth/key-hint.js';
import { AppConfig, loadConfig } from './config/app-config.js';
import { ConfigError } from './config/env.parser.js';
import { APP_OPTIONS, configureApp } from './configure-app.js';
import { ApiExpressAdapter } from './platform/http/index.js';
import { DemoSeeder } from './seed/demo-seeder.js';
import { sqliteDriverProblem } from './runtime/runtime.js';
import { traceDestination, useTraceWarnings } from './tracing/trace-context.js';

/** The application's logger once it exists: a failure line then follows the lines already logged. */
let rootLogger: PinoLogger | undefined;

function fail(config: AppConfig, message: string, variable?: string): never {
  (rootLogger ?? createLogger(config)).fatal({ variable }, `Cannot start the server: ${message}`);
  process.exit(1);
}

function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`Invalid configuration: ${err.message}\n`);
    process.exit(1);
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

async function bootstrap(config: AppConfig): Promise<void> {
  if (config.database.type === 'sqlite') {
    const problem = await sqliteDriverProblem();
    if (problem) fail(config, problem);
  }
  // Logs stay buffered until configureApp installs the JSON logger; a start that fails before
  // then leaves only the one line `fail` writes.
  const app = configureApp(
    await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot(config),
      new ApiExpressAdapter(config.http.timeouts),
      { ...APP_OPTIONS, abortOnError: false, autoFlushLogs: false },
    ),
    config,
  );
  rootLogger = app.get<PinoLogger>(ROOT_LOGGER);
  const logger = app.get(Logger);
  useTraceWarnings((message) => logger.warn(message, 'Tracing'));
  const demoKey = await app.get(DemoSeeder).seedIfEmpty();
  await app.init();
  const { port, host } = config.http;
  let address: AddressInfo;
  try {
    address = await listen(app.getHttpServer() as Server, port, host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use`
        : `cannot listen on ${host}:${port} (${code ?? String(err)})`;
    fail(config, `${reason}; check PORT and HOST`, 'PORT');
  }

  const shownHost = ['127.0.0.1', '::1', '0.0.0.0', '::'].includes(address.address)
    ? 'localhost'
    : address.address.includes(':')
      ? `[${address.address}]`
      : address.address;
  const url = `http://${shownHost}:${address.port}`;
  logger.log(`Listening on ${url} (${config.env}, ${config.database.type})`, 'Bootstrap');
  const tracing = traceDestination();
  if (tracing) logger.log(tracing, 'Tracing');
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

const config = loadConfigOrExit();
bootstrap(config).catch((err: unknown) => {
  if (err instanceof StartupError)
    fail(config, `${err.message}; check ${err.variable}`, err.variable);
  fail(config, err instanceof Error ? err.message : String(err));
});
