import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ErrorBody, ErrorCode } from '../common/errors/error-code.js';
import { ERROR_STATUS } from '../common/errors/error-code.js';
import { ErrorSchema } from './error.schema.js';

// The spec's stability markings (Versioning, rule 2); an unmarked operation fails the build.
export const STABILITIES = ['experimental', 'beta'] as const;
export type Stability = (typeof STABILITIES)[number];
export const STABILITY_EXTENSION = 'x-stability';

export const STABILITY_NOTES: Record<Stability, string> = {
  experimental: 'The request or response shape may change before the operation becomes stable.',
  beta: 'The shape is settled: a breaking change comes only as a new operation, after this one is deprecated with a sunset date.',
};

export function ApiStability(stability: Stability): MethodDecorator {
  return ApiExtension(STABILITY_EXTENSION, stability) as MethodDecorator;
}

/** The `ETag` Express gives a `GET` answer: weak, a digest of the answer's bytes. */
export const WEAK_ETAG_HEADER = {
  ETag: {
    description: 'A weak validator of this answer: it changes whenever the answer does',
    required: true,
    schema: { type: 'string' },
  },
};

/** A matching If-None-Match gets 304 without a body (RFC 9110 §13.1.2). */
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

export interface ErrorResponseDoc {
  description: string;
  examples: Record<string, { code?: ErrorCode; message: string }>;
}

// The shared description of each error status, unless an operation documents its own.
export const ERROR_RESPONSES: Record<number, ErrorResponseDoc> = {
  400: {
    description:
      'The request is malformed: `Authorization` is sent more than once, or its chunked body is broken',
    examples: {
      duplicate_authorization: { message: 'Authorization must be sent once' },
    },
  },
  401: {
    description:
      'No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`.',
    examples: {},
  },
  403: {
    description:
      'The API key is valid but its scope does not allow the operation: a `read` key may only read',
    examples: {
      forbidden: {
        message:
          'This API key has the read scope, which allows only GET requests; PATCH needs a key with the write scope',
      },
    },
  },
  404: {
    description: 'No pet has this `petId`',
    examples: { not_found: { message: 'No pet with id 42' } },
  },
  408: {
    description:
      'The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed',
    examples: {
      request_timeout: { message: 'The request was not received in time; send it again' },
    },
  },
  410: {
    description:
      'The operation has passed its sunset date and is no longer served, or a change cursor is older than the kept history',
    examples: {
      gone: { message: 'GET /v1/pets/{petId} was retired on 2027-06-30; use GET /v1/inventory' },
      cursor: {
        message:
          'The cursor is older than the kept history (CHANGES_RETENTION_DAYS); list the inventory again and follow its X-Changes-Cursor',
      },
    },
  },
  412: {
    description:
      "`If-Match` names none of the item's current entity tags; nothing changed, and `details.current` holds the current item",
    examples: {
      precondition_failed: {
        message: 'The item changed: its ETag is no longer "3q2-7w"',
      },
    },
  },
  413: {
    description: 'The request body exceeds 16 KiB (16384 bytes)',
    examples: { payload_too_large: { message: 'Request body exceeds 16384 bytes' } },
  },
  415: {
    description:
      'The body is not JSON this API reads: its media type is not `application/json` or `application/merge-patch+json`, it names a charset other than UTF-8 (such as `application/json; charset=iso-8859-1`), or it has an unsupported `Content-Encoding`',
    examples: {
      media_type: {
        message:
          'Content-Type must be application/json or application/merge-patch+json, not text/plain',
      },
      charset: { message: 'Charset "iso-8859-1" is not supported' },
    },
  },
  429: {
    description:
      'The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially.',
    examples: {
      rate_limit_exceeded: {
        message: 'Rate limit exceeded: the minute quota of 60 requests is used up; retry in 12 s',
      },
      api_key_banned: {
        code: 'api_key_banned',
        message:
          'Banned for 600 s after too many requests over the rate limit; back off before retrying',
      },
    },
  },
  431: {
    description: 'The request headers are larger than the server accepts',
    examples: {
      headers_too_large: { message: 'Request headers are too large' },
    },
  },
  500: {
    description: 'An unexpected error; the message quotes the request id (also in `X-Request-Id`)',
    examples: {
      internal_error: {
        message:
          'An unexpected error occurred. Quote request id 0f8fad5b-d9cb-469f-a165-70867728950e when reporting it.',
      },
    },
  },
  503: {
    description:
      'A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds',
    examples: {
      database: {
        message: 'The database is unavailable or did not answer in time; retry shortly',
      },
      rate_limit_store: { message: 'Rate limiting is temporarily unavailable; retry shortly' },
    },
  },
};

const STATUS_CODE = new Map<number, ErrorCode>(
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    .reverse()
    .map(([code, status]) => [status, code]),
);
STATUS_CODE.set(429, 'rate_limit_exceeded');

export function errorExamples(
  status: number,
  doc: ErrorResponseDoc = ERROR_RESPONSES[status],
): Record<string, { summary: string; value: ErrorBody }> {
  return Object.fromEntries(
    Object.entries(doc.examples).map(([name, example]) => {
      const code = example.code ?? STATUS_CODE.get(status)!;
      return [name, { summary: name, value: { code, message: example.message, status } }];
    }),
  );
}

export function errorResponseObject(
  status: number,
  doc: ErrorResponseDoc = ERROR_RESPONSES[status],
) {
  return {
    description: doc.description,
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ErrorSchema) },
        examples: errorExamples(status, doc),
      },
    },
  };
}

// A status alone takes the shared description; a pair gives this operation's own.
export function ApiErrorResponses(
  ...responses: (number | [status: number, doc: ErrorResponseDoc])[]
): MethodDecorator {
  return applyDecorators(
    ...responses.map((entry) => {
      const [status, doc] = typeof entry === 'number' ? [entry, ERROR_RESPONSES[entry]] : entry;
      return ApiResponse({ status, ...errorResponseObject(status, doc) });
    }),
  );
}
