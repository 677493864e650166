import { describe, expect, it } from 'vitest';
import { INT64 } from './int64.js';

describe('INT64 column transformer', () => {
  it('should write bigints as exact decimal text and read text back exactly', () => {
    expect(INT64.to(9223372036854775807n)).toBe('9223372036854775807');
    expect(INT64.from('9007199254740993')).toBe(9007199254740993n);
    expect(INT64.from(42)).toBe(42n);
    expect(INT64.from(null)).toBeNull();
  });

  it('should refuse a number already rounded by the driver', () => {
    expect(() => INT64.from(9007199254740992)).toThrow(/rounded/);
  });
});
