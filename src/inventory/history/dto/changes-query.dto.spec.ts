import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { ApiValidationPipe } from '../../../common/pipes/validation.pipe.js';
import { encodeCursor } from '../change-cursor.js';
import { ChangesQuery } from './changes-query.dto.js';

const pipe = new ApiValidationPipe();
const check = (query: Record<string, unknown>) =>
  pipe.transform(query, { type: 'query', metatype: ChangesQuery, data: '' });

describe('ChangesQuery through the ValidationPipe', () => {
  it('should take a cursor it wrote and limits from 1 to 1000, and ignore other parameters', async () => {
    const after = encodeCursor(9007199254740993n);
    await expect(check({ after, limit: '1000', v: '2' })).resolves.toEqual({
      after,
      limit: '1000',
    });
    await expect(check({ limit: '1' })).resolves.toEqual({ limit: '1' });
    await expect(check({})).resolves.toEqual({});
  });

  it('should refuse malformed limits and cursors with their messages', async () => {
    for (const limit of ['0', '1001', '-1', '1.5', 'ten', '', '01', ['1', '2']])
      await expect(check({ limit }), String(limit)).rejects.toThrow(
        'limit must be an integer from 1 to 1000',
      );
    for (const after of ['', 'abc', 'c1', encodeCursor(1n) + 'A', ['a', 'b']])
      await expect(check({ after }), String(after)).rejects.toThrow(
        'after must be a cursor this API returned',
      );
  });
});
