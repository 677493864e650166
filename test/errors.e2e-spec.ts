import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const ERROR_BODY = {
  code: expect.any(String),
  message: expect.any(String),
  status: expect.any(Number),
};

describe('errors (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  });

  const patchRaw = (body: string | Buffer, contentType?: string) => {
    const req = request(t.server).patch('/v1/inventory/1').set('Authorization', `Bearer ${key}`);
    if (contentType) req.set('Content-Type', contentType);
    return req.send(body);
  };
  const quantityOfPet1 = async () =>
    (await request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${key}`)).body[0]
      .quantity;

  it('should answer an unknown /v1 route with 404 not_found', async () => {
    const res = await request(t.server)
      .get('/v1/nothing/here')
      .set('Authorization', `Bearer ${key}`)
      .expect(404);
    expect(res.body).toEqual({
      code: 'not_found',
      message: 'No route for GET /v1/nothing/here',
      status: 404,
    });
  });

  it('should answer an unknown route outside /v1 with 404 not_found', async () => {
    const res = await request(t.server).post('/nope').expect(404);
    expect(res.body).toEqual({
      code: 'not_found',
      message: 'No route for POST /nope',
      status: 404,
    });
  });

  it('should answer a method the resource lacks with 404 not_found', async () => {
    const res = await request(t.server)
      .delete('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .expect(404);
    expect(res.body.code).toBe('not_found');
  });

  it.each([
    ['truncated JSON', '{"quantity": 1'],
    ['a bare word', 'quantity'],
    ['a JSON string', '"5"'],
    ['a JSON number', '5'],
    ['an empty body', ''],
  ])('should answer %s with 400 validation_failed and change nothing', async (_name, body) => {
    const res = await patchRaw(body, 'application/json').expect(400);
    expect(res.body).toEqual({ ...ERROR_BODY, code: 'validation_failed', status: 400 });
    expect(await quantityOfPet1()).toBe(5);
  });

  it('should answer a body over 16 KiB with 413 payload_too_large', async () => {
    const body = JSON.stringify({ quantity: 1, pad: 'x'.repeat(16 * 1024) });
    const res = await patchRaw(body, 'application/json').expect(413);
    expect(res.body).toEqual({
      code: 'payload_too_large',
      message: 'Request body exceeds 16384 bytes',
      status: 413,
    });
    expect(await quantityOfPet1()).toBe(5);
  });

  it('should accept a body of exactly 16 KiB', async () => {
    const json = JSON.stringify({ quantity: 7 });
    const body = json.slice(0, -1) + ' '.repeat(16 * 1024 - json.length) + '}';
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    await patchRaw(body, 'application/json').expect(200);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
    'multipart/form-data; boundary=x',
  ])('should answer Content-Type %s with 415 unsupported_media_type', async (type) => {
    const res = await patchRaw('{"quantity":1}', type).expect(415);
    expect(res.body).toEqual({ ...ERROR_BODY, code: 'unsupported_media_type', status: 415 });
    expect(await quantityOfPet1()).toBe(5);
  });

  it('should answer a body without Content-Type with 415', async () => {
    const res = await request(t.server)
      .patch('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', '')
      .send(Buffer.from('{"quantity":1}'))
      .expect(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('should accept a charset parameter and reject an unsupported charset with 415', async () => {
    await patchRaw('{"quantity":2}', 'application/json; charset=utf-8').expect(200);
    const res = await patchRaw('{"quantity":2}', 'application/json; charset=latin-9').expect(415);
    expect(res.body.code).toBe('unsupported_media_type');
    // UTF-7 would turn `+ADc-` into 7; JSON is UTF-8 alone (RFC 8259 section 8.1).
    for (const charset of ['utf-7', 'UTF-16', 'utf-32le']) {
      const other = await patchRaw('{"quantity":+ADc-}', `application/json; charset=${charset}`);
      expect(other.status, charset).toBe(415);
      expect(other.body.code).toBe('unsupported_media_type');
    }
    // The document's example of this answer.
    const latin1 = await patchRaw('{"quantity":2}', 'application/json; charset=iso-8859-1');
    expect(latin1.body).toEqual({
      code: 'unsupported_media_type',
      message: 'Charset "iso-8859-1" is not supported',
      status: 415,
    });
  });

  it('should answer a failure inside the service with 500 internal_error revealing nothing', async () => {
    // Renamed rather than dropped: PostgreSQL refuses to drop a table that orders reference.
    await t.app.get(DataSource).query('ALTER TABLE pets RENAME TO pets_gone');
    try {
      const res = await request(t.server)
        .get('/v1/inventory')
        .set('Authorization', `Bearer ${key}`)
        .set('X-Request-Id', 'trace-500')
        .expect(500);
      expect(res.body).toEqual({
        code: 'internal_error',
        message: 'An unexpected error occurred. Quote request id trace-500 when reporting it.',
        status: 500,
      });
      expect(res.text).not.toMatch(/pets|SQLITE|sql|stack|at \w+ \(/i);
      expect(res.headers['x-request-id']).toBe('trace-500');
    } finally {
      await t.close();
      t = await createTestApp();
    }
  });

  it('should put an X-Request-Id on every response, keeping a well-formed one from the client', async () => {
    const generated = await request(t.server)
      .get('/v1/inventory')
      .set('Authorization', `Bearer ${key}`);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(t.server).get('/v1/inventory').set('X-Request-Id', 'abc-123');
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await request(t.server)
      .get('/health')
      .set('X-Request-Id', 'bad id\twith spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should not advertise the framework', async () => {
    const res = await request(t.server).get('/health');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
