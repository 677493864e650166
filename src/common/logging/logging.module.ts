import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '../../config/app-config.js';
import { RequestObservers } from '../../platform/http/index.js';
import { requestLog } from './request-log.js';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * Lines go to stdout asynchronously: a request does not wait for the write, and lines written
 * while one write is under way go out together in the next. The buffer is written out when the
 * application closes (a graceful shutdown) and when the process exits; a SIGKILL or a crash of
 * the process loses what the buffer still holds.
 */
export function createLogger(config: AppConfig): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  // Also covers process.exit() after a failed start, which runs no shutdown hook.
  process.once('exit', () => flushSync(destination));
  return pino(
    {
      level: config.log.level,
      // Credentials never reach the log, whatever is logged and at whatever level.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * A write starts as soon as anything is buffered and none is under way. Zero would do the same,
 * but then `flush` would not wait for the write under way.
 */
const LOG_BUFFER_BYTES = 1;

type Destination = ReturnType<typeof pino.destination>;

function flushSync(destination: Destination): void {
  try {
    destination.flushSync();
  } catch {
    // Not open yet, or already closed: nothing is buffered.
  }
}

/** Resolves once every line logged so far has been written out. */
export function flushLogs(logger: Logger): Promise<void> {
  // An fsync of a pipe or a terminal fails; the lines were written all the same.
  return new Promise((resolve) => logger.flush(() => resolve()));
}

/**
 * nestjs-pino serves as Nest's logger, but its per-request middleware (pino-http) is not mounted
 * (`forRoutes: []`): it builds a child logger, a serialised request and an AsyncLocalStorage
 * context for every request; `requestLog` writes the same one line without them.
 */
@Global()
@Module({})
export class LoggingModule implements OnApplicationShutdown {
  constructor(
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    observers: RequestObservers,
  ) {
    observers.add(requestLog(logger));
  }

  /** After the HTTP server has drained, so the last request's line is in the buffer. */
  onApplicationShutdown(): Promise<void> {
    return flushLogs(this.logger);
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
