/** Every `code` an Error body of the service can carry. */
export type ApiErrorCode =
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'request_timeout'
  | 'gone'
  | 'precondition_failed'
  | 'insufficient_stock'
  | 'quantity_mismatch'
  | 'idempotency_key_in_use'
  | 'hold_not_active'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'rate_limit_exceeded'
  | 'api_key_banned'
  | 'internal_error'
  | 'service_unavailable';

const CODE_OF_STATUS: Record<number, ApiErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  410: 'gone',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'idempotency_key_reused',
  429: 'rate_limit_exceeded',
  431: 'headers_too_large',
  502: 'service_unavailable',
  503: 'service_unavailable',
  504: 'service_unavailable',
};

const CODES = new Set<string>(
  Object.values(CODE_OF_STATUS).concat([
    'api_key_banned',
    'internal_error',
    'insufficient_stock',
    'quantity_mismatch',
    'idempotency_key_in_use',
    'hold_not_active',
  ]),
);

/**
 * The code of an answer: the body's when it is one of the service's, else the one its status
 * stands for (a proxy in front of the service may answer a 502 or 504 without an Error body).
 */
export function codeOf(status: number, bodyCode: unknown): ApiErrorCode {
  if (typeof bodyCode === 'string' && CODES.has(bodyCode)) return bodyCode as ApiErrorCode;
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'validation_failed');
}

export interface ApiErrorInit {
  status: number;
  code: ApiErrorCode;
  message: string;
  requestId?: string;
  retryAfter?: number;
  details?: unknown;
}

/** The service answered with an error (or the client refused to send what the service would refuse). */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  readonly code: ApiErrorCode;
  /** `X-Request-Id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;
  /** The Error body's `details`, e.g. `{ current }` (the item as it is) on a 412. */
  readonly details: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.details = init.details;
  }
}

/**
 * 409 `hold_not_active`: the hold cannot be confirmed (it was released or has expired) or
 * released (it was confirmed). `hold` is the hold as it ended.
 */
export class HoldNotActiveError extends ApiError {
  override readonly name: string = 'HoldNotActiveError';

  get hold(): unknown {
    return (this.details as { current?: unknown } | undefined)?.current;
  }
}

/** No answer arrived: the connection failed or was cut. The request may or may not have been applied. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The call's overall deadline (`timeoutMs`) passed before an answer arrived. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
