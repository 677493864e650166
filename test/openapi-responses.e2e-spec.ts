import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi/openapi.document.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import {
  OpenApiResponseChecker,
  recordApiResponses,
  type RecordedResponse,
} from './support/openapi-responses.js';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
/** What every /v1 answer carries. */
const COMMON_HEADERS = {
  ...JSON_TYPE,
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1795261400',
  ratelimit: '"minute";r=59;t=30, "day";r=999;t=43170',
  'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
  'x-request-id': 'req-1',
};
const LISTING_HEADERS = {
  etag: '"abc"',
  'cache-control': 'private, no-cache',
  'x-changes-cursor': 'c1',
};
const DEPRECATION_HEADERS = {
  deprecation: '@1782777600',
  sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
  link: '</docs#/pets/getPetById>; rel="deprecation"; type="text/html"',
};

function response(overrides: Partial<RecordedResponse>): RecordedResponse {
  return {
    method: 'GET',
    path: '/v1/inventory',
    status: 200,
    headers: { ...COMMON_HEADERS, ...LISTING_HEADERS },
    body: '[]',
    ...overrides,
  };
}

describe("the e2e suite's response checks", () => {
  let t: TestApp;
  let checker: OpenApiResponseChecker;

  beforeAll(async () => {
    t = await createTestApp();
    checker = await OpenApiResponseChecker.create(buildOpenApiDocument(t.app, t.config));
  });
  afterAll(() => t.close());

  it('should accept responses that match the document', () => {
    expect(
      checker.check(
        response({
          body: '[{"petId":9007199254740993,"quantity":1,"status":"sold","available":1}]',
        }),
      ),
    ).toEqual([]);
    expect(
      checker.check(
        response({
          method: 'PATCH',
          path: '/v1/inventory/7',
          headers: { ...COMMON_HEADERS, etag: '"7-0-sold"' },
          body: '{"petId":7,"quantity":0,"status":"sold","available":0}',
        }),
      ),
    ).toEqual([]);
    expect(
      checker.check(
        response({
          status: 429,
          headers: { ...COMMON_HEADERS, 'retry-after': '12' },
          body: '{"code":"rate_limit_exceeded","message":"slow down","status":429}',
        }),
      ),
    ).toEqual([]);
    expect(
      checker.check(
        response({
          path: '/v1/nowhere',
          status: 404,
          body: '{"code":"not_found","message":"No route","status":404}',
        }),
      ),
    ).toEqual([]);
  });

  it('should report a status the operation does not document', () => {
    expect(checker.check(response({ status: 418 }))).toEqual([
      'GET /v1/inventory -> 418: status 418 is not documented for listInventory',
    ]);
  });

  it('should report bodies that do not match the schema, extra fields included', () => {
    const [extra] = checker.check(
      response({ body: '[{"petId":1,"quantity":1,"status":"sold","name":"Rex"}]' }),
    );
    expect(extra).toMatch(/must NOT have additional properties/);
    expect(
      checker.check(response({ body: '[{"petId":"1","quantity":1,"status":"sold"}]' }))[0],
    ).toMatch(/petId must be integer/);
    expect(
      checker.check(
        response({ body: '[{"petId":1,"quantity":1,"status":"lost","available":1}]' }),
      )[0],
    ).toMatch(/must be equal to one of the allowed values/);
    expect(
      checker.check(
        response({
          method: 'GET',
          path: '/v1/pets/1',
          body: '{"id":1,"status":"sold"}',
          headers: { ...COMMON_HEADERS, ...DEPRECATION_HEADERS, etag: 'W/"1"' },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([expect.stringMatching(/must have required property 'name'/)]),
    );
  });

  it('should report missing required headers and malformed ones', () => {
    expect(
      checker.check(
        response({
          status: 429,
          headers: COMMON_HEADERS,
          body: '{"code":"rate_limit_exceeded","message":"m","status":429}',
        }),
      ),
    ).toEqual(['GET /v1/inventory -> 429: required header Retry-After is missing']);
    expect(
      checker.check(
        response({
          headers: { ...COMMON_HEADERS, ...LISTING_HEADERS, 'x-ratelimit-remaining': 'lots' },
        }),
      )[0],
    ).toMatch(/header X-RateLimit-Remaining/);
    expect(
      checker.check(
        response({
          path: '/v1/pets/1',
          headers: { ...COMMON_HEADERS, etag: 'W/"1"' },
          body: '{"id":1,"name":null,"status":"sold"}',
        }),
      ),
    ).toEqual([
      'GET /v1/pets/1 -> 200: required header Deprecation is missing',
      'GET /v1/pets/1 -> 200: required header Sunset is missing',
      'GET /v1/pets/1 -> 200: required header Link is missing',
    ]);
  });

  it("should require the headers every answer carries: rate limits, request id, the listing's validators", () => {
    const { etag: _etag, ...withoutEtag } = LISTING_HEADERS;
    const { 'x-request-id': _id, ratelimit: _rl, ...withoutIdAndRateLimit } = COMMON_HEADERS;
    expect(
      checker.check(response({ headers: { ...withoutIdAndRateLimit, ...withoutEtag } })),
    ).toEqual([
      'GET /v1/inventory -> 200: required header X-Request-Id is missing',
      'GET /v1/inventory -> 200: required header RateLimit is missing',
      'GET /v1/inventory -> 200: required header ETag is missing',
    ]);
  });

  it('should report a header sent on an answer whose documentation lacks it', () => {
    expect(
      checker.check(
        response({ headers: { ...COMMON_HEADERS, ...LISTING_HEADERS, 'x-cache': 'hit' } }),
      ),
    ).toEqual([
      'GET /v1/inventory -> 200: header x-cache is sent but not documented for this answer',
    ]);
    expect(
      checker.check(
        response({
          status: 401,
          headers: {
            ...COMMON_HEADERS,
            'www-authenticate': 'Bearer realm="petstore"',
            etag: 'W/"x"',
          },
          body: '{"code":"unauthorized","message":"m","status":401}',
        }),
      ),
    ).toEqual(['GET /v1/inventory -> 401: header etag is sent but not documented for this answer']);
    // HTTP's own headers and the security policies are the transport's, not the API's.
    expect(
      checker.check(
        response({
          headers: {
            ...COMMON_HEADERS,
            ...LISTING_HEADERS,
            'content-length': '2',
            'x-content-type-options': 'nosniff',
            'access-control-expose-headers': 'X-Request-Id',
          },
        }),
      ),
    ).toEqual([]);
  });

  it('should report a header documented as optional that every answer carried', async () => {
    const fresh = await OpenApiResponseChecker.create(
      buildOpenApiDocument(t.app, {
        ...t.config,
        rateLimit: { ...t.config.rateLimit, failOpen: true },
        redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'p:', commandTimeoutMs: 10 },
      }),
    );
    expect(fresh.check(response({}))).toEqual([]);
    expect(fresh.check(response({}))).toEqual([]);
    expect(fresh.optionalHeadersAlwaysSent()).toEqual(
      ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit'].map(
        (name) =>
          `GET /inventory -> 200: header ${name}: documented as optional, yet sent on every one of the 2 answers seen; mark it required: true`,
      ),
    );
    const { ratelimit: _rl, ...served } = COMMON_HEADERS;
    expect(fresh.check(response({ headers: { ...served, ...LISTING_HEADERS } }))).toEqual([]);
    expect(fresh.optionalHeadersAlwaysSent()).toEqual([
      expect.stringContaining('header X-RateLimit-Limit'),
      expect.stringContaining('header X-RateLimit-Remaining'),
      expect.stringContaining('header X-RateLimit-Reset'),
    ]);
  });

  it('should hold unknown routes to the Error body, its status the HTTP status', () => {
    expect(
      checker.check(response({ path: '/v1/nowhere', status: 404, body: '{"message":"nope"}' }))[0],
    ).toMatch(/must have required property 'code'/);
    expect(
      checker.check(
        response({
          path: '/v1/nowhere',
          status: 404,
          body: '{"code":"not_found","message":"m","status":400}',
        }),
      ),
    ).toEqual(["GET /v1/nowhere -> 404: the Error body's status 400 differs from the HTTP status"]);
    expect(
      checker.check(
        response({
          path: '/v1/nowhere',
          status: 404,
          headers: { 'content-type': 'text/html' },
          body: '<p>',
        }),
      )[0],
    ).toMatch(/is not JSON/);
  });

  it('should record each /v1 response exactly as it was sent, and nothing else', async () => {
    const recorded: RecordedResponse[] = [];
    const server = express()
      .use(recordApiResponses((r) => recorded.push(r)))
      .get('/v1/things', (_req, res) => {
        res.status(201).set('X-RateLimit-Limit', '5');
        res.write('{"a":');
        res.end('1}');
      })
      .get('/health', (_req, res) => res.json({ status: 'ok' }));
    await request(server).get('/v1/things?x=1').expect(201);
    await request(server).get('/health').expect(200);
    expect(recorded).toEqual([
      {
        method: 'GET',
        path: '/v1/things',
        status: 201,
        headers: expect.objectContaining({ 'x-ratelimit-limit': '5' }),
        body: '{"a":1}',
      },
    ]);
  });
});
