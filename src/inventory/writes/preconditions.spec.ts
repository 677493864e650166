import { describe, expect, it } from 'vitest';
import { ifMatchAllows, itemEtag, parseIfMatch } from './preconditions.js';

const row = { petId: '9223372036854775807', quantity: 3, status: 'available' as const };

describe('item preconditions', () => {
  it('should tag equal states equally and different states differently', () => {
    expect(itemEtag(row)).toBe(itemEtag({ ...row }));
    expect(itemEtag(row)).not.toBe(itemEtag({ ...row, quantity: 4 }));
    expect(itemEtag(row)).not.toBe(itemEtag({ ...row, status: 'pending' }));
    expect(itemEtag(row)).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it('should match a strong tag among several, and `*`', () => {
    const tag = itemEtag(row);
    expect(ifMatchAllows(parseIfMatch(`"x", ${tag}`), row)).toBe(true);
    expect(ifMatchAllows(parseIfMatch('*'), row)).toBe(true);
    expect(ifMatchAllows(parseIfMatch(undefined), row)).toBe(true);
  });

  it('should never match a weak tag, even with the same opaque value', () => {
    expect(ifMatchAllows(parseIfMatch(`W/${itemEtag(row)}`), row)).toBe(false);
    expect(ifMatchAllows(parseIfMatch('"other"'), row)).toBe(false);
  });

  it('should refuse a malformed field', () => {
    expect(() => parseIfMatch('abc')).toThrow(/If-Match/);
    expect(() => parseIfMatch(', ,')).toThrow(/If-Match/);
  });
});
