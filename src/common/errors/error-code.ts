export const ERROR_STATUS = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  gone: 410,
  insufficient_stock: 409,
  quantity_mismatch: 409,
  idempotency_key_in_use: 409,
  hold_not_active: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  api_key_banned: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: Record<string, unknown>;
}
