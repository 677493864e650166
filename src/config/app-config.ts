import { isAbsolute, resolve } from 'node:path';
import { ConfigError, Env, bool, date, int, oneOf, optionalStr, str, url } from './env.parser.js';
import { redisConfig, type RedisConfig } from './redis-config.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

export const APP_ENVS = ['development', 'staging', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type DatabaseConfig =
  | { type: 'sqlite'; path: string; busyTimeoutMs: number }
  | {
      type: 'postgres';
      url: string;
      poolSize: number;
      statementTimeoutMs: number;
      connectTimeoutMs: number;
    };

export type { RedisConfig, RedisNode, RedisTopology } from './redis-config.js';

export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

// Validated once at start; only this folder reads `process.env`. Injected as the AppConfig token.
export abstract class AppConfig {
  abstract readonly env: AppEnv;
  abstract readonly http: {
    port: number;
    host: string;
    trustProxy: TrustProxy;
    publicBaseUrl: string | undefined;
    stagingBaseUrl: string | undefined;
    corsOrigins: string[];
    timeouts: ServerTimeouts;
  };
  abstract readonly log: { level: LogLevel };
  abstract readonly database: DatabaseConfig;
  abstract readonly redis: RedisConfig | undefined;
  abstract readonly auth: { keyCacheTtlMs: number };
  abstract readonly rateLimit: {
    enabled: boolean;
    banThreshold: number;
    banSeconds: number;
    failOpen: boolean;
  };
  abstract readonly pets: { sunset: Date };
  abstract readonly inventory: { changesRetentionDays: number };
  abstract readonly idempotency: { retentionHours: number };
  abstract readonly holds: { retentionDays: number };
  abstract readonly metrics: { enabled: boolean; port: number | undefined; host: string };
  abstract readonly webhooks: WebhooksConfig;
  // Development only, and beyond SQLite only with APP_ENV=development set explicitly, so a
  // deployment that forgets APP_ENV never prints a working key.
  abstract readonly seedDemo: boolean;
}

export interface WebhooksConfig {
  timeoutMs: number;
  /** Seconds to wait after the 1st, 2nd, … failed attempt; one more failure disables the endpoint. */
  retrySchedule: number[];
  allowHttp: boolean;
  allowPrivate: boolean;
  allowLoopback: boolean;
  pollMs: number;
  leaseMs: number;
}

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

function retrySchedule(env: Env): number[] {
  const value = optionalStr(env, 'WEBHOOK_RETRY_SCHEDULE');
  if (value === undefined) return DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^\d{1,6}$/.test(part)))
    throw new ConfigError(
      'WEBHOOK_RETRY_SCHEDULE',
      'up to 20 comma-separated whole seconds, each at most 999999',
      value,
    );
  return parts.map(Number);
}

function webhooksConfig(env: Env): WebhooksConfig {
  return {
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    retrySchedule: retrySchedule(env),
    allowHttp: bool(env, 'WEBHOOK_ALLOW_HTTP', false),
    allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    // Loopback only, never private: a receiver on the developer's own machine.
    allowLoopback: bool(env, 'WEBHOOK_ALLOW_LOOPBACK', false),
    pollMs: int(env, 'WEBHOOK_POLL_MS', 200, 10, 1000),
    leaseMs: int(env, 'WEBHOOK_LEASE_MS', 15_000, 1000, 30_000),
  };
}

export const DEFAULT_SQLITE_PATH = './data/petstore.sqlite';

/** When `GET /pets/{petId}` was deprecated (its RFC 9745 `Deprecation` date); its sunset cannot precede it. */
export const PETS_DEPRECATED_AT = new Date('2026-06-30T00:00:00Z');

function petsSunset(env: Env): Date {
  const sunset = date(env, 'PETS_SUNSET', '2027-06-30');
  if (sunset < PETS_DEPRECATED_AT) {
    throw new ConfigError(
      'PETS_SUNSET',
      'a date no earlier than the deprecation date 2026-06-30',
      env.PETS_SUNSET ?? '',
    );
  }
  return sunset;
}

