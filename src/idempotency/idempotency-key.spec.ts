import { describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../common/errors/api-error.js';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key.js';

describe('parseIdempotencyKey', () => {
  it('should take 1 to 255 characters and refuse anything else with 400', () => {
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
    for (const header of [undefined, '', '  ', 'k'.repeat(256), ['a', 'b']])
      expect(() => parseIdempotencyKey(header)).toThrow(ValidationFailedError);
  });
});

describe('requestFingerprint', () => {
  it('should tell requests apart by method, path and body, not by member order', () => {
    const base = requestFingerprint('POST', '/v1/inventory/1/adjustments', {
      delta: -1,
      reason: 'sold',
    });
    expect(
      requestFingerprint('post', '/v1/inventory/1/adjustments', { reason: 'sold', delta: -1 }),
    ).toBe(base);
    expect(
      requestFingerprint('POST', '/v1/inventory/2/adjustments', { delta: -1, reason: 'sold' }),
    ).not.toBe(base);
    expect(
      requestFingerprint('POST', '/v1/inventory/1/adjustments', { delta: -2, reason: 'sold' }),
    ).not.toBe(base);
    expect(
      requestFingerprint('PATCH', '/v1/inventory/1/adjustments', { delta: -1, reason: 'sold' }),
    ).not.toBe(base);
    const lines = (a: number, b: number) => ({ changes: [{ petId: a }, { petId: b }] });
    expect(requestFingerprint('POST', '/b', lines(1, 2))).not.toBe(
      requestFingerprint('POST', '/b', lines(2, 1)),
    );
  });
});
