import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKeyWithCli,
  type Instance,
  sharedRedisEnv,
  spawnInstance,
  stopAll,
  waitReady,
} from './support/cluster.js';
import { emptyDatabase, requireIntegrationContext, type TestDatabase } from './support/context.js';
import { type Nginx, startNginx } from './support/nginx.js';

const context = requireIntegrationContext();

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { code?: string; status?: number; message?: string } | undefined;
  text: string;
}

function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false });
    req.setTimeout(20_000, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: Answer['body'];
        try {
          parsed = JSON.parse(text) as Answer['body'];
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
    });
    req.end(body);
  });
}

describe('two instances behind the sample nginx configuration (integration)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let instances: Instance[];
  let nginx: Nginx;
  let key: string;

  beforeAll(async () => {
    database = await emptyDatabase(context, 'nginx');
    env = { ...sharedRedisEnv(context, database, 'nginx'), TRUST_PROXY: '1' };
    instances = [];
    for (const name of ['a', 'b']) {
      const instance = await spawnInstance(`${database.name}_${name}`, env);
      instances.push(instance);
      await waitReady(instance);
    }
    nginx = await startNginx(instances.map((instance) => instance.port));
    key = (
      await createKeyWithCli(env, [
        '--plan',
        'enterprise',
        '--per-minute',
        '100000',
        '--per-day',
        '1000000',
      ])
    ).key;
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await stopAll(instances);
    await database?.drop();
  });

  it('should refuse /metrics in any spelling', async () => {
    for (const path of [
      '/metrics',
      '/METRICS',
      '/metrics/',
      '/Metrics/x',
      '/%6Detrics',
      '//metrics',
      '/./metrics',
      '/metrics?x=1',
    ]) {
      const res = await call(nginx.port, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toMatchObject({ code: 'not_found', status: 404 });
      expect(res.text, path).not.toContain('petstore_http');
      // Refused by nginx itself, not passed on: the service would have added its request id.
      expect(res.headers['x-request-id'], path).toBeUndefined();
    }
  });

  it("should pass nginx's request id on in a form the service keeps, the same as in nginx's log", async () => {
    const res = await call(nginx.port, 'GET', '/v1/inventory', { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // nginx logs a request once its answer is sent: wait for the line.
    await expect
      .poll(() => nginx.requestIds().split('\n'), { timeout: 10_000 })
      .toContain(id.replaceAll('-', ''));
  });

  it("should answer an oversized body with the service's 413 Error body", async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // Over the service's 16 KiB, under nginx's limit: the service answers, with its headers.
    const over = await call(
      nginx.port,
      'PATCH',
      '/v1/inventory/1',
      headers,
      JSON.stringify({ quantity: 1, pad: 'x'.repeat(20_000) }),
    );
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(over.headers['x-ratelimit-limit']).toBe('100000');
    // Over nginx's limit too: nginx answers, with the same Error body.
    const far = await call(
      nginx.port,
      'PATCH',
      '/v1/inventory/1',
      headers,
      JSON.stringify({ quantity: 1, pad: 'x'.repeat(200_000) }),
    );
    expect(far.status).toBe(413);
    expect(far.headers['content-type']).toMatch(/^application\/json/);
    expect(far.body).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('should limit anonymous clients by the address nginx appends, whatever they forward', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      // A client that writes its own X-Forwarded-For, new each time, as if it were many clients.
      const res = await call(nginx.port, 'GET', '/v1/inventory', {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      expect(res.status).toBe(401);
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    // One client across both instances (their counts are shared in Redis): 59, 58, … 0.
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    const limited = await call(nginx.port, 'GET', '/v1/inventory', {
      'x-forwarded-for': '198.51.100.99',
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limit_exceeded' });
    // A valid key is counted by itself, not by its address.
    const keyed = await call(nginx.port, 'GET', '/v1/inventory', {
      authorization: `Bearer ${key}`,
    });
    expect(keyed.status).toBe(200);
  });
});