/** Whether a DATABASE_URL names PostgreSQL (else SQLite, or an error). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//.test(value);
}

function databaseConfig(env: Env): DatabaseConfig {
  const value = optionalStr(env, 'DATABASE_URL');
  const busyTimeoutMs = int(env, 'SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000);
  if (value === undefined)
    return { type: 'sqlite', path: resolve(DEFAULT_SQLITE_PATH), busyTimeoutMs };
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '')
      throw new ConfigError(
        'DATABASE_URL',
        'sqlite:<path>, sqlite::memory: or postgres://…',
        value,
      );
    return {
      type: 'sqlite',
      path: path === ':memory:' || isAbsolute(path) ? path : resolve(path),
      busyTimeoutMs,
    };
  }
  if (isPostgresUrl(value)) {
    return {
      type: 'postgres',
      url: url(env, 'DATABASE_URL', value, ['postgres:', 'postgresql:']),
      poolSize: int(env, 'DB_POOL_SIZE', 10, 1, 1000),
      statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
      connectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 3000, 100, 600_000),
    };
  }
  throw new ConfigError('DATABASE_URL', 'sqlite:<path>, sqlite::memory: or postgres://…', value);
}

function corsOrigins(env: Env): string[] {
  const origins = (optionalStr(env, 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    // The Origin header is scheme://host[:port] exactly; anything else would never match.
    if (origin !== '*' && !/^https?:\/\/[^/\s?#]+$/.test(origin)) {
      throw new ConfigError(
        'CORS_ORIGINS',
        'a comma-separated list of origins such as https://shop.example, or *',
        origin,
      );
    }
  }
  return origins;
}

function serverTimeouts(env: Env): ServerTimeouts {
  const headersMs = int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestMs = int(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  // Node requires the whole request's limit to cover its headers' limit.
  if (requestMs < headersMs) {
    throw new ConfigError(
      'HTTP_REQUEST_TIMEOUT_MS',
      `at least HTTP_HEADERS_TIMEOUT_MS (${headersMs})`,
      String(requestMs),
    );
  }
  return {
    headersMs,
    requestMs,
    keepAliveMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
  };
}

function baseUrl(env: Env, name: string): string | undefined {
  if (optionalStr(env, name) === undefined) return undefined;
  const value = url(env, name, '', ['http:', 'https:']).replace(/\/+$/, '');
  if (!value.endsWith('/v1')) throw new ConfigError(name, 'an http(s) URL ending in /v1', value);
  return value;
}

export function loadConfig(env: Env): AppConfig {
  const appEnv = oneOf(env, 'APP_ENV', APP_ENVS, 'development');
  const port = int(env, 'PORT', 3000, 0, 65535);
  const metricsPort =
    optionalStr(env, 'METRICS_PORT') === undefined
      ? undefined
      : int(env, 'METRICS_PORT', 0, 1, 65535);
  if (metricsPort !== undefined && metricsPort === port) {
    throw new ConfigError('METRICS_PORT', `a port other than PORT (${port})`, String(metricsPort));
  }
  const database = databaseConfig(env);
  return {
    env: appEnv,
    http: {
      port,
      host: str(env, 'HOST', '0.0.0.0'),
      trustProxy: parseTrustProxy(env.TRUST_PROXY),
      publicBaseUrl: baseUrl(env, 'PUBLIC_BASE_URL'),
      stagingBaseUrl: baseUrl(env, 'STAGING_BASE_URL'),
      corsOrigins: corsOrigins(env),
      timeouts: serverTimeouts(env),
    },
    log: { level: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info') },
    database,
    redis: redisConfig(env),
    auth: { keyCacheTtlMs: int(env, 'API_KEY_CACHE_TTL_MS', 5000, 0, 9_000) },
    rateLimit: {
      enabled: bool(env, 'RATE_LIMIT_ENABLED', true),
      banThreshold: int(env, 'RATE_LIMIT_BAN_THRESHOLD', 20, 1, 1_000_000),
      banSeconds: int(env, 'RATE_LIMIT_BAN_SECONDS', 600, 1, 31_536_000),
      failOpen: bool(env, 'RATE_LIMIT_FAIL_OPEN', false),
    },
    pets: { sunset: petsSunset(env) },
    inventory: { changesRetentionDays: int(env, 'CHANGES_RETENTION_DAYS', 90, 1, 36_500) },
    idempotency: { retentionHours: int(env, 'IDEMPOTENCY_RETENTION_HOURS', 24, 1, 8_760) },
    holds: { retentionDays: int(env, 'HOLDS_RETENTION_DAYS', 30, 1, 36_500) },
    metrics: {
      enabled: bool(env, 'METRICS_ENABLED', true),
      port: metricsPort,
      host: str(env, 'METRICS_HOST', '127.0.0.1'),
    },
    webhooks: webhooksConfig(env),
    seedDemo:
      appEnv === 'development' &&
      (database.type === 'sqlite' || optionalStr(env, 'APP_ENV') !== undefined),
  };
}
