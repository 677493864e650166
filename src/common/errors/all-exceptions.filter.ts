import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { stringify } from 'lossless-json';
import { loggableError, maskApiKeys } from '../logging/log-redaction.js';
import { ApiError } from './api-error.js';
import { ERROR_STATUS, ErrorCode } from './error-code.js';

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    .reverse()
    .map(([code, status]) => [status, code]),
);
CODE_BY_STATUS.set(HttpStatus.TOO_MANY_REQUESTS, 'rate_limit_exceeded');

const BODY_PARSER_ERRORS: Record<
  string,
  { code: ErrorCode; message: (err: { limit?: number; charset?: string }) => string }
> = {
  'entity.parse.failed': {
    code: 'validation_failed',
    message: () => 'Request body is not valid JSON',
  },
  'entity.too.large': {
    code: 'payload_too_large',
    message: (e) => `Request body exceeds ${e.limit} bytes`,
  },
  'entity.verify.failed': { code: 'validation_failed', message: () => 'Request body was rejected' },
  'request.aborted': {
    code: 'validation_failed',
    message: () => 'Request body was not received in full',
  },
  'request.size.invalid': {
    code: 'validation_failed',
    message: () => 'Request body length does not match Content-Length',
  },
  'encoding.unsupported': {
    code: 'unsupported_media_type',
    message: () => 'Content-Encoding is not supported',
  },
  'charset.unsupported': {
    code: 'unsupported_media_type',
    message: (e) => `Charset "${e.charset}" is not supported`,
  },
};

export type ExceptionMapper = (exception: unknown) => ApiError | undefined;
export type FailureObserver = (exception: unknown, code: ErrorCode) => void;

export const EXCEPTION_MAPPERS = Symbol('EXCEPTION_MAPPERS');
export const FAILURE_OBSERVERS = Symbol('FAILURE_OBSERVERS');

function describeError(err: unknown): string {
  return err instanceof Error
    ? `${err.message}${'code' in err ? ` (${String(err.code)})` : ''}`
    : String(err);
}

interface Translated {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  details?: Record<string, unknown>;
  mapped?: true;
}

// A 500 reveals nothing internal; it is logged with the request id the client gets in X-Request-Id.
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  constructor(
    @Optional() @Inject(EXCEPTION_MAPPERS) private readonly mappers: ExceptionMapper[] = [],
    @Optional() @Inject(FAILURE_OBSERVERS) private readonly observers: FailureObserver[] = [],
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { id?: string }>();
    const res = http.getResponse<Response>();
    const error = this.translate(exception, req);
    for (const observe of this.observers) observe(exception, error.code);

    if (error.mapped) {
      this.logger.warn(
        { reqId: req.id },
        `${error.message} (${req.method} ${maskApiKeys(req.path)}): ${maskApiKeys(describeError(exception))}`,
      );
    } else if (error.status >= 500 && error.code !== 'service_unavailable') {
      const path = maskApiKeys(req.path);
      this.logger.error(
        { err: loggableError(exception), reqId: req.id, method: req.method, path },
        `Unhandled error on ${req.method} ${path} (request ${req.id ?? 'unknown'})`,
      );
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name in error.headers) res.setHeader(name, error.headers[name]);
    // Without the JSON writer's ETag; lossless-json prints int64 ids in details exactly.
    const body =
      error.details === undefined
        ? JSON.stringify({ code: error.code, message: error.message, status: error.status })
        : (stringify({
            code: error.code,
            message: error.message,
            status: error.status,
            details: error.details,
          }) as string);
    res.statusCode = error.status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }

  private translate(exception: unknown, req: Request & { id?: string }): Translated {
    if (exception instanceof ApiError) {
      return {
        status: exception.status,
        code: exception.code,
        message: exception.message,
        headers: exception.headers,
        details: exception.details,
      };
    }
    const bodyParserError = this.bodyParserError(exception);
    if (bodyParserError) return bodyParserError;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS.get(status);
      if (status === HttpStatus.NOT_FOUND) {
        return {
          status,
          code: 'not_found',
          message: `No route for ${req.method} ${req.path}`,
          headers: {},
        };
      }
      if (code && status < 500) return { status, code, message: exception.message, headers: {} };
    }
    for (const map of this.mappers) {
      const mapped = map(exception);
      if (mapped) {
        return {
          status: mapped.status,
          code: mapped.code,
          message: mapped.message,
          headers: mapped.headers,
          mapped: true,
        };
      }
    }
    return {
      status: 500,
      code: 'internal_error',
      message: `An unexpected error occurred. Quote request id ${req.id ?? 'unknown'} when reporting it.`,
      headers: {},
    };
  }

  private bodyParserError(exception: unknown): Translated | undefined {
    if (typeof exception !== 'object' || exception === null || !('type' in exception))
      return undefined;
    const known = BODY_PARSER_ERRORS[String(exception.type)];
    if (!known) return undefined;
    const status = ERROR_STATUS[known.code];
    return {
      status,
      code: known.code,
      message: known.message(exception as { limit?: number }),
      headers: {},
    };
  }
}
