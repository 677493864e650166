import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './change-cursor.js';

describe('change cursors', () => {
  it('should read back every position it wrote', () => {
    for (const position of [0n, 1n, 9007199254740993n, 2n ** 63n - 1n])
      expect(decodeCursor(encodeCursor(position))).toBe(position);
  });

  it('should refuse text it did not write', () => {
    for (const text of [
      '',
      '12',
      'c1',
      encodeCursor(1n) + 'A',
      Buffer.from('c01').toString('base64url'),
      Buffer.from(`c${2n ** 63n}`).toString('base64url'),
    ])
      expect(() => decodeCursor(text), text).toThrow(/cursor/);
  });
});
