import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { RouterModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { OpenAPIObject } from '@nestjs/swagger';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/app-config.js';
import { buildOpenApiDocument, servers } from '../src/openapi/openapi.document.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const OPERATIONS = [
  ['/inventory', 'get', 'listInventory'],
  ['/inventory/changes', 'get', 'listInventoryChanges'],
  ['/inventory/{petId}', 'get', 'getInventoryItem'],
  ['/inventory/{petId}', 'patch', 'updateInventory'],
  ['/inventory/{petId}/adjustments', 'post', 'adjustInventory'],
  ['/inventory/batch', 'post', 'batchUpdateInventory'],
  ['/inventory/{petId}/changes', 'get', 'listPetInventoryChanges'],
  ['/pets/{petId}', 'get', 'getPetById'],
  ['/store/orders', 'get', 'listOrders'],
  ['/rate_limit', 'get', 'getRateLimit'],
  ['/inventory/{petId}/holds', 'post', 'createHold'],
  ['/inventory/{petId}/holds', 'get', 'listPetHolds'],
  ['/holds/{holdId}', 'get', 'getHold'],
  ['/holds/{holdId}/confirm', 'post', 'confirmHold'],
  ['/holds/{holdId}/release', 'post', 'releaseHold'],
] as const;

/** The spec's status tables, plus what the contract adds for each operation (others may add more). */
const SHARED = ['400', '401', '408', '429', '431', '500', '503'];
const STATUSES: Record<string, string[]> = {
  listInventory: ['200', '304', ...SHARED],
  updateInventory: ['200', '403', '404', '412', '413', '415', ...SHARED],
  adjustInventory: ['200', '403', '404', '409', '413', '415', '422', ...SHARED],
  batchUpdateInventory: ['200', '403', '404', '409', '413', '415', '422', ...SHARED],
  getInventoryItem: ['200', '404', ...SHARED],
  listInventoryChanges: ['200', '410', ...SHARED],
  listPetInventoryChanges: ['200', '404', '410', ...SHARED],
  getPetById: ['200', '304', '404', '410', ...SHARED],
  listOrders: ['200', '304', ...SHARED],
  getRateLimit: ['200', ...SHARED],
  createHold: ['201', '403', '404', '409', '413', '415', '422', ...SHARED],
  listPetHolds: ['200', '304', '404', ...SHARED],
  getHold: ['200', '304', '404', ...SHARED],
  confirmHold: ['200', '403', '404', '409', ...SHARED],
  releaseHold: ['200', '403', '404', '409', ...SHARED],
};

const STABILITY: Record<string, string> = {
  listInventory: 'beta',
  updateInventory: 'experimental',
  adjustInventory: 'experimental',
  batchUpdateInventory: 'experimental',
  getInventoryItem: 'experimental',
  listInventoryChanges: 'experimental',
  listPetInventoryChanges: 'experimental',
  getPetById: 'beta',
  listOrders: 'experimental',
  getRateLimit: 'beta',
  createHold: 'experimental',
  confirmHold: 'experimental',
  releaseHold: 'experimental',
  getHold: 'experimental',
  listPetHolds: 'experimental',
};

