import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Ajv, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { afterAll, afterEach } from 'vitest';
import type { AppConfig } from '../../src/config/app-config.js';
import { API_BASE_PATH, buildOpenApiDocument } from '../../src/openapi/openapi.document.js';

type Schema = Record<string, unknown>;
interface HeaderSpec {
  required?: boolean;
  schema?: Schema;
}
interface ResponseSpec {
  headers?: Record<string, HeaderSpec>;
  content?: Record<string, { schema?: Schema }>;
}
interface OperationSpec {
  operationId?: string;
  responses: Record<string, ResponseSpec>;
}

/** One response as the client received it. */
export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const addFormats = ((ajvFormats as { default?: unknown }).default ?? ajvFormats) as (
  ajv: Ajv,
) => Ajv;

/**
 * Headers of HTTP itself (framing, content, CORS) and the security policies every answer
 * carries: they describe the transport, not the API, so the document leaves them out. Every
 * other header an answer carries must be documented for it.
 */
const TRANSPORT_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'content-security-policy',
  'cross-origin-resource-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
]);
const CORS_HEADER = /^access-control-/;
/**
 * A 5xx can come from any step, before or after the one that sets a header, so one test file
 * seeing a header on all its 5xx answers does not show that every 5xx carries it. So can a 408:
 * the clock runs out at whatever step the request is, and the 408s answered before Express
 * (headers too slow) are never recorded here.
 */
const ANY_STEP_STATUS = /^(5|408)/;

function pathPattern(template: string): RegExp {
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+');
  // Express matches routes case-insensitively and ignores one trailing slash.
  return new RegExp(`^${API_BASE_PATH}${source}/?$`, 'i');
}

/**
 * Checks responses against the generated OpenAPI document: the status must be documented for
 * the operation, the body must match that status's schema (and an Error's `status` the HTTP
 * status), every header sent must be documented for that answer, and documented headers must be
 * present when required and well formed when sent; over all the answers seen, a header documented
 * as optional must have been missing from at least one. Requests that match no operation must be
 * answered with an Error body.
 */
export class OpenApiResponseChecker {
  private readonly validators = new Map<Schema, ValidateFunction>();
  private readonly ajv: Ajv;
  private readonly routes: {
    method: string;
    pattern: RegExp;
    template: string;
    operation: OperationSpec;
  }[];
  private readonly errorSchema: Schema;
  /** For each documented optional header, whether any answer was seen without it. */
  private readonly optionalSeen = new Map<string, { present: number; absent: number }>();

