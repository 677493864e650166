import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ErrorBody, ErrorCode } from '../common/errors/error-code.js';
import { ERROR_STATUS } from '../common/errors/error-code.js';
import { ErrorSchema } from './error.schema.js';

/**
 * The spec's stability markings (Versioning, rule 2). An operation without one is a build error
 * of the document, so none can ship unmarked.
 */
export const STABILITIES = ['experimental', 'beta'] as const;
export type Stability = (typeof STABILITIES)[number];
export const STABILITY_EXTENSION = 'x-stability';

export const STABILITY_NOTES: Record<Stability, string> = {
  experimental: 'The request or response shape may change before the operation becomes stable.',
  beta: 'The shape is settled: a breaking change comes only as a new operation, after this one is deprecated with a sunset date.',
};

/** Marks an operation's stability: `x-stability` in the document, and a badge in Swagger UI. */
export function ApiStability(stability: Stability): MethodDecorator {
  return ApiExtension(STABILITY_EXTENSION, stability) as MethodDecorator;
}

/** The `ETag` Express gives a `GET` answer: weak, a digest of the answer's bytes. */
export const WEAK_ETAG_HEADER = {
  ETag: {
    description: 'A weak validator of this answer: it changes whenever the answer does',
    schema: { type: 'string' },
  },
};

/**
 * Documents revalidation of a `GET` whose answer carries WEAK_ETAG_HEADER: a matching
 * If-None-Match is answered 304 without a body (RFC 9110 §13.1.2).
 */
export function ApiRevalidation(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'The `ETag` of an answer the client holds: while it is current, the answer is 304 without a body.',
    }),
    ApiResponse({
      status: 304,
      description: 'Not Modified: the answer still matches `If-None-Match`; no body',
      headers: WEAK_ETAG_HEADER,
    }),
  );
}

/** When each error status is sent, with the codes it carries. */
export const ERROR_RESPONSES: Record<number, { description: string; codes: ErrorCode[] }> = {
  400: {
    description:
      'The request holds invalid values: a body lacking required fields, unknown fields, or a malformed id',
    codes: ['validation_failed'],
  },
  401: {
    description: 'The API key is missing, invalid or revoked (see `WWW-Authenticate`)',
    codes: ['unauthorized'],
  },
  404: { description: 'The requested resource cannot be found', codes: ['not_found'] },
  410: {
    description:
      'The operation has passed its sunset date and is no longer served, or a change cursor is older than the kept history',
    codes: ['gone'],
  },
  412: {
    description:
      "`If-Match` names none of the item's current entity tags; nothing changed, and `details.current` holds the current item",
    codes: ['precondition_failed'],
  },
  413: { description: 'The request body exceeds 16 KiB', codes: ['payload_too_large'] },
  415: {
    description: 'The body is not `application/json` (or `application/merge-patch+json`)',
    codes: ['unsupported_media_type'],
  },
  429: {
    description:
      'The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially.',
    codes: ['rate_limit_exceeded', 'api_key_banned'],
  },
  500: {
    description: 'An unexpected error; the message quotes the request id (also in `X-Request-Id`)',
    codes: ['internal_error'],
  },
  503: {
    description: 'A dependency (the database or the rate-limit store) is unavailable; retry later',
    codes: ['service_unavailable'],
  },
};

/** A typical message per code, for the examples. */
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  validation_failed: 'quantity must be an integer from 0 to 2147483647',
  unauthorized: 'An API key is required: send it as "Authorization: Bearer <API_KEY>"',
  not_found: 'No pet with id 42',
  gone: 'GET /v1/pets/{petId} was retired on 2027-06-30; use GET /v1/inventory',
  precondition_failed: 'The item changed: its ETag is no longer "3q2-7w…"',
  payload_too_large: 'Request body exceeds 16384 bytes',
  unsupported_media_type:
    'Content-Type must be application/json or application/merge-patch+json, not text/plain',
  rate_limit_exceeded: 'Rate limit exceeded: 60 requests per minute; retry after 12 s',
  api_key_banned: 'The API key is banned for 600 s after repeated requests over the limit',
  internal_error: 'An unexpected error occurred. Quote request id 7f0c… when reporting it.',
  service_unavailable: 'The service is temporarily unavailable; retry later',
};

export function errorExamples(
  status: number,
): Record<string, { summary: string; value: ErrorBody }> {
  return Object.fromEntries(
    ERROR_RESPONSES[status].codes.map((code) => [
      code,
      {
        summary: code,
        value: { code, message: EXAMPLE_MESSAGES[code], status: ERROR_STATUS[code] },
      },
    ]),
  );
}

/** Documents the Error responses an operation can give besides those every operation shares. */
export function ApiErrorResponses(...statuses: (keyof typeof ERROR_RESPONSES)[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_RESPONSES[status].description,
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(ErrorSchema) },
            examples: errorExamples(status),
          },
        },
      }),
    ),
  );
}
