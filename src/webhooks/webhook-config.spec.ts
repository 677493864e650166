import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, loadConfig } from '../config/app-config.js';

describe('webhook configuration', () => {
  it('should default to the contract schedule, https only and no private addresses', () => {
    expect(loadConfig({ APP_ENV: 'production' }).webhooks).toEqual({
      timeoutMs: 15_000,
      retrySchedule: DEFAULT_WEBHOOK_RETRY_SCHEDULE,
      allowHttp: false,
      allowPrivate: false,
      allowLoopback: false,
      pollMs: 200,
      leaseMs: 15_000,
    });
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
  });

  it('should allow loopback receivers only when told, in every environment', () => {
    expect(loadConfig({}).webhooks.allowLoopback).toBe(false);
    expect(loadConfig({ APP_ENV: 'staging' }).webhooks.allowLoopback).toBe(false);
    expect(
      loadConfig({ APP_ENV: 'development', WEBHOOK_ALLOW_LOOPBACK: 'false' }).webhooks
        .allowLoopback,
    ).toBe(false);
    expect(
      loadConfig({ APP_ENV: 'production', WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback,
    ).toBe(true);
  });

  it('should take a comma-separated schedule of whole seconds', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 2,3' }).webhooks.retrySchedule).toEqual([
      1, 2, 3,
    ]);
  });

  it.each(['1,,2', '1.5', '-1', 'soon', Array(21).fill('1').join(',')])(
    'should refuse the schedule %j with a line naming the variable',
    (value) => {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: value })).toThrow(
        /^WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated whole seconds/,
      );
    },
  );

  it('should refuse a timeout or lease out of range', () => {
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(() => loadConfig({ WEBHOOK_LEASE_MS: '60000' })).toThrow(/WEBHOOK_LEASE_MS/);
  });
});
