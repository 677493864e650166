import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from './support/demo-key.js';
import { ensureBuilt, freePort, type RunningServer, startServer } from './support/built-server.js';
import { ancestors, OtlpReceiver, type ReceivedSpan, SPAN_KIND } from './support/otlp-receiver.js';

const INCOMING_TRACE = '0af7651916cd43dd8448eb211c80319c';
const INCOMING_SPAN = 'b7ad6b7169203331';

// Records the modules of interest the server's ESM loader resolves: what tracing loads, and when.
const RESOLVE_HOOK = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/@opentelemetry|import-in-the-middle|\\/dist\\/(server|tracing\\/tracing)\\.js$/.test(resolved.url))
    appendFileSync(out, resolved.url + '\\n');
  return resolved;
}
`;

describe('tracing (built server, OTLP/HTTP)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-tracing-'));
  const receiver = new OtlpReceiver();
  let endpoint: string;

  beforeAll(async () => {
    await ensureBuilt();
    endpoint = await receiver.start();
    writeFileSync(join(dir, 'resolve-hook.mjs'), RESOLVE_HOOK);
    writeFileSync(
      join(dir, 'record.mjs'),
      `import { register } from 'node:module';
register('./resolve-hook.mjs', import.meta.url, { data: { out: process.env.RESOLVED_OUT } });`,
    );
  });
  afterAll(async () => {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(name: string, env: Record<string, string>) {
    const resolved = join(dir, `${name}.resolved`);
    writeFileSync(resolved, '');
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, `${name}.sqlite`)}`,
      APP_ENV: 'development',
      LOG_LEVEL: 'info',
      NODE_OPTIONS: `--import=${join(dir, 'record.mjs')}`,
      RESOLVED_OUT: resolved,
      ...env,
    });
    const key = await demoKey(server);
    return { server, key, resolved: () => readFileSync(resolved, 'utf8') };
  }

  function requestLine(server: RunningServer, url: string) {
    const line = server
      .output()
      .split('\n')
      .find((text) => text.includes('"request completed"') && text.includes(`"url":"${url}"`));
    return JSON.parse(line!) as { traceId?: string; reqId: string };
  }

  it("should export one request's span tree, in protobuf, under the caller's traceparent, and log its trace id", async () => {
    const { server, key, resolved } = await start('on', {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_SERVICE_NAME: 'petstore-under-test',
    });
    try {
      const res = await fetch(`${server.url}/v1/inventory/4`, {
        headers: {
          authorization: `Bearer ${key}`,
          traceparent: `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01`,
        },
      });
      expect(res.status).toBe(200);
      const inTrace = (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === INCOMING_TRACE);
      await receiver.until((spans) => {
        const mine = inTrace(spans);
        return (
          mine.some((s) => s.kind === SPAN_KIND.server) &&
          mine.some((s) => s.name.startsWith('request handler')) &&
          mine.some((s) => s.scope === '@opentelemetry/instrumentation-typeorm')
        );
      });
      const spans = inTrace(receiver.spans);
      const serverSpan = spans.find((s) => s.kind === SPAN_KIND.server)!;
      expect(serverSpan).toMatchObject({
        scope: '@opentelemetry/instrumentation-http',
        name: 'GET /v1/inventory/:petId',
        parentSpanId: INCOMING_SPAN,
      });
      expect(serverSpan.attributes['http.route']).toBe('/v1/inventory/:petId');

      const handler = spans.find((s) => s.name.startsWith('request handler'))!;
      expect(handler.scope).toBe('@opentelemetry/instrumentation-express');
      expect(ancestors(spans, handler)).toContainEqual(serverSpan);

      // The key's lookup: SQLite's queries show as TypeORM's.
      const query = spans.find((s) => s.scope === '@opentelemetry/instrumentation-typeorm')!;
      expect(query.kind).toBe(SPAN_KIND.client);
      expect(query.attributes).toMatchObject({
        'db.system.name': 'better-sqlite3',
        'db.collection.name': 'api_keys',
      });
      expect(ancestors(spans, query).map((s) => s.spanId)).toEqual(
        expect.arrayContaining([handler.spanId, serverSpan.spanId]),
      );

      // OTEL_EXPORTER_OTLP_PROTOCOL unset: the specification's default, http/protobuf.
      expect([...receiver.encodings]).toEqual(['http/protobuf']);
      expect(receiver.resources).toContainEqual(
        expect.objectContaining({
          'service.name': 'petstore-under-test',
          'service.version': '1.0.0',
        }),
      );
      // The request line is written at the latest when the server stops.
      await server.stop();
      expect(requestLine(server, '/v1/inventory/4').traceId).toBe(INCOMING_TRACE);
      expect(resolved()).toContain('/node_modules/@opentelemetry/sdk-trace-node/');
    } finally {
      await server.stop();
    }
  });

  it('should export the spans it still holds when it shuts down, in JSON when asked', async () => {
    const { server, key } = await start('flush', {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      // Far longer than the test: only the shutdown can send them.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const trace = 'a'.repeat(32);
    try {
      const res = await fetch(`${server.url}/v1/rate_limit`, {
        headers: {
          authorization: `Bearer ${key}`,
          traceparent: `00-${trace}-${'b'.repeat(16)}-01`,
        },
      });
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
    expect(
      receiver.spans.filter((s) => s.traceId === trace && s.kind === SPAN_KIND.server),
    ).toHaveLength(1);
    expect(receiver.encodings.has('http/json')).toBe(true);
  });

  it('should load nothing of OpenTelemetry and log no trace id without an endpoint', async () => {
    const { server, key, resolved } = await start('off', {});
    try {
      const res = await fetch(`${server.url}/v1/inventory/4`, {
        headers: {
          authorization: `Bearer ${key}`,
          traceparent: `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01`,
        },
      });
      expect(res.status).toBe(200);
      await server.stop();
      expect(requestLine(server, '/v1/inventory/4')).not.toHaveProperty('traceId');
      const modules = resolved();
      expect(modules).toContain('/dist/server.js');
      expect(modules).not.toMatch(
        /@opentelemetry|import-in-the-middle|\/dist\/tracing\/tracing\.js/,
      );
    } finally {
      await server.stop();
    }
  });

  it('should print spans on stdout with OTEL_TRACES_EXPORTER=console, say so at start, and trace no background work', async () => {
    const { server, key } = await start('console', { OTEL_TRACES_EXPORTER: 'console' });
    try {
      await server.waitForOutput(
        /"msg":"Tracing on: spans go to the console \(stdout, OTEL_TRACES_EXPORTER=console\)"/,
      );
      const res = await fetch(`${server.url}/v1/inventory/4`, {
        headers: {
          authorization: `Bearer ${key}`,
          traceparent: `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01`,
        },
      });
      expect(res.status).toBe(200);
      // Each span is printed as it ends: the server span last, after the request's queries.
      await server.waitForOutput(
        new RegExp(`traceId: '${INCOMING_TRACE}',[\\s\\S]*?name: 'GET /v1/inventory/:petId'`),
      );
      expect(server.output()).toMatch(/'db.collection.name': 'api_keys'/);
      // The webhook dispatcher looked for endpoints when the server started, before it answered.
      expect(server.output()).not.toContain('webhook_endpoints');
    } finally {
      await server.stop();
    }
  });

  it('should log a failed export while running as one labelled warning, and not wait on that endpoint at shutdown', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/v1/traces`;
    const { server, key } = await start('refused', {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
    });
    try {
      await server.waitForOutput(
        new RegExp(`"msg":"Tracing on: spans go to OTLP/HTTP \\(http/protobuf\\) to ${url}"`),
      );
      const res = await fetch(`${server.url}/v1/inventory/4`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      const [line] = await server.waitForOutput(/^.*Trace export to .* failed.*$/m);
      expect(JSON.parse(line)).toMatchObject({
        level: 40,
        msg: expect.stringMatching(
          new RegExp(
            `^Trace export to ${url} failed \\(ECONNREFUSED\\): \\d+ span\\(s\\) dropped; check OTEL_EXPORTER_OTLP_ENDPOINT$`,
          ),
        ),
      });
    } finally {
      await server.stop();
    }
    expect(server.output()).toContain(
      `Trace export to ${url} is failing: the spans still held are dropped at shutdown`,
    );
    expect(server.output()).not.toMatch(/errno/);
  });

  it('should refuse an exporter it does not offer with one line', async () => {
    const dbFile = join(dir, 'zipkin.sqlite');
    await expect(
      startServer({ DATABASE_URL: `sqlite:${dbFile}`, OTEL_TRACES_EXPORTER: 'zipkin' }),
    ).rejects.toThrow(
      /Cannot start the server: OTEL_TRACES_EXPORTER names zipkin; this service offers otlp, console and none/,
    );
  });
});
