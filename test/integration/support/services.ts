import { Redis } from 'ioredis';
import pg from 'pg';

/** The servers the integration suite runs against; override them to point at other ones. */
export const INTEGRATION_POSTGRES_URL =
  process.env.INTEGRATION_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const INTEGRATION_REDIS_URL = process.env.INTEGRATION_REDIS_URL ?? 'redis://127.0.0.1:6379';

const PROBE_TIMEOUT_MS = 2000;

/** Why each service cannot be used, or an empty list when both answer. */
export async function unavailableServices(): Promise<string[]> {
  const [postgres, redis] = await Promise.all([probePostgres(), probeRedis()]);
  return [postgres, redis].filter((problem): problem is string => problem !== undefined);
}

async function probePostgres(): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: INTEGRATION_POSTGRES_URL,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return `PostgreSQL at ${redact(INTEGRATION_POSTGRES_URL)}: ${describe(err)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeRedis(): Promise<string | undefined> {
  const redis = new Redis(INTEGRATION_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    commandTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (err) {
    return `Redis at ${redact(INTEGRATION_REDIS_URL)}: ${describe(err)}`;
  } finally {
    redis.disconnect();
  }
}

function describe(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return describe(err.errors[0]);
  return err instanceof Error ? err.message || err.name : String(err);
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
