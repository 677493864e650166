import { describe, expect, it } from 'vitest';
import { EXPIRES_IN, GRACE, parseKeyDuration } from './key-duration.js';

const HOUR = 3_600_000;

describe('parseKeyDuration', () => {
  it('should read hours and days for --expires-in', () => {
    expect(parseKeyDuration('1h', EXPIRES_IN)).toBe(HOUR);
    expect(parseKeyDuration('12h', EXPIRES_IN)).toBe(12 * HOUR);
    expect(parseKeyDuration('30d', EXPIRES_IN)).toBe(30 * 24 * HOUR);
    expect(parseKeyDuration('3650d', EXPIRES_IN)).toBe(3650 * 24 * HOUR);
  });

  it.each([
    '',
    '0h',
    '0d',
    '3651d',
    '1.5h',
    '-1h',
    '1 h',
    '1H',
    '1m',
    '1w',
    'h',
    '24',
    '+1h',
    '0x1h',
  ])('should refuse %j for --expires-in, saying what is expected', (value) => {
    expect(parseKeyDuration(value, EXPIRES_IN)).toEqual({
      error: `must be a whole number of days or hours such as 30d or 12h, from 1h to 3650d (got ${JSON.stringify(value)})`,
    });
  });

  it('should read a grace in hours, zero included', () => {
    expect(parseKeyDuration('0h', GRACE)).toBe(0);
    expect(parseKeyDuration('24h', GRACE)).toBe(24 * HOUR);
    expect(parseKeyDuration('720h', GRACE)).toBe(720 * HOUR);
  });

  it.each(['1d', '721h', '24', 'soon'])('should refuse %j as a grace', (value) => {
    expect(parseKeyDuration(value, GRACE)).toEqual({
      error: `must be a whole number of hours such as 24h, from 0h to 720h (got ${JSON.stringify(value)})`,
    });
  });
});
