import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { errorResponseObject, type ErrorResponseDoc } from '../openapi/api-docs.decorators.js';
import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency-key.js';

/** The required `Idempotency-Key` header: what one key stands for, then how retries use it. */
export const ApiIdempotencyKey = (what: string, rule: string) =>
  ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: true,
    description: `${what}, 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, ${rule}`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  });

export const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

export const IDEMPOTENCY_422: ErrorResponseDoc = {
  description:
    'The `Idempotency-Key` was already used, by this API key, for a different request (another method, path or body); nothing changed',
  examples: {
    idempotency_key_reused: {
      message:
        'This Idempotency-Key was used for a different request (method, path or body); use a new key for a new change',
    },
  },
};

/** Error answers a retry may get again, marked `Idempotent-Replayed`. */
export function ApiReplayableErrors(
  ...responses: [status: number, doc: ErrorResponseDoc][]
): MethodDecorator {
  return applyDecorators(
    ...responses.map(([status, doc]) =>
      ApiResponse({ status, ...errorResponseObject(status, doc), headers: REPLAYED_HEADER }),
    ),
  );
}
