import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './app-config.js';
import { ConfigError } from './env.parser.js';

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('should default to development on ./data/petstore.sqlite, port 3000 on all interfaces', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.http).toMatchObject({ port: 3000, host: '0.0.0.0', trustProxy: false });
    expect(config.database).toEqual({
      type: 'sqlite',
      path: resolve('data/petstore.sqlite'),
      busyTimeoutMs: 5000,
    });
    expect(config.redis).toBeUndefined();
    expect(config.rateLimit).toEqual({
      enabled: true,
      banThreshold: 20,
      banSeconds: 600,
      failOpen: false,
    });
    expect(config.pets.sunset.toISOString()).toBe('2027-06-30T00:00:00.000Z');
  });

  it('should read sqlite:, sqlite::memory: and postgres URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database).toMatchObject({
      type: 'sqlite',
      path: ':memory:',
    });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).database).toMatchObject({
      type: 'sqlite',
      path: '/tmp/x.db',
    });
    expect(loadConfig({ DATABASE_URL: 'sqlite:rel/x.db' }).database).toMatchObject({
      path: resolve('rel/x.db'),
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', DB_POOL_SIZE: '4' }).database,
    ).toMatchObject({
      type: 'postgres',
      url: 'postgres://u@h:5432/db',
      poolSize: 4,
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).database.type).toBe('postgres');
  });

  it('should treat an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', APP_ENV: ' ' }).http.port).toBe(3000);
  });

  it('should name the variable and what it accepts on one line', () => {
    expect(failure({ PORT: 'abc' })).toBe('PORT must be an integer from 0 to 65535 (got "abc")');
    expect(failure({ PORT: '70000' })).toMatch(/^PORT must be an integer from 0 to 65535/);
    expect(failure({ APP_ENV: 'prod' })).toBe(
      'APP_ENV must be one of development | staging | production (got "prod")',
    );
    expect(failure({ DATABASE_URL: 'mysql://x' })).toMatch(
      /^DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres:\/\/…/,
    );
    expect(failure({ TRUST_PROXY: 'maybe' })).toMatch(
      /^TRUST_PROXY must be false, a number of proxy hops .* \(got "maybe"\)$/,
    );
    expect(failure({ REDIS_URL: 'http://x' })).toMatch(
      /^REDIS_URL must be a URL \(redis:, rediss:\)/,
    );
    expect(failure({ PETS_SUNSET: 'next year' })).toMatch(/^PETS_SUNSET must be an ISO 8601 date/);
    expect(failure({ PUBLIC_BASE_URL: 'https://api.example.com' })).toMatch(
      /^PUBLIC_BASE_URL must be an http\(s\) URL ending in \/v1/,
    );
    expect(failure({ API_KEY_CACHE_TTL_MS: '60000' })).toMatch(
      /^API_KEY_CACHE_TTL_MS must be an integer from 0 to 9000/,
    );
    for (const message of [failure({ PORT: 'x' }), failure({ LOG_LEVEL: 'loud' })])
      expect(message).not.toContain('\n');
  });

  it('should leave the base addresses unset unless configured, and trim a trailing slash', () => {
    expect(loadConfig({}).http).toMatchObject({
      publicBaseUrl: undefined,
      stagingBaseUrl: undefined,
    });
    expect(
      loadConfig({ PUBLIC_BASE_URL: 'https://api.example/v1/', STAGING_BASE_URL: ' ' }).http,
    ).toMatchObject({ publicBaseUrl: 'https://api.example/v1', stagingBaseUrl: undefined });
  });

  it('should read the CORS origins, server timeouts and metrics settings', () => {
    const config = loadConfig({});
    expect(config.http.corsOrigins).toEqual([]);
    expect(config.http.timeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
    });
    expect(config.metrics).toEqual({ enabled: true, port: undefined, host: '127.0.0.1' });
    const custom = loadConfig({
      CORS_ORIGINS: ' https://shop.example, http://localhost:8080 ,',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
      METRICS_ENABLED: 'false',
      METRICS_PORT: '9464',
    });
    expect(custom.http.corsOrigins).toEqual(['https://shop.example', 'http://localhost:8080']);
    expect(custom.http.timeouts).toEqual({ headersMs: 2000, requestMs: 2000, keepAliveMs: 65_000 });
    expect(custom.metrics).toEqual({ enabled: false, port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.1.2.3' }).metrics.host).toBe(
      '10.1.2.3',
    );
    expect(loadConfig({ CORS_ORIGINS: '*' }).http.corsOrigins).toEqual(['*']);
    expect(failure({ CORS_ORIGINS: 'https://shop.example/' })).toMatch(
      /^CORS_ORIGINS must be a comma-separated list of origins/,
    );
    expect(failure({ CORS_ORIGINS: 'shop.example' })).toMatch(/^CORS_ORIGINS must be/);
    expect(failure({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toBe(
      'HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS (20000) (got "10000")',
    );
    expect(failure({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' })).toMatch(
      /^HTTP_KEEP_ALIVE_TIMEOUT_MS must be an integer from 100/,
    );
    expect(failure({ PORT: '9464', METRICS_PORT: '9464' })).toBe(
      'METRICS_PORT must be a port other than PORT (9464) (got "9464")',
    );
  });

  it('should accept Redis settings only with REDIS_URL', () => {
    expect(
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: 'x:' }).redis,
    ).toEqual({
      url: 'redis://127.0.0.1:6379',
      keyPrefix: 'x:',
      commandTimeoutMs: 500,
    });
  });

  it('should read TRUST_PROXY as false, a hop count or addresses, and refuse true in one line', () => {
    expect(loadConfig({}).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).http.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/32 ,192.0.2.1' }).http.trustProxy,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/32', '192.0.2.1']);
    for (const value of ['true', 'TRUE', 'yes', 'on']) {
      const message = failure({ TRUST_PROXY: value });
      expect(message).toMatch(/^TRUST_PROXY must be the number of proxies .*\(e\.g\. 1\)/);
      expect(message).not.toContain('\n');
    }
    for (const value of ['10.0.0.0/33', 'example.com', '10.0.0.1,,x', '::1/129', '101'])
      expect(failure({ TRUST_PROXY: value })).toMatch(/^TRUST_PROXY must be/);
  });

  it('should refuse a TRUST_PROXY range wider than /8 or /32, or ranges that together trust everyone, in one line', () => {
    const eighths = (count: number) =>
      Array.from({ length: count }, (_, i) => `${i}.0.0.0/8`).join(',');
    for (const [value, named] of [
      ['0.0.0.0/0', '0.0.0.0/0'],
      ['::/0', '::/0'],
      ['10.0.0.0/7', '10.0.0.0/7'],
      ['loopback, fd00::/31', 'fd00::/31'],
      ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0/1'],
      // IPv4-mapped: Express trusts ::ffff:0.0.0.0/96 as 0.0.0.0/0.
      ['::ffff:0.0.0.0/96', '::ffff:0.0.0.0/96'],
      ['::ffff:10.0.0.0/100', '::ffff:10.0.0.0/100'],
      [eighths(256), eighths(256)],
      [`${eighths(255).replace('127.0.0.0/8,', '')},loopback,255.0.0.0/8`, undefined],
    ] as const) {
      const message = failure({ TRUST_PROXY: value });
      expect(message).toMatch(
        /^TRUST_PROXY must be proxy addresses or ranges no wider than \/8 \(IPv4\) or \/32 \(IPv6\), which together do not include every address/,
      );
      if (named !== undefined) expect(message).toContain(`(got "${named}")`);
      expect(message).not.toContain('\n');
    }
    for (const value of [
      '10.0.0.0/8',
      'fd00::/32',
      '::ffff:10.0.0.0/104',
      'loopback,linklocal,uniquelocal',
      eighths(255),
      '2001:db8::1,192.0.2.1',
    ])
      expect(loadConfig({ TRUST_PROXY: value }).http.trustProxy).toEqual(value.split(','));
  });

  it('should never print the user or password of a URL it refuses', () => {
    for (const [name, value] of [
      ['DATABASE_URL', 'mysql://admin:s3cret@db.example/petstore'],
      ['DATABASE_URL', 'postgres://admin:s3cret@db.example:notaport/petstore'],
      ['REDIS_URL', 'http://default:s3cret@cache.example:6379'],
      ['REDIS_URL', 'redis://:s3cret@[bad'],
      ['PUBLIC_BASE_URL', 'https://user:s3cret@api.example.com'],
    ]) {
      const message = failure({ [name]: value });
      expect(message).toMatch(new RegExp(`^${name} must be`));
      expect(message).not.toContain('s3cret');
      expect(message).not.toContain('admin');
    }
  });

  it('should hide the secret query parameters and the fragment of a URL it refuses, and keep the rest', () => {
    for (const [name, value, kept] of [
      [
        'DATABASE_URL',
        'mysql://db.example/petstore?sslmode=require&password=s3cret',
        'mysql://db.example/petstore?sslmode=require&password=***',
      ],
      [
        'DATABASE_URL',
        'postgres://db.example:notaport/petstore?PASS=s3cret&sslkey=/keys/s3cret.key&sslpassword=s3cret&application_name=api',
        'postgres://db.example:notaport/petstore?PASS=***&sslkey=***&sslpassword=***&application_name=api',
      ],
      [
        'DATABASE_URL',
        'postgres://u:s3cret@db.example:notaport/petstore?pwd=s3cret;p%61ss=s3cret',
        'postgres://***@db.example:notaport/petstore?pwd=***;p%61ss=***',
      ],
      [
        'REDIS_URL',
        'http://cache.example:6379/0?token=s3cret&secret=s3cret&api_key=s3cret#s3cret',
        'http://cache.example:6379/0?token=***&secret=***&api_key=***#***',
      ],
      [
        'PUBLIC_BASE_URL',
        'https://api.example.com/v2?access_token=s3cret',
        'https://api.example.com/v2?access_token=***',
      ],
      ['REDIS_URL', 'redis://[bad?auth=s3cret', 'redis://[bad?auth=***'],
    ] as const) {
      const message = failure({ [name]: value });
      expect(message).toMatch(new RegExp(`^${name} must be`));
      expect(message).toContain(`(got ${JSON.stringify(kept)})`);
      expect(message).not.toContain('s3cret');
    }
  });

  it('should seed demo data only in development, and on PostgreSQL only when APP_ENV says so', () => {
    const postgres = 'postgres://localhost/petstore';
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: postgres }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: postgres, APP_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ APP_ENV: 'staging' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: postgres, APP_ENV: 'production' }).seedDemo).toBe(false);
  });
});
