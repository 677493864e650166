import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../common/errors/api-error.js';
import { loadConfig } from '../config/app-config.js';
import { isDatabaseError, isRedisError, MetricsService } from './metrics.service.js';

class ReplyError extends Error {}
class SqliteError extends Error {
  code = 'SQLITE_BUSY';
}

async function value(metrics: MetricsService, series: string): Promise<number | undefined> {
  const line = (await metrics.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('MetricsService', () => {
  const service = () => new MetricsService(loadConfig({ METRICS_ENABLED: 'false' }));

  it('should tell database and Redis errors from the rest', () => {
    expect(isDatabaseError(new QueryFailedError('SELECT 1', [], new Error('no such table')))).toBe(
      true,
    );
    expect(isDatabaseError(new SqliteError('busy'))).toBe(true);
    expect(isDatabaseError(Object.assign(new Error('x'), { code: 'SQLITE_CORRUPT' }))).toBe(true);
    for (const unreachable of [
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ])
      expect(isDatabaseError(unreachable)).toBe(true);
    expect(isRedisError(new ReplyError('NOSCRIPT'))).toBe(true);
    for (const other of [new Error('x'), new ApiError('not_found', 'x'), 'text', null, undefined]) {
      expect(isDatabaseError(other)).toBe(false);
      expect(isRedisError(other)).toBe(false);
    }
  });

  it('should count failures by what the filter made of them', async () => {
    const metrics = service();
    metrics.recordFailure(new ApiError('rate_limit_exceeded', 'x'), 'rate_limit_exceeded');
    metrics.recordFailure(new ApiError('api_key_banned', 'x'), 'api_key_banned');
    metrics.recordFailure(new QueryFailedError('SELECT 1', [], new Error('x')), 'internal_error');
    metrics.recordFailure(new ReplyError('x'), 'internal_error');
    metrics.recordFailure(new ApiError('not_found', 'x'), 'not_found');
    expect(
      await value(metrics, 'petstore_rate_limit_rejections_total{code="rate_limit_exceeded"}'),
    ).toBe(1);
    expect(
      await value(metrics, 'petstore_rate_limit_rejections_total{code="api_key_banned"}'),
    ).toBe(1);
    expect(await value(metrics, 'petstore_database_errors_total')).toBe(1);
    expect(await value(metrics, 'petstore_redis_errors_total')).toBe(1);
  });

  it('should count a ban once, when it starts, however many requests it refuses', async () => {
    const metrics = service();
    const ban = 60_000;
    metrics.rateLimitBanObserved('key:1', { now: 1000, retryAt: 61_000 }, ban);
    // The same millisecond, then later requests during the same ban.
    metrics.rateLimitBanObserved('key:1', { now: 1000, retryAt: 61_000 }, ban);
    metrics.rateLimitBanObserved('key:1', { now: 1500, retryAt: 61_000 }, ban);
    // Another client, and the first client banned again later.
    metrics.rateLimitBanObserved('ip:10.0.0.1', { now: 1000, retryAt: 61_000 }, ban);
    metrics.rateLimitBanObserved('key:1', { now: 90_000, retryAt: 150_000 }, ban);
    expect(await value(metrics, 'petstore_rate_limit_bans_total')).toBe(3);
  });

  it('should keep its metrics apart from those of another instance', async () => {
    const a = service();
    const b = service();
    a.rateLimitBanned();
    expect(await value(a, 'petstore_rate_limit_bans_total')).toBe(1);
    expect(await value(b, 'petstore_rate_limit_bans_total')).toBe(0);
  });
});
