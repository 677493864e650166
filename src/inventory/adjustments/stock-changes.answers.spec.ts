import { describe, expect, it } from 'vitest';
import { batchAnswer } from './stock-changes.answers.js';

const row = (petId: string, quantity: number) => ({
  petId,
  quantity,
  status: 'available' as const,
});

describe('batchAnswer', () => {
  it('should name a refused batch by its gravest refusal and list every refused line', () => {
    const answer = batchAnswer([1n, 2n, 3n], {
      kind: 'refused',
      refusals: [
        { index: 0, code: 'insufficient_stock', current: row('1', 0) },
        { index: 2, code: 'not_found' },
      ],
    });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({
      code: 'not_found',
      message: 'Nothing was changed: line 3 was refused (No pet with id 3), and 1 more line',
      status: 404,
      details: {
        lines: [
          {
            index: 0,
            code: 'insufficient_stock',
            current: { petId: 1, quantity: 0, status: 'available', available: 0 },
          },
          { index: 2, code: 'not_found' },
        ],
      },
    });
  });

  it('should answer a line above the maximum with 400', () => {
    const answer = batchAnswer([1n], {
      kind: 'refused',
      refusals: [{ index: 0, code: 'quantity_out_of_range', current: row('1', 2147483647) }],
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).details.lines).toEqual([
      {
        index: 0,
        code: 'validation_failed',
        current: { petId: 1, quantity: 2147483647, status: 'available', available: 2147483647 },
      },
    ]);
  });
});
