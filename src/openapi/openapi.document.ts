import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { requiredScope } from '../auth/key-scope.js';
import type { AppConfig } from '../config/app-config.js';
import { PETS_DEPRECATED_AT } from '../config/app-config.js';
import { unauthorizedReason } from '../auth/unauthorized-message.js';
import { generateApiKey } from '../auth/api-key.codec.js';
import {
  ERROR_RESPONSES,
  STABILITIES,
  STABILITY_EXTENSION,
  STABILITY_NOTES,
  errorResponseObject,
  type ErrorResponseDoc,
  type Stability,
} from './api-docs.decorators.js';
import { ErrorSchema } from './error.schema.js';

// The spec-object types are not exported by @nestjs/swagger's entry point; derive them.
type PathItemObject = OpenAPIObject['paths'][string];
type OperationObject = NonNullable<PathItemObject['get']>;
type ResponseObject = Exclude<NonNullable<OperationObject['responses'][string]>, { $ref: string }>;
type ComponentsObject = NonNullable<OpenAPIObject['components']>;
type HeaderObject = Exclude<NonNullable<ComponentsObject['headers']>[string], { $ref: string }>;
type SchemaObject = NonNullable<ComponentsObject['schemas']>[string];
type ReferenceObject = { $ref: string };

export const API_VERSION = '1.0.0';
export const API_BASE_PATH = '/v1';
export const BEARER_SCHEME = 'bearer';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

// Each /v1 operation reads `Authorization`, needs a key and is rate limited, and the HTTP layer
// refuses slow or oversized requests before any route.
const SHARED_ERROR_STATUSES = [400, 401, 408, 429, 431, 500, 503];
/**
 * Refused by the HTTP layer: a 431, and a 408 for headers that came too slowly, before routing;
 * a 408 for a body that came too slowly after the limiter has counted the request.
 */
const HTTP_LAYER_STATUSES = new Set(['408', '431']);
const ANY_STEP_STATUSES = new Set(['500', '503']);
export const REQUIRED_SCOPE_EXTENSION = 'x-required-scope';

const DESCRIPTION = `Stock levels of a pet store's animals, over HTTP with JSON bodies.

**Authentication.** Every operation needs an API key sent as \`Authorization: Bearer <API_KEY>\`; use
**Authorize** to enter yours. Production keys start with \`pk_live_\`, staging and development keys with
\`pk_test_\`; a key works only in the environment that issued it.

**Scopes.** A key has the scope \`write\` (it may do everything) or \`read\` (it may only \`GET\`). Each
operation names the scope it needs in \`x-required-scope\`; an operation that needs \`write\`, called with a
\`read\` key, answers 403 \`forbidden\`, changes nothing, and counts against the rate limit. An expired key
is refused with 401 like an unknown one.

**Rate limits.** Per key and plan: free 60/min and 1,000/day, pro 300/10,000, business 1,000/100,000,
enterprise as agreed. Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\` (Unix seconds) for the window with the least remaining. Over the limit: 429 with
\`Retry-After\` (seconds); back off exponentially, since continuing after a 429 can get the key banned.

**Stability.** Each operation carries \`x-stability\`: *experimental* (the shape may still change) or
*beta* (settled: a breaking change comes only as a new operation, after a deprecation with a sunset
date). Deprecated operations answer with \`Deprecation\`, \`Sunset\` and \`Link\` headers, and 410
\`gone\` after their sunset date.

**Errors.** Every error has the body \`{code, message, status}\`, where \`status\` repeats the HTTP status.
A request the HTTP layer cannot read (a malformed request line or header, headers over 16 KiB, headers
sent too slowly) reaches no operation: it is answered 400, 431 or 408 with that body and \`X-Request-Id\`
only, never the rate-limit headers, and the connection is closed. Every 400 an operation answers, a
broken chunked body included, comes after the rate limiter and carries its headers.

**Identifiers** are 64-bit integers written as exact JSON numbers; parse them with a big-integer aware
JSON reader when they may exceed 2^53.`;

const ref = (kind: 'headers' | 'schemas', name: string): ReferenceObject => ({
  $ref: `#/components/${kind}/${name}`,
});

const HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window (minute or UTC day) with the least remaining',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window, this one counted',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
  'X-RateLimit-Reset': {
    description: 'When that window resets, in Unix seconds',
    required: true,
    schema: { type: 'integer', format: 'int64', minimum: 0 },
  },
  RateLimit: {
    description:
      'Every window\'s remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers)',
    required: true,
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'Every window\'s quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Whole seconds (at least 1) to wait before retrying',
    required: true,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
  },
  'X-Request-Id': {
    description:
      "The request's id (the client's own `X-Request-Id` when well formed); quote it when reporting a problem",
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use (RFC 6750)',
    required: true,
    schema: { type: 'string', example: 'Bearer realm="petstore"' },
  },
  Deprecation: {
    description: 'When the operation was deprecated, as `@<Unix seconds>` (RFC 9745)',
    required: true,
    schema: { type: 'string', pattern: '^@[0-9]+$', example: '@1782777600' },
  },
  Sunset: {
    description: 'When the operation stops being served, as an HTTP date (RFC 8594)',
    required: true,
    schema: { type: 'string', example: 'Wed, 30 Jun 2027 00:00:00 GMT' },
  },
  Link: {
    description:
      'Documentation of the deprecation (`rel="deprecation"`) and of the sunset (`rel="sunset"`)',
    required: true,
    schema: { type: 'string' },
  },
};

