import { describe, expect, it } from 'vitest';
import { decodeHoldCursor, encodeHoldCursor } from './hold-cursor.js';

const HOLD_ID = '3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30';

describe('hold cursors', () => {
  it('should read back every position it wrote', () => {
    for (const createdAt of [0, 1, Date.parse('2030-03-01T10:00:00Z'), Number.MAX_SAFE_INTEGER])
      expect(decodeHoldCursor(encodeHoldCursor({ createdAt, holdId: HOLD_ID }))).toEqual({
        createdAt,
        holdId: HOLD_ID,
      });
  });

  it('should refuse text it did not write', () => {
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    for (const text of [
      '',
      'h1',
      encodeHoldCursor({ createdAt: 1, holdId: HOLD_ID }) + 'A',
      encode(`h01.${HOLD_ID}`),
      encode(`h-1.${HOLD_ID}`),
      encode(`h${Number.MAX_SAFE_INTEGER + 1}.${HOLD_ID}`),
      encode(`h1.${HOLD_ID.toUpperCase()}`),
      encode('h1.not-a-hold'),
      encode('c12'),
    ])
      expect(() => decodeHoldCursor(text), text).toThrow(/cursor/);
  });
});
