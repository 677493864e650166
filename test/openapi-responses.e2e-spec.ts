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
const LIMIT_HEADERS = {
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1795261400',
};

function response(overrides: Partial<RecordedResponse>): RecordedResponse {
  return {
    method: 'GET',
    path: '/v1/inventory',
    status: 200,
    headers: { ...JSON_TYPE, ...LIMIT_HEADERS },
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
        response({ body: '[{"petId":9007199254740993,"quantity":1,"status":"sold"}]' }),
      ),
    ).toEqual([]);
    expect(
      checker.check(
        response({
          method: 'PATCH',
          path: '/v1/inventory/7',
          body: '{"petId":7,"quantity":0,"status":"sold"}',
        }),
      ),
    ).toEqual([]);
    expect(
      checker.check(
        response({
          status: 429,
          headers: { ...JSON_TYPE, 'retry-after': '12' },
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
      checker.check(response({ body: '[{"petId":1,"quantity":1,"status":"lost"}]' }))[0],
    ).toMatch(/must be equal to one of the allowed values/);
    expect(
      checker.check(
        response({
          method: 'GET',
          path: '/v1/pets/1',
          body: '{"id":1,"status":"sold"}',
          headers: { ...JSON_TYPE },
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
          headers: JSON_TYPE,
          body: '{"code":"rate_limit_exceeded","message":"m","status":429}',
        }),
      ),
    ).toEqual(['GET /v1/inventory -> 429: required header Retry-After is missing']);
    expect(
      checker.check(response({ headers: { ...JSON_TYPE, 'x-ratelimit-remaining': 'lots' } }))[0],
    ).toMatch(/header X-RateLimit-Remaining/);
    expect(
      checker.check(response({ path: '/v1/pets/1', body: '{"id":1,"name":null,"status":"sold"}' })),
    ).toEqual([
      'GET /v1/pets/1 -> 200: required header Deprecation is missing',
      'GET /v1/pets/1 -> 200: required header Sunset is missing',
      'GET /v1/pets/1 -> 200: required header Link is missing',
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
