import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '../../config/app-config.js';
import { RequestObservers } from '../../platform/http/index.js';
import { flushTraces } from '../../tracing/trace-context.js';
import { LogOutput } from './log-output.js';
import { requestLog } from './request-log.js';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

// Nest's start-up report is for debugging: at `info` the first lines are the service's.
export const FRAMEWORK_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

function fromFramework(args: unknown[]): boolean {
  const first = args[0] as { context?: unknown } | null;
  return (
    typeof first === 'object' &&
    first !== null &&
    typeof first.context === 'string' &&
    FRAMEWORK_CONTEXTS.has(first.context)
  );
}
const LOG_OUTPUT = Symbol('LOG_OUTPUT');

export function createLogger(config: AppConfig, output = new LogOutput()): Logger {
  return pino(
    {
      level: config.log.level,
      hooks: {
        logMethod(args, method, level) {
          if (level === this.levels.values.info && fromFramework(args)) {
            if (this.isLevelEnabled('debug')) this.debug(...(args as [object, string]));
            return;
          }
          method.apply(this, args);
        },
      },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
        censor: '[redacted]',
      },
    },
    output,
  );
}

export function flushLogs(logger: Logger): Promise<void> {
  // An fsync of a pipe or a terminal fails; the lines were written all the same.
  return new Promise((resolve) => logger.flush(() => resolve()));
}

// pino-http is not mounted: its per-request logger and context cost more than `requestLog`.
@Global()
@Module({})
export class LoggingModule implements OnApplicationShutdown {
  constructor(
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(LOG_OUTPUT) output: LogOutput,
    observers: RequestObservers,
  ) {
    observers.add(requestLog(logger, output));
  }

  // After the server has drained, so the last request's line is held; traces first, for warnings.
  async onApplicationShutdown(): Promise<void> {
    await flushTraces();
    await flushLogs(this.logger);
  }

  static forRoot(config: AppConfig): DynamicModule {
    const output = new LogOutput();
    const logger = createLogger(config, output);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger }, forRoutes: [] })],
      providers: [
        { provide: ROOT_LOGGER, useValue: logger },
        { provide: LOG_OUTPUT, useValue: output },
      ],
      exports: [ROOT_LOGGER],
    };
  }
}
