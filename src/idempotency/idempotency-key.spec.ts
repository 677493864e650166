import { describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../common/errors/api-error.js';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key.js';

describe('parseIdempotencyKey', () => {
  it('should take 1 to 255 characters and refuse anything else with 400', () => {
    const sent = (header: string | string[] | undefined) => ({
      headers: { 'idempotency-key': header },
      rawHeaders: header === undefined ? [] : ['Idempotency-Key', String(header)],
    });
    expect(parseIdempotencyKey(sent('a'))).toBe('a');
    expect(parseIdempotencyKey(sent('k'.repeat(255)))).toBe('k'.repeat(255));
    for (const header of [undefined, '', '  ', 'k'.repeat(256), ['a', 'b']])
      expect(() => parseIdempotencyKey(sent(header))).toThrow(ValidationFailedError);
  });

  it('should refuse a key sent twice, which Node joins into one value', () => {
    const joined = {
      headers: { 'idempotency-key': 'a, b' },
      rawHeaders: ['Idempotency-Key', 'a', 'idempotency-key', 'b'],
    };
    expect(() => parseIdempotencyKey(joined)).toThrow('Idempotency-Key must be sent once');
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
