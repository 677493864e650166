import { Logger } from '@nestjs/common';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PETS_DEPRECATED_AT, loadConfig } from '../src/config/app-config.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const DOCS = 'https://api.petstore.example/docs#/pets/getPetById';

describe('GET /v1/pets/{petId} (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_BASE_URL: 'https://api.petstore.example/v1' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey();
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 2n, name: null, status: 'pending', quantity: 1 },
      { petId: 9007199254740993n, name: 'Big Ben', status: 'sold', quantity: 0 },
    ]);
  });
  afterEach(() => vi.restoreAllMocks());

  const get = (id: string) =>
    request(t.server).get(`/v1/pets/${id}`).set('Authorization', `Bearer ${key}`);

  it('should return 200 with exactly {id, name, status}', async () => {
    const res = await get('1')
      .expect(200)
      .expect('Content-Type', /^application\/json/);
    expect(res.body).toEqual({ id: 1, name: 'Rex', status: 'available' });
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'status']);
  });

  it('should send a weak ETag of the body and answer a matching If-None-Match with 304', async () => {
    const first = await get('1').expect(200);
    expect(first.headers.etag).toMatch(/^W\/"[^"]+"$/);
    expect((await get('2')).headers.etag).not.toBe(first.headers.etag);
    const revalidated = await get('1').set('If-None-Match', first.headers.etag).expect(304);
    expect(revalidated.text).toBeFalsy();
    expect(revalidated.headers.etag).toBe(first.headers.etag);
  });

  it('should write an id beyond 2^53 exactly', async () => {
    const res = await get('9007199254740993').expect(200);
    expect(res.text).toBe('{"id":9007199254740993,"name":"Big Ben","status":"sold"}');
  });

  it('should show name null for a pet the catalogue holds no name for', async () => {
    expect((await get('2').expect(200)).body).toEqual({ id: 2, name: null, status: 'pending' });
  });

  it('should mark the response deprecated (RFC 9745) with a sunset (RFC 8594) and documentation links', async () => {
    const res = await get('1').expect(200);
    expect(res.headers.deprecation).toBe(`@${PETS_DEPRECATED_AT.getTime() / 1000}`);
    expect(res.headers.deprecation).toBe('@1782777600');
    expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(res.headers.sunset).toMatch(IMF_FIXDATE);
    expect(res.headers.link).toBe(
      `<${DOCS}>; rel="deprecation"; type="text/html", <${DOCS}>; rel="sunset"; type="text/html"`,
    );
  });

  it('should put the deprecation headers on its errors too', async () => {
    for (const [id, status] of [
      ['404', 404],
      ['0', 400],
      ['abc', 400],
    ] as const) {
      const res = await get(id).expect(status);
      expect(res.body).toEqual({
        code: status === 404 ? 'not_found' : 'validation_failed',
        message: expect.any(String),
        status,
      });
      expect(res.headers.deprecation).toBe('@1782777600');
      expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    }
  });

  it('should return 404 for a well-formed id that is not in the catalogue', async () => {
    const res = await get('9223372036854775807').expect(404);
    expect(res.body).toEqual({
      code: 'not_found',
      message: 'No pet with id 9223372036854775807',
      status: 404,
    });
  });

  it('should return 400 for ids outside 1..2^63-1', async () => {
    for (const id of ['0', '-1', '9223372036854775808', '1.5', '1e3', '%20']) {
      expect((await get(id).expect(400)).body.code).toBe('validation_failed');
    }
  });

  it('should return 401 without a key, like every operation', async () => {
    const res = await request(t.server).get('/v1/pets/1').expect(401);
    expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
  });

  it('should log each call with the calling key so operators see who still uses it', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn');
    const res = await get('1').expect(200);
    expect(res.text).not.toContain(key);
    const calls = warn.mock.calls.filter(
      ([entry]) => (entry as { deprecatedOperation?: string }).deprecatedOperation === 'getPetById',
    );
    expect(calls).toHaveLength(1);
    const [entry, message] = calls[0] as [Record<string, unknown>, string];
    expect(entry).toMatchObject({
      keyId: expect.any(Number),
      keyPrefix: key.slice(0, 12),
      gone: false,
    });
    expect(message).toContain(`key ${entry.keyId}`);
    expect(JSON.stringify(calls)).not.toContain(key);
  });
});

describe('GET /v1/pets/{petId} after its sunset (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ PETS_SUNSET: '2026-07-01' });
    key = await t.createKey();
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  });
  afterAll(() => t.close());

  it('should return 410 gone with the deprecation headers, for every id', async () => {
    for (const id of ['1', '42']) {
      const res = await request(t.server)
        .get(`/v1/pets/${id}`)
        .set('Authorization', `Bearer ${key}`)
        .expect(410);
      expect(res.body).toEqual({
        code: 'gone',
        message: expect.stringContaining('2026-07-01'),
        status: 410,
      });
      expect(res.headers.sunset).toBe('Wed, 01 Jul 2026 00:00:00 GMT');
      expect(res.headers.deprecation).toBe('@1782777600');
      expect(res.headers.link).toContain('rel="sunset"');
    }
  });

  it('should still require a key first', async () => {
    await request(t.server).get('/v1/pets/1').expect(401);
  });
});

describe('PETS_SUNSET', () => {
  it('should be refused when earlier than the deprecation date', () => {
    expect(() => loadConfig({ PETS_SUNSET: '2026-06-29' })).toThrow(
      /^PETS_SUNSET must be a date no earlier than the deprecation date 2026-06-30/,
    );
    expect(loadConfig({ PETS_SUNSET: '2026-06-30' }).pets.sunset).toEqual(PETS_DEPRECATED_AT);
  });
});