describe('OpenAPI document and Swagger UI (e2e)', () => {
  let t: TestApp;
  let doc: Json;
  const operation = (path: string, method: string): Json => doc.paths[path][method];

  beforeAll(async () => {
    t = await createTestApp({
      PUBLIC_BASE_URL: 'https://api.petstore.example/v1',
      STAGING_BASE_URL: 'https://staging.petstore.example/v1',
    });
    const res = await request(t.server)
      .get('/v1/openapi.json')
      .expect(200)
      .expect('Content-Type', /^application\/json/);
    doc = res.body;
  });
  afterAll(() => t.close());

  it('should pass a real OpenAPI validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    expect(doc.openapi).toMatch(/^3\./);
  });

  it('should carry version 1.0.0 and the two environments as servers', () => {
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([
      { url: 'https://api.petstore.example/v1', description: 'Production' },
      { url: 'https://staging.petstore.example/v1', description: 'Staging' },
    ]);
  });

  it('should describe exactly the /v1 operations, by their operationIds, relative to the servers', () => {
    const found = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, op]) => [path, method, (op as Json).operationId]),
    );
    expect(found.sort()).toEqual(OPERATIONS.map((entry) => [...entry]).sort());
  });

  it('should name the schemas of the spec, PetStatus as a named enum', () => {
    const schemas = doc.components.schemas;
    for (const name of ['InventoryItem', 'InventoryUpdate', 'PetStatus', 'Error', 'Pet', 'Order'])
      expect(schemas).toHaveProperty(name);
    expect(schemas.PetStatus).toMatchObject({
      type: 'string',
      enum: ['available', 'pending', 'sold'],
    });
    expect(schemas.InventoryItem.required).toEqual(['petId', 'quantity', 'status', 'available']);
    expect(schemas.InventoryItem.properties.petId).toMatchObject({
      type: 'integer',
      format: 'int64',
    });
    expect(JSON.stringify(schemas.InventoryItem.properties.status)).toContain(
      '#/components/schemas/PetStatus',
    );
    expect(JSON.stringify(schemas.Pet.properties.status)).toContain(
      '#/components/schemas/PetStatus',
    );
    expect(schemas.InventoryUpdate.required).toEqual(['quantity']);
    expect(schemas.Error.required).toEqual(['code', 'message', 'status']);
    expect(schemas.Pet.required).toEqual(['id', 'name', 'status']);
    expect(schemas.Order.required).toEqual(['id', 'petId', 'quantity', 'status', 'complete']);
    expect(Object.keys(schemas.Order.properties)).toEqual([
      'id',
      'petId',
      'quantity',
      'status',
      'shipDate',
      'complete',
    ]);
    expect(schemas.OrderStatus.enum).toEqual(['placed', 'approved', 'delivered']);
  });

  it("should take updateInventory's body as InventoryUpdate and petId as an int64 path parameter", () => {
    const update = operation('/inventory/{petId}', 'patch');
    expect(update.requestBody.required).toBe(true);
    expect(update.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/InventoryUpdate',
    });
    expect(update.parameters).toEqual([
      expect.objectContaining({
        name: 'petId',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ type: 'integer', format: 'int64' }),
      }),
      expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
    ]);
  });

  it('should require the bearer scheme on every operation', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, method] of OPERATIONS)
      expect(operation(path, method).security).toEqual([{ bearer: [] }]);
  });

  it('should document every status with the Error schema, 429 with Retry-After, and the rate-limit headers on every response', () => {
    for (const [path, method, id] of OPERATIONS) {
      const responses = operation(path, method).responses;
      expect(Object.keys(responses).sort(), id).toEqual([...STATUSES[id]].sort());
      for (const [status, response] of Object.entries(responses as Json)) {
        // 408 and 431 come from the HTTP layer, before the rate limiter sees the request.
        if (status !== '408' && status !== '431')
          expect(Object.keys(response.headers), `${id} ${status}`).toEqual(
            expect.arrayContaining([
              'X-RateLimit-Limit',
              'X-RateLimit-Remaining',
              'X-RateLimit-Reset',
              'RateLimit',
              'RateLimit-Policy',
            ]),
          );
        expect(response.headers['X-Request-Id'], `${id} ${status}`).toEqual({
          $ref: '#/components/headers/X-Request-Id',
        });
        if (Number(status) >= 400)
          expect(response.content['application/json'].schema, `${id} ${status}`).toEqual({
            $ref: '#/components/schemas/Error',
          });
      }
      expect(responses['429'].headers['Retry-After']).toEqual({
        $ref: '#/components/headers/Retry-After',
      });
    }
    expect(doc.components.headers['Retry-After']).toMatchObject({
      required: true,
      schema: { type: 'integer', minimum: 1 },
    });
    expect(doc.components.headers['X-RateLimit-Reset'].schema).toMatchObject({ type: 'integer' });
  });

  it('should mark required every header that every answer carries, and say when the others are absent', () => {
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit',
      'RateLimit-Policy',
      'X-Request-Id',
      'Retry-After',
      'WWW-Authenticate',
      'Deprecation',
      'Sunset',
      'Link',
    ])
      expect(doc.components.headers[name].required, name).toBe(true);
    const listing = operation('/inventory', 'get').responses;
    for (const status of ['200', '304']) {
      expect(listing[status].headers.ETag.required, status).toBe(true);
      expect(listing[status].headers['Cache-Control'].required, status).toBe(true);
    }
    expect(operation('/store/orders', 'get').responses['200'].headers.ETag.required).toBe(true);
    expect(operation('/inventory', 'get').responses['503'].headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
    for (const status of ['500', '503']) {
      const limit = listing[status].headers['X-RateLimit-Limit'];
      expect(limit.required, status).toBe(false);
      expect(limit.description).toMatch(/Absent when the failure came before the rate limiter/);
    }
  });

  it('should bound every integer the contract bounds, with its format', () => {
    const schemas = doc.components.schemas;
    const int32 = { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 };
    expect(schemas.InventoryItem.properties.quantity).toMatchObject(int32);
    expect(schemas.InventoryUpdate.properties.quantity).toMatchObject(int32);
    expect(schemas.Order.properties.quantity).toMatchObject({ ...int32, minimum: 1 });
    expect(schemas.Error.properties.status).toMatchObject({
      type: 'integer',
      format: 'int32',
      minimum: 100,
      maximum: 599,
    });
    expect(schemas.ErrorCode.enum).toEqual(
      expect.arrayContaining(['request_timeout', 'headers_too_large']),
    );
  });

  it("should describe each operation's own errors, with its own examples", () => {
    const pets400 = operation('/pets/{petId}', 'get').responses['400'];
    expect(pets400.description).toMatch(/^`petId` is not an integer from 1 to 9223372036854775807/);
    expect(JSON.stringify(pets400)).not.toMatch(/quantity|body/);
    expect(pets400.content['application/json'].examples.pet_id.value).toEqual({
      code: 'validation_failed',
      message: 'petId must be an integer from 1 to 9223372036854775807',
      status: 400,
    });
    const update = operation('/inventory/{petId}', 'patch').responses;
    expect(update['400'].content['application/json'].examples.quantity.value.message).toBe(
      'quantity must be an integer from 0 to 2147483647',
    );
    expect(update['415'].description).toContain('`application/json; charset=iso-8859-1`');
    expect(update['415'].content['application/json'].examples.charset.value).toEqual({
      code: 'unsupported_media_type',
      message: 'Charset "iso-8859-1" is not supported',
      status: 415,
    });
    expect(JSON.stringify(operation('/inventory', 'get').responses['400'])).not.toMatch(
      /quantity|petId/,
    );
    const unauthorized = operation('/inventory', 'get').responses['401'].content['application/json']
      .examples;
    expect(Object.keys(unauthorized)).toEqual([
      'missing',
      'no_scheme',
      'other_environment',
      'invalid_or_revoked',
    ]);
    expect(unauthorized.other_environment.value.message).toMatch(
      /^This API key belongs to production \(pk_live_…\), but this is the development server/,
    );
    for (const [path, method, id] of OPERATIONS) {
      const responses = operation(path, method).responses;
      expect(
        responses['408'].content['application/json'].examples.request_timeout.value,
        id,
      ).toMatchObject({ code: 'request_timeout', status: 408 });
      expect(
        responses['431'].content['application/json'].examples.headers_too_large.value,
        id,
      ).toMatchObject({ code: 'headers_too_large', status: 431 });
    }
  });

  it('should mark the stability of every operation, in x-stability and in the summary Swagger UI lists', () => {
    for (const [path, method, id] of OPERATIONS) {
      const op = operation(path, method);
      expect(op['x-stability'], id).toBe(STABILITY[id]);
      expect(op.summary).toMatch(new RegExp(`^\\[${STABILITY[id]}\\]`));
      expect(op.description).toContain(`Stability: ${STABILITY[id]}`);
    }
  });

  it('should give every operation the same stability in docs/api.md and the README as in the document', () => {
    const page = (name: string) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
    const documented = new Map<string, string>();
    for (const [path, method, id] of OPERATIONS)
      documented.set(id, operation(path, method)['x-stability']);
    const inApiMd = new Map(
      [...page('docs/api.md').matchAll(/^\| `(\w+)` +\| `(beta|experimental)`/gm)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    expect(inApiMd).toEqual(documented);
    // The README marks the experimental ones.
    const readme = page('README.md');
    for (const [id, stability] of documented) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${id}\``));
      expect(row, id).toBeDefined();
      expect(row!.includes('(experimental)'), id).toBe(stability === 'experimental');
    }
  });

  it('should deprecate GET /pets/{petId} only, with its sunset and the deprecation headers', () => {
    for (const [path, method, id] of OPERATIONS)
      expect(operation(path, method).deprecated === true, id).toBe(id === 'getPetById');
    const pets = operation('/pets/{petId}', 'get');
    expect(pets['x-sunset']).toBe('2027-06-30');
    expect(pets.summary).toContain('[deprecated]');
    for (const status of ['200', '404', '410']) {
      expect(Object.keys(pets.responses[status].headers)).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
      );
    }
  });

  it('should serve Swagger UI at /docs from the installed package, with no key', async () => {
    const html = await request(t.server)
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /^text\/html/);
    expect(html.text).toContain('swagger-ui-bundle.js');
    expect(html.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const asset of [
      'swagger-ui-bundle.js',
      'swagger-ui-standalone-preset.js',
      'swagger-ui.css',
      'swagger-ui-init.js',
    ]) {
      const res = await request(t.server).get(`/docs/${asset}`).expect(200);
      expect(res.text.length, asset).toBeGreaterThan(100);
    }
    const init = await request(t.server).get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toMatch(/"persistAuthorization":\s*true/);
    expect(init.text).toContain('"operationId": "updateInventory"');
  });

  it('should not count the document or the UI against any rate limit', async () => {
    const key = await t.createKey({ perMinute: 1 });
    for (let i = 0; i < 3; i++) {
      const res = await request(t.server)
        .get('/v1/openapi.json')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      await request(t.server).get('/docs/').expect(200);
    }
    const first = await request(t.server)
      .get('/v1/inventory')
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('document generation', () => {
  it('should list the configured base addresses, and otherwise this server by its environment', () => {
    expect(servers(loadConfig({ APP_ENV: 'production' }))).toEqual([
      { url: '/v1', description: 'This server (production)' },
    ]);
    expect(
      servers(loadConfig({ APP_ENV: 'staging', STAGING_BASE_URL: 'https://staging.example/v1' })),
    ).toEqual([{ url: 'https://staging.example/v1', description: 'Staging' }]);
    expect(
      servers(
        loadConfig({
          PUBLIC_BASE_URL: 'https://api.example/v1/',
          STAGING_BASE_URL: 'https://staging.example/v1',
        }),
      ),
    ).toEqual([
      { url: 'https://api.example/v1', description: 'Production' },
      { url: 'https://staging.example/v1', description: 'Staging' },
    ]);
  });

  it('should refuse to document an operation without a stability marking', async () => {
    @Controller('probe')
    class ProbeController {
      @Get()
      probe(): string {
        return 'ok';
      }
    }
    @Module({ controllers: [ProbeController] })
    class ProbeModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [ProbeModule, RouterModule.register([{ path: 'v1', module: ProbeModule }])],
    }).compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>();
    try {
      expect(() => buildOpenApiDocument(app, loadConfig({}))).toThrow(
        'probe needs @ApiStability(experimental | beta)',
      );
    } finally {
      await app.close();
    }
  });

  it('should leave out 429 and the rate-limit headers when rate limiting is off', async () => {
    const t = await createTestApp({ RATE_LIMIT_ENABLED: 'false' });
    try {
      const served = (await request(t.server).get('/v1/openapi.json').expect(200)).body as Json;
      const text = JSON.stringify(served.paths);
      expect(text).not.toMatch(/"429"|headers\/(X-)?RateLimit/);
      expect(Object.keys(served.components.headers)).not.toContain('X-RateLimit-Limit');
      expect(served.paths['/inventory'].get.responses['200'].headers['X-Request-Id']).toBeDefined();
    } finally {
      await t.close();
    }
  });

  it('should be the same document the app serves', async () => {
    const t = await createTestApp();
    try {
      const served = (await request(t.server).get('/v1/openapi.json').expect(200))
        .body as OpenAPIObject;
      expect(served).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(t.app, t.config))));
      // No base address configured: this server as what it is, never labelled production.
      expect(served.servers).toEqual([{ url: '/v1', description: 'This server (development)' }]);
    } finally {
      await t.close();
    }
  });
});
