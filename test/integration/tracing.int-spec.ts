import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ancestors, OtlpReceiver, SPAN_KIND } from '../support/otlp-receiver.js';
import {
  type Instance,
  spawnInstance,
  stopInstance,
  uniqueSuffix,
  waitReady,
} from './support/cluster.js';
import {
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';

const context = requireIntegrationContext();
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('tracing on PostgreSQL and Redis (integration)', () => {
  const receiver = new OtlpReceiver();
  let database: TestDatabase;
  let instance: Instance;

  beforeAll(async () => {
    database = await migratedDatabase(context, 'tracing');
    instance = await spawnInstance(`${database.name}_traced`, {
      APP_ENV: 'development',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      REDIS_URL: context.redisUrl,
      REDIS_KEY_PREFIX: `${context.redisKeyPrefix}tracing_${uniqueSuffix()}:`,
      OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.start(),
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    await waitReady(instance);
  }, 120_000);

  afterAll(async () => {
    if (instance) await stopInstance(instance);
    await database?.drop();
    await receiver.stop();
  });

  it('should put the PostgreSQL queries and the Redis round trip of a request under its server span', async () => {
    const key = /Demo API key \(free plan, shown once\): (pk_test_\w+)/.exec(instance.log())![1];
    const res = await fetch(`${instance.baseUrl}/v1/inventory/4`, {
      headers: { authorization: `Bearer ${key}`, traceparent: `00-${TRACE}-${PARENT}-01` },
    });
    expect(res.status).toBe(200);
    const scope = (name: string) => `@opentelemetry/instrumentation-${name}`;
    await receiver.until((spans) => {
      const mine = spans.filter((s) => s.traceId === TRACE);
      return (
        mine.some((s) => s.kind === SPAN_KIND.server) &&
        mine.some((s) => s.scope === scope('pg')) &&
        mine.some((s) => s.scope === scope('ioredis'))
      );
    });
    const spans = receiver.spans.filter((s) => s.traceId === TRACE);
    const server = spans.find((s) => s.kind === SPAN_KIND.server)!;
    expect(server).toMatchObject({ name: 'GET /v1/inventory/:petId', parentSpanId: PARENT });
    // pg's span is the query's: TypeORM's instrumentation, there only for SQLite, adds none.
    expect(spans.filter((s) => s.scope === scope('typeorm'))).toEqual([]);
    for (const name of ['pg', 'ioredis']) {
      const call = spans.find((s) => s.scope === scope(name) && s.kind === SPAN_KIND.client);
      expect(call, name).toBeDefined();
      expect(
        ancestors(spans, call!).map((s) => s.spanId),
        name,
      ).toContain(server.spanId);
    }
  });
});
