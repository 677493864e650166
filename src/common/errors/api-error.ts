import { ERROR_STATUS, ErrorBody, ErrorCode } from './error-code.js';

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status };
    if (this.details) body.details = this.details;
    return body;
  }
}

export class GoneError extends ApiError {
  constructor(message: string) {
    super('gone', message);
  }
}

/** RFC 9110 §13.1.1: `current` is what the client should have known. */
export class PreconditionFailedError extends ApiError {
  constructor(message: string, current: unknown) {
    super('precondition_failed', message, {}, { current });
  }
}

// No stack trace: for the refusals floods are made of (401, 429, a repeated header).
export function refusal(
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): ApiError {
  return Object.assign(Object.create(ApiError.prototype) as ApiError, {
    name: 'ApiError',
    message,
    code,
    headers,
    status: ERROR_STATUS[code],
  });
}

export class ValidationFailedError extends ApiError {
  constructor(message: string) {
    super('validation_failed', message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message: string, bearerError?: 'invalid_token') {
    // RFC 6750 section 3: a 401 names the scheme the client should use.
    super('unauthorized', message, {
      'WWW-Authenticate': bearerError
        ? `Bearer realm="petstore", error="${bearerError}"`
        : 'Bearer realm="petstore"',
    });
  }
}

export class ForbiddenError extends ApiError {
  constructor(message: string) {
    super('forbidden', message);
  }
}
