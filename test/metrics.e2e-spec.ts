import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MetricsServer } from '../src/metrics/metrics.server.js';
import { MetricsService } from '../src/metrics/metrics.service.js';
import { Clock } from '../src/rate-limit/clock.js';
import { freePort } from './support/built-server.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';
import { CLOCK_START } from './support/manual-clock.js';

/** The value of one sample line, e.g. `petstore_http_requests_total{operation="x",status="200"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
    await t.seed([{ petId: 9007199254740993n, name: 'Big Ben', status: 'available', quantity: 1 }]);
  });
  afterAll(() => t.close());

  const scrape = () => t.app.get(MetricsService).metrics();

  it('should never serve /metrics on the API port, in any spelling', async () => {
    for (const path of ['/metrics', '/METRICS', '/metrics/', '/Metrics?x=1']) {
      const res = await request(t.server).get(path).expect(404);
      expect(res.body).toMatchObject({ code: 'not_found', status: 404 });
      expect(res.text).not.toContain('petstore_http_requests_total');
    }
  });

  it('should count requests and time them by operationId and status, never by raw path', async () => {
    const before = await scrape();
    const count = (text: string, operation: string, status: string) =>
      sample(text, `petstore_http_requests_total{operation="${operation}",status="${status}"}`) ??
      0;
    const auth = { Authorization: `Bearer ${key}` };

    await request(t.server).get('/v1/inventory').set(auth).expect(200);
    await request(t.server).get('/v1/inventory').set(auth).expect(200);
    await request(t.server).get('/v1/inventory').expect(401);
    await request(t.server)
      .patch('/v1/inventory/9007199254740993')
      .set(auth)
      .send({ quantity: 4 })
      .expect(200);
    await request(t.server)
      .patch('/v1/inventory/123456789')
      .set(auth)
      .send({ quantity: 4 })
      .expect(404);
    await request(t.server).patch('/v1/inventory/abc').set(auth).send({ quantity: 4 }).expect(400);
    await request(t.server).get('/v1/no/such/route').set(auth).expect(404);
    await request(t.server).get('/no-such-page').expect(404);

    const after = await scrape();
    const delta = (operation: string, status: string) =>
      count(after, operation, status) - count(before, operation, status);
    expect(delta('listInventory', '200')).toBe(2);
    expect(delta('listInventory', '401')).toBe(1);
    expect(delta('updateInventory', '200')).toBe(1);
    expect(delta('updateInventory', '404')).toBe(1);
    expect(delta('updateInventory', '400')).toBe(1);
    expect(delta('notFound', '404')).toBe(1);
    expect(delta('unmatched', '404')).toBe(1);
    expect(
      sample(
        after,
        'petstore_http_request_duration_seconds_count{operation="listInventory",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(after).toMatch(
      /^petstore_http_request_duration_seconds_bucket\{le="\+Inf",operation="updateInventory",status="200"\} \d+$/m,
    );
    for (const raw of ['9007199254740993', '123456789', 'abc', 'no/such/route', 'no-such-page']) {
      expect(after).not.toContain(raw);
    }
  });

  it('should count database errors that reach a request', async () => {
    const before = sample(await scrape(), 'petstore_database_errors_total') ?? 0;
    await t.app.get(DataSource).query('ALTER TABLE pets RENAME TO pets_gone');
    try {
      // A write: a listing may be served from cache without touching the database.
      const res = await request(t.server)
        .patch('/v1/inventory/9007199254740993')
        .set('Authorization', `Bearer ${key}`)
        .send({ quantity: 2 })
        .expect(500);
      expect(res.body).toMatchObject({ code: 'internal_error', status: 500 });
    } finally {
      await t.app.get(DataSource).query('ALTER TABLE pets_gone RENAME TO pets');
    }
    expect(sample(await scrape(), 'petstore_database_errors_total')).toBe(before + 1);
  });
});

describe('rate-limit and Redis metrics (e2e)', () => {
  it('should count rejections by code, and each ban once', async () => {
    const t = await createTestApp({ RATE_LIMIT_BAN_THRESHOLD: '2', RATE_LIMIT_BAN_SECONDS: '60' });
    // All seven requests in one minute, whenever the test runs.
    const clock = vi.spyOn(t.app.get(Clock), 'now').mockReturnValue(CLOCK_START);
    try {
      const key = await t.createKey({ plan: 'free', perMinute: 2 });
      const codes: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await request(t.server)
          .get('/v1/inventory')
          .set('Authorization', `Bearer ${key}`);
        codes.push(res.status === 200 ? 'ok' : res.body.code);
      }
      // Two accepted, two refused, the third refusal earns the ban, and the ban holds.
      expect(codes).toEqual([
        'ok',
        'ok',
        'rate_limit_exceeded',
        'rate_limit_exceeded',
        'api_key_banned',
        'api_key_banned',
        'api_key_banned',
      ]);
      const text = await t.app.get(MetricsService).metrics();
      expect(sample(text, 'petstore_rate_limit_rejections_total{code="rate_limit_exceeded"}')).toBe(
        2,
      );
      expect(sample(text, 'petstore_rate_limit_rejections_total{code="api_key_banned"}')).toBe(3);
      expect(sample(text, 'petstore_rate_limit_bans_total')).toBe(1);
      // Once banned, the client is refused before routing, so its requests name no operation.
      expect(
        sample(text, 'petstore_http_requests_total{operation="listInventory",status="429"}'),
      ).toBe(3);
      expect(sample(text, 'petstore_http_requests_total{operation="banned",status="429"}')).toBe(2);
    } finally {
      clock.mockRestore();
      await t.close();
    }
  });

  it('should count Redis errors when the rate-limit store cannot be reached', async () => {
    const port = await freePort();
    const t = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      RATE_LIMIT_FAIL_OPEN: 'true',
      REDIS_COMMAND_TIMEOUT_MS: '200',
    });
    try {
      const key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
      await request(t.server)
        .get('/v1/inventory')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      await request(t.server)
        .get('/v1/inventory')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      const text = await t.app.get(MetricsService).metrics();
      expect(sample(text, 'petstore_redis_errors_total')).toBe(2);
      expect(sample(text, 'petstore_database_errors_total')).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('/metrics configuration (e2e)', () => {
  it('should answer 404 with the Error body and time nothing when METRICS_ENABLED=false', async () => {
    const t = await createTestApp({ METRICS_ENABLED: 'false' });
    try {
      const res = await request(t.server).get('/metrics').expect(404);
      expect(res.body).toEqual({
        code: 'not_found',
        message: 'No route for GET /metrics',
        status: 404,
      });
      expect(await t.app.get(MetricsService).metrics()).not.toMatch(
        /^petstore_http_requests_total\{/m,
      );
    } finally {
      await t.close();
    }
  });

  it('should serve /metrics only on METRICS_PORT when it is set', async () => {
    const port = await freePort();
    const t = await createTestApp({ METRICS_PORT: String(port) });
    try {
      expect(t.app.get(MetricsServer).port).toBe(port);
      // Bound to loopback by default (METRICS_HOST), whatever HOST the API listens on.
      expect(t.config.http.host).toBe('0.0.0.0');
      expect(t.config.metrics.host).toBe('127.0.0.1');
      await request(t.server).get('/health').expect(200);
      const onApiPort = await request(t.server).get('/metrics').expect(404);
      expect(onApiPort.body).toMatchObject({ code: 'not_found', status: 404 });

      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      expect(text).toMatch(/^# TYPE petstore_http_request_duration_seconds histogram$/m);
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(sample(text, 'petstore_http_requests_total{operation="live",status="200"}')).toBe(1);
      expect(sample(text, 'petstore_http_requests_total{operation="unmatched",status="404"}')).toBe(
        1,
      );

      const other = await fetch(`http://127.0.0.1:${port}/v1/inventory`);
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({
        code: 'not_found',
        message: 'No route for GET /v1/inventory',
        status: 404,
      });
    } finally {
      await t.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
