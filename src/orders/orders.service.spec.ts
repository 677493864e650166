import { describe, expect, it } from 'vitest';
import { toOrder, utcIso } from './orders.service.js';

describe('utcIso', () => {
  it("should read both dialects' zone-less UTC text as ISO 8601", () => {
    expect(utcIso('2026-12-01 09:30:00.000')).toBe('2026-12-01T09:30:00.000Z');
    expect(utcIso('2026-12-01 09:30:00')).toBe('2026-12-01T09:30:00.000Z');
    expect(utcIso('2026-12-01 09:30:00.25')).toBe('2026-12-01T09:30:00.250Z');
    expect(utcIso('2026-12-01T09:30:00.000Z')).toBe('2026-12-01T09:30:00.000Z');
  });
});

describe('toOrder', () => {
  it("should omit shipDate until scheduled and read either driver's boolean", () => {
    const row = {
      id: '9223372036854775807',
      petId: '1',
      quantity: 2,
      status: 'placed' as const,
      shipDate: null,
    };
    expect(toOrder({ ...row, complete: 0 })).toEqual({
      id: 9223372036854775807n,
      petId: 1n,
      quantity: 2,
      status: 'placed',
      complete: false,
    });
    expect(toOrder({ ...row, complete: true }).complete).toBe(true);
    expect(toOrder({ ...row, complete: 1, shipDate: '2026-12-01 09:30:00' })).toMatchObject({
      shipDate: '2026-12-01T09:30:00.000Z',
      complete: true,
    });
  });
});