  private constructor(document: OpenAPIObject) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    this.ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31,
    });
    this.routes = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item as Record<string, OperationSpec>)
        .filter(([, value]) => typeof value === 'object' && value !== null && 'responses' in value)
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          pattern: pathPattern(template),
          template,
          operation,
        })),
    );
    this.errorSchema = document.components!.schemas!.Error as Schema;
  }

  /** The document is dereferenced (a copy), so every schema below is self-contained. */
  static async create(document: OpenAPIObject): Promise<OpenApiResponseChecker> {
    const dereferenced = (await SwaggerParser.dereference(
      structuredClone(document) as never,
    )) as unknown as OpenAPIObject;
    return new OpenApiResponseChecker(dereferenced);
  }

  /** Every way the response departs from the document; empty when it conforms. */
  check(response: RecordedResponse): string[] {
    const where = `${response.method} ${response.path} -> ${response.status}`;
    const route = this.routes.find(
      (r) => r.method === response.method && r.pattern.test(response.path),
    );
    if (!route) {
      return this.checkBody(where, response, this.errorSchema);
    }
    const spec = route.operation.responses[String(response.status)];
    if (!spec) {
      return [
        `${where}: status ${response.status} is not documented for ${route.operation.operationId ?? route.template}`,
      ];
    }
    const problems = this.checkHeaders(where, response, spec.headers ?? {});
    this.observeOptional(route, String(response.status), response, spec.headers ?? {});
    const schema = spec.content?.['application/json']?.schema;
    if (schema) problems.push(...this.checkBody(where, response, schema));
    else if (response.body.length > 0)
      problems.push(`${where}: a body was sent where the document describes none`);
    return problems;
  }

  /**
   * Headers documented as optional that every answer seen so far carried: a client generated
   * from the document would treat as optional what is in fact always there.
   */
  optionalHeadersAlwaysSent(): string[] {
    return [...this.optionalSeen]
      .filter(([, seen]) => seen.present > 0 && seen.absent === 0)
      .map(
        ([key, seen]) =>
          `${key}: documented as optional, yet sent on every one of the ${seen.present} answers seen; mark it required: true`,
      );
  }

  private observeOptional(
    route: { method: string; template: string },
    status: string,
    response: RecordedResponse,
    headers: Record<string, HeaderSpec>,
  ): void {
    if (ANY_STEP_STATUS.test(status)) return;
    for (const [name, spec] of Object.entries(headers)) {
      if (spec.required) continue;
      const key = `${route.method} ${route.template} -> ${status}: header ${name}`;
      const seen = this.optionalSeen.get(key) ?? { present: 0, absent: 0 };
      if (response.headers[name.toLowerCase()] === undefined) seen.absent++;
      else seen.present++;
      this.optionalSeen.set(key, seen);
    }
  }

  private checkHeaders(
    where: string,
    response: RecordedResponse,
    headers: Record<string, HeaderSpec>,
  ): string[] {
    const problems: string[] = [];
    const documented = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
    for (const name of Object.keys(response.headers)) {
      const lower = name.toLowerCase();
      if (!documented.has(lower) && !TRANSPORT_HEADERS.has(lower) && !CORS_HEADER.test(lower))
        problems.push(`${where}: header ${name} is sent but not documented for this answer`);
    }
    for (const [name, spec] of Object.entries(headers)) {
      const raw = response.headers[name.toLowerCase()];
      if (raw === undefined) {
        if (spec.required) problems.push(`${where}: required header ${name} is missing`);
        continue;
      }
      const text = String(raw);
      const schema = spec.schema ?? {};
      const value = schema.type === 'integer' && /^-?\d+$/.test(text) ? Number(text) : text;
      const validate = this.validator(schema);
      if (!validate(value))
        problems.push(
          `${where}: header ${name}: ${JSON.stringify(text)} ${this.ajv.errorsText(validate.errors)}`,
        );
    }
    return problems;
  }

  private checkBody(where: string, response: RecordedResponse, schema: Schema): string[] {
    const contentType = String(response.headers['content-type'] ?? '');
    if (!/^application\/json\b/i.test(contentType))
      return [`${where}: content-type ${JSON.stringify(contentType)} is not JSON`];
    let body: unknown;
    try {
      // Numbers beyond 2^53 lose digits here but stay integers, which is all a schema can check.
      body = JSON.parse(response.body);
    } catch {
      return [`${where}: the body is not JSON: ${response.body.slice(0, 200)}`];
    }
    const validate = this.validator(schema);
    const problems = validate(body)
      ? []
      : [
          `${where}: body ${response.body.slice(0, 300)} does not match: ${this.ajv.errorsText(validate.errors)}`,
        ];
    if (schema === this.errorSchema && (body as { status?: unknown }).status !== response.status) {
      problems.push(
        `${where}: the Error body's status ${(body as { status?: unknown }).status} differs from the HTTP status`,
      );
    }
    return problems;
  }

  private validator(schema: Schema): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}

/**
 * Express middleware that records every /v1 response as it is sent and hands it to `onResponse`.
 * The check runs inside `res.end`, so it has happened before the client sees the response.
 */
export function recordApiResponses(
  onResponse: (response: RecordedResponse) => void,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // The path as Express routes it: url.parse ends it at a `?` or at a `#` (which Node lets
    // through in a request target).
    const path = req.originalUrl.split(/[?#]/)[0];
    if (!new RegExp(`^${API_BASE_PATH}(/|$)`, 'i').test(path) || req.method === 'HEAD')
      return next();
    const chunks: Buffer[] = [];
    const collect = (chunk: unknown, encoding?: unknown): void => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(
              chunk as string,
              typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
            ),
      );
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      onResponse({
        method: req.method,
        path,
        status: res.statusCode,
        headers: res.getHeaders(),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      return end(chunk, ...rest);
    }) as Response['end'];
    next();
  };
}

const violations: string[] = [];
const checkers: OpenApiResponseChecker[] = [];

function reportViolations(): void {
  if (violations.length === 0) return;
  const found = violations.splice(0);
  throw new Error(`Responses departed from the OpenAPI document:\n- ${found.join('\n- ')}`);
}

// Every e2e spec that boots an app through createTestApp gets these checks without asking:
// a test fails when a response it caused does not match the document.
afterEach(reportViolations);
afterAll(() => {
  for (const checker of checkers.splice(0)) violations.push(...checker.optionalHeadersAlwaysSent());
  reportViolations();
});

/**
 * Checks every /v1 response of this app against the document it serves. Call between
 * configureApp() and app.init(), so the recorder sees requests before Nest's routes do.
 */
export async function installOpenApiResponseChecks(
  app: NestExpressApplication,
  config: AppConfig,
): Promise<void> {
  const checker = await OpenApiResponseChecker.create(buildOpenApiDocument(app, config));
  checkers.push(checker);
  app.use(recordApiResponses((response) => violations.push(...checker.check(response))));
}
