import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const ORIGIN = 'https://shop.example';
const PAGE_ONLY_HEADERS = [
  'referrer-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('security headers (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
  });
  afterAll(() => t.close());

  it.each([
    ['an authenticated success', '/v1/inventory', true, 200],
    ['a 401', '/v1/inventory', false, 401],
    ['an unknown /v1 route', '/v1/nothing-here', true, 404],
    ['an unknown page', '/nothing-here', false, 404],
    ['health', '/health', false, 200],
  ])(
    'should send helmet headers and no X-Powered-By on %s',
    async (_name, path, withKey, status) => {
      const req = request(t.server).get(path);
      if (withKey) req.set('Authorization', `Bearer ${key}`);
      const res = await req.expect(status);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'cross-origin-resource-policy': 'same-origin',
      });
      // Policies for pages, not JSON: only /docs sends them.
      for (const pageOnly of PAGE_ONLY_HEADERS) expect(res.headers).not.toHaveProperty(pageOnly);
    },
  );

  it("should send helmet's API headers also on an answer Node's parser writes on the socket", async () => {
    await t.app.listen(0, '127.0.0.1');
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const client = rawClient(port);
    await client.connected;
    client.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
    await client.closed;
    const raw = new Map(
      client
        .received()
        .split('\r\n\r\n')[0]
        .split('\r\n')
        .slice(1)
        .map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 2),
        ]),
    );
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
    const served = await request(t.server).get('/health').expect(200);
    for (const name of [
      'content-security-policy',
      'cross-origin-resource-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
    ])
      expect([name, raw.get(name)]).toEqual([name, served.headers[name]]);
  });

  it('should not answer CORS requests by default', async () => {
    const preflight = await request(t.server)
      .options('/v1/inventory')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await request(t.server)
      .get('/v1/inventory')
      .set('Origin', ORIGIN)
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('Swagger UI under its Content-Security-Policy (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('should give /docs a policy of its own and keep the strict one on the OpenAPI document', async () => {
    const docs = await request(t.server).get('/docs').expect(200);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
    expect(docs.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'x-dns-prefetch-control': 'off',
      'x-permitted-cross-domain-policies': 'none',
      'x-frame-options': 'DENY',
    });
    expect(docs.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
    const json = await request(t.server).get('/v1/openapi.json').expect(200);
    expect(json.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
  });
});

describe('CORS_ORIGINS (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${ORIGIN}, https://admin.shop.example:8443` });
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
  });
  afterAll(() => t.close());

  it('should answer a preflight from a listed origin without a key', async () => {
    const res = await request(t.server)
      .options('/v1/inventory/1')
      .set('Origin', 'https://admin.shop.example:8443')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization, content-type')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://admin.shop.example:8443');
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization,Content-Type,If-Match,If-None-Match,X-Request-Id,Idempotency-Key',
    );
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('should let a listed origin read the response and its rate-limit and request-id headers', async () => {
    const res = await request(t.server)
      .get('/v1/inventory')
      .set('Origin', ORIGIN)
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    const exposed = res.headers['access-control-expose-headers'].split(',');
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'X-Request-Id',
      'ETag',
      'Deprecation',
      'Sunset',
      'Link',
      'X-Changes-Cursor',
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it('should let a listed origin send an Idempotency-Key and read whether the answer was replayed', async () => {
    const preflight = await request(t.server)
      .options('/v1/inventory/batch')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key')
      .expect(204);
    const allowed = preflight.headers['access-control-allow-headers'].toLowerCase().split(',');
    expect(allowed).toContain('idempotency-key');
    const res = await request(t.server)
      .get('/v1/inventory')
      .set('Origin', ORIGIN)
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    const exposed = res.headers['access-control-expose-headers'].split(',');
    expect(exposed).toEqual(
      expect.arrayContaining(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']),
    );
  });

  it('should not allow an origin that is not listed', async () => {
    const res = await request(t.server)
      .options('/v1/inventory')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await request(t.server)
      .get('/v1/inventory')
      .set('Origin', 'https://evil.example')
      .set('Authorization', `Bearer ${key}`);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});

/** A raw client: what the server sent, and whether (and when) it closed the connection. */
function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    socket,
    closed,
    received: () => received,
    connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
  };
}

/** Writes `chunks` one every `everyMs` until they run out or the server hangs up. */
async function drip(
  client: ReturnType<typeof rawClient>,
  chunks: string[],
  everyMs: number,
): Promise<void> {
  let open = true;
  void client.closed.then(() => (open = false));
  for (const chunk of chunks) {
    if (!open || client.socket.destroyed) return;
    client.socket.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe('server timeouts against slow clients (e2e)', () => {
  let t: TestApp;
  let port: number;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
    key = await t.createKey({ plan: 'enterprise', perMinute: 1e9, perDay: 1e9 });
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 1 }]);
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('should answer 408 and hang up on a client that never finishes its headers', async () => {
    const client = rawClient(port);
    await client.connected;
    // 40 header lines at 100 ms would take 4 s; the server must cut this off well before.
    const headers = [
      'GET /health HTTP/1.1\r\nHost: localhost\r\n',
      ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`),
    ];
    await drip(client, headers, 100);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('should answer 408 and hang up on a client that never finishes its body', async () => {
    const client = rawClient(port);
    await client.connected;
    const body = '{"quantity": 5     }';
    client.socket.write(
      `PATCH /v1/inventory/1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // One byte every 150 ms: the body would take 3 s, three times the request timeout.
    await drip(client, [...body], 150);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const stock = await request(t.server)
      .get('/v1/inventory')
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(stock.text).toBe('[{"petId":1,"quantity":1,"status":"available","available":1}]');
  });

  it('should close an idle keep-alive connection after the keep-alive timeout', async () => {
    const client = rawClient(port);
    await client.connected;
    client.socket.write(
      'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n',
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
  });

  it('should still serve a client that sends at a normal pace', async () => {
    const client = rawClient(port);
    await client.connected;
    await drip(
      client,
      ['GET /health HTTP/1.1\r\n', 'Host: localhost\r\n', 'Connection: close\r\n', '\r\n'],
      50,
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