const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
];
/** Headers the deprecation interceptor adds; 401 and 429 are answered by guards, before it runs. */
const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'];

// Beside the production base address (`…/v1` -> `…/docs`); else relative (RFC 8288 §3.1).
export function operationDocsUrl(config: AppConfig, tag: string, operationId: string): string {
  return `${(config.http.publicBaseUrl ?? '').replace(/\/v1$/, '')}/docs#/${tag}/${operationId}`;
}

/** The dates of each deprecated operation; deprecating one without them fails the build. */
function deprecations(config: AppConfig): Record<string, { since: Date; sunset: Date }> {
  return { getPetById: { since: PETS_DEPRECATED_AT, sunset: config.pets.sunset } };
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function operations(document: OpenAPIObject): [string, string, OperationObject][] {
  return Object.entries(document.paths).flatMap(([path, item]: [string, PathItemObject]) =>
    HTTP_METHODS.filter((method) => item[method]).map(
      (method): [string, string, OperationObject] => [path, method, item[method]!],
    ),
  );
}

function rateLimitHeadersAlwaysSent(config: AppConfig): boolean {
  // Failing open, an answer served while the store is down was not counted: no counts to send.
  return config.rateLimit.enabled && !(config.redis && config.rateLimit.failOpen);
}

function optional(name: string, when: string): HeaderObject {
  const { description, schema } = HEADERS[name];
  return { description: `${description}. ${when}`, required: false, schema };
}

function headersFor(
  status: string,
  deprecated: boolean,
  config: AppConfig,
): Record<string, HeaderObject | ReferenceObject> {
  const headers: Record<string, HeaderObject | ReferenceObject> = {
    'X-Request-Id': ref('headers', 'X-Request-Id'),
  };
  if (HTTP_LAYER_STATUSES.has(status)) {
    if (status === '408' && config.rateLimit.enabled) {
      for (const name of RATE_LIMIT_HEADERS) {
        headers[name] = optional(
          name,
          'Sent when the body came too slowly (the request was counted); absent when the headers did.',
        );
      }
    }
    return headers;
  }
  const anyStep = ANY_STEP_STATUSES.has(status);
  if (config.rateLimit.enabled) {
    for (const name of RATE_LIMIT_HEADERS) {
      if (anyStep) {
        headers[name] = optional(
          name,
          'Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then).',
        );
      } else if (!rateLimitHeadersAlwaysSent(config) && name !== 'RateLimit-Policy') {
        headers[name] = optional(
          name,
          'Absent while the rate-limit store is unavailable: RATE_LIMIT_FAIL_OPEN serves such requests uncounted, with `RateLimit-Policy` only.',
        );
      } else {
        headers[name] = ref('headers', name);
      }
    }
  }
  if (status === '401') headers['WWW-Authenticate'] = ref('headers', 'WWW-Authenticate');
  if (status === '429' || status === '503') headers['Retry-After'] = ref('headers', 'Retry-After');
  if (deprecated && status !== '401' && status !== '429') {
    for (const name of DEPRECATION_HEADERS) {
      headers[name] = anyStep
        ? optional(name, 'Absent when the failure came before the operation was reached.')
        : ref('headers', name);
    }
  }
  return headers;
}

function withHeaders(
  response: ResponseObject,
  status: string,
  deprecated: boolean,
  config: AppConfig,
): ResponseObject {
  return {
    ...response,
    headers: { ...headersFor(status, deprecated, config), ...response.headers },
  };
}

function unauthorizedDoc(config: AppConfig): ErrorResponseDoc {
  const otherEnvironment = config.env === 'production' ? 'development' : 'production';
  const cases: Record<string, string | undefined> = {
    missing: undefined,
    no_scheme: generateApiKey(config.env),
    other_environment: `Bearer ${generateApiKey(otherEnvironment)}`,
    invalid_or_revoked: 'Bearer pk_test_0000',
  };
  return {
    description: ERROR_RESPONSES[401].description,
    examples: Object.fromEntries(
      Object.entries(cases).map(([name, header]) => [
        name,
        { message: unauthorizedReason(header, config.env).message },
      ]),
    ),
  };
}

function completeOperation(
  operation: OperationObject,
  path: string,
  method: string,
  config: AppConfig,
): void {
  const extensions = operation as unknown as Record<`x-${string}`, unknown>;
  const stability = extensions[STABILITY_EXTENSION] as Stability | undefined;
  if (!stability || !STABILITIES.includes(stability)) {
    throw new Error(
      `${operation.operationId ?? path} needs @ApiStability(${STABILITIES.join(' | ')})`,
    );
  }
  operation.security = [{ [BEARER_SCHEME]: [] }];
  // OpenAPI 3.0 lists scopes only for OAuth2 schemes, so a bearer key's scope is an extension.
  const scope = requiredScope(method);
  extensions[REQUIRED_SCOPE_EXTENSION] = scope;

  // The marking shows in Swagger UI's operation list (summary) and details (description).
  const badges = [
    stability,
    ...(operation.deprecated ? ['deprecated'] : []),
    ...(scope === 'write' ? ['write scope'] : []),
  ]
    .map((badge) => `[${badge}]`)
    .join(' ');
  operation.summary = `${badges} ${operation.summary ?? ''}`.trim();
  const notes = [`**Stability: ${stability}.** ${STABILITY_NOTES[stability]}`];
  notes.push(
    scope === 'write'
      ? '**Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.'
      : '**Any key**, `read` or `write`.',
  );
  if (scope === 'write')
    operation.responses[403] ??= errorResponseObject(403, ERROR_RESPONSES[403]);
  if (operation.deprecated) {
    const dates = deprecations(config)[operation.operationId ?? ''];
    if (!dates)
      throw new Error(`${operation.operationId ?? path} is deprecated without a sunset date`);
    const sunset = isoDate(dates.sunset);
    extensions['x-sunset'] = sunset;
    notes.push(
      `**Deprecated** since ${isoDate(dates.since)}; sunset on ${sunset}. Responses carry \`Deprecation\`, ` +
        `\`Sunset\` and \`Link\` headers; after the sunset the operation answers 410 \`gone\`.`,
    );
  }
  operation.description = [...notes, operation.description].filter(Boolean).join('\n\n');

  for (const status of SHARED_ERROR_STATUSES) {
    if (status === 429 && !config.rateLimit.enabled) continue;
    operation.responses[status] ??= errorResponseObject(
      status,
      status === 401 ? unauthorizedDoc(config) : ERROR_RESPONSES[status],
    );
  }
  for (const [status, response] of Object.entries(
    operation.responses as Record<string, ResponseObject>,
  )) {
    operation.responses[status] = withHeaders(
      response,
      status,
      operation.deprecated === true,
      config,
    );
  }
}

function closeObjectSchemas(schemas: Record<string, SchemaObject | ReferenceObject>): void {
  for (const schema of Object.values(schemas)) {
    if ('type' in schema && schema.type === 'object') schema.additionalProperties = false;
  }
}

// Without configured base addresses, this server under its own name, so that Swagger UI never
// offers a local server as production.
export function servers(config: AppConfig): { url: string; description: string }[] {
  const { publicBaseUrl, stagingBaseUrl } = config.http;
  const listed = [
    ...(publicBaseUrl ? [{ url: publicBaseUrl, description: 'Production' }] : []),
    ...(stagingBaseUrl ? [{ url: stagingBaseUrl, description: 'Staging' }] : []),
  ];
  return listed.length > 0
    ? listed
    : [{ url: API_BASE_PATH, description: `This server (${config.env})` }];
}

// Paths are relative to the servers, which end in /v1; routes outside /v1 (health, metrics) are
// not operations of the API.
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle('Pet Store Inventory API')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description:
          'An API key: `pk_live_…` in production, `pk_test_…` in staging and development. A `read` key may only `GET`; operations marked `x-required-scope: write` need a `write` key.',
      },
      BEARER_SCHEME,
    )
    .addTag('inventory', 'Stock levels per pet')
    .addTag('holds', 'Units kept for a buyer until sold, released or expired')
    .addTag('pets', 'The pet catalogue')
    .addTag('store', 'Orders placed with the store')
    .addTag('rate limit', "The caller's rate-limit standing")
    .build();
  const scanned = SwaggerModule.createDocument(app, base, {
    operationIdFactory: (_controller, method) => method,
    extraModels: [ErrorSchema],
  });

  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(scanned.paths)) {
    if (!path.startsWith(`${API_BASE_PATH}/`)) continue;
    paths[path.slice(API_BASE_PATH.length)] = item;
  }
  const document: OpenAPIObject = {
    ...scanned,
    servers: servers(config),
    paths,
    security: [{ [BEARER_SCHEME]: [] }],
  };
  document.components = { ...document.components, headers: HEADERS };
  for (const [path, method, operation] of operations(document))
    completeOperation(operation, path, method, config);
  closeObjectSchemas(document.components.schemas ?? {});
  // Only the headers some answer refers to (with rate limiting off, none of its own).
  const referenced = JSON.stringify(document.paths);
  document.components.headers = Object.fromEntries(
    Object.entries(HEADERS).filter(([name]) =>
      referenced.includes(`"#/components/headers/${name}"`),
    ),
  );
  return document;
}
