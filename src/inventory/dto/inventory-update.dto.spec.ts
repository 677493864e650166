import 'reflect-metadata';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiValidationPipe } from '../../common/pipes/validation.pipe.js';
import { CHANGE_REASONS } from '../writes/stock-write.js';
import { InventoryUpdate, MAX_QUANTITY } from './inventory-update.dto.js';

const QUANTITY_RANGE = `quantity must be an integer from 0 to ${MAX_QUANTITY}`;
const REASON = `reason must be one of ${CHANGE_REASONS.join(', ')}`;
const REFERENCE = 'reference must be a string of 1 to 255 characters';

const pipe = new ApiValidationPipe();

async function answer(body: unknown): Promise<{ value: object } | { error: string }> {
  try {
    const value = await pipe.transform(body, {
      type: 'body',
      metatype: InventoryUpdate,
      data: '',
    });
    return { value: { ...(value as object) } };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('InventoryUpdate through the ValidationPipe', () => {
  it.each([
    [{ quantity: 0 }, { value: { quantity: 0 } }],
    [{ quantity: MAX_QUANTITY }, { value: { quantity: MAX_QUANTITY } }],
    [
      { quantity: 3, reason: 'received', reference: 'PO-1' },
      { value: { quantity: 3, reason: 'received', reference: 'PO-1' } },
    ],
    [
      { quantity: 1, reference: 'x'.repeat(255) },
      { value: { quantity: 1, reference: 'x'.repeat(255) } },
    ],
    [{}, { error: 'quantity is required' }],
    [{ quantity: null }, { error: 'quantity is required' }],
    [{ quantity: -1 }, { error: QUANTITY_RANGE }],
    [{ quantity: MAX_QUANTITY + 1 }, { error: QUANTITY_RANGE }],
    [{ quantity: 1.5 }, { error: QUANTITY_RANGE }],
    [{ quantity: 1e21 }, { error: QUANTITY_RANGE }],
    [{ quantity: '7' }, { error: QUANTITY_RANGE }],
    [{ quantity: true }, { error: QUANTITY_RANGE }],
    [{ quantity: [3] }, { error: QUANTITY_RANGE }],
    [{ quantity: 1, reason: 'RECEIVED' }, { error: REASON }],
    [{ quantity: 1, reason: null }, { error: REASON }],
    [{ quantity: 1, reference: '' }, { error: REFERENCE }],
    [{ quantity: 1, reference: 'x'.repeat(256) }, { error: REFERENCE }],
    [{ quantity: 1, reference: 12345 }, { error: REFERENCE }],
    [{ quantity: 1, Quantity: 1 }, { error: 'property Quantity should not exist' }],
    [
      { extra: 1, quantity: -1, reason: null, reference: '' },
      { error: `property extra should not exist; ${QUANTITY_RANGE}; ${REASON}; ${REFERENCE}` },
    ],
    [
      JSON.parse('{"quantity":1,"__proto__":{"x":1}}'),
      { error: 'property __proto__ should not exist' },
    ],
    [{ quantity: 1, toString: 'x' }, { error: 'property toString should not exist' }],
    [[{ quantity: 1 }], { error: 'Request body must be a JSON object' }],
    [null, { error: 'Request body must be a JSON object' }],
  ])('should answer %j with %j', async (body, expected) => {
    expect(await answer(body)).toEqual(expected);
  });

  it('should name at most 10 unknown fields, and count the rest', async () => {
    const body: Record<string, number> = { quantity: 1 };
    for (let i = 0; i < 12; i++) body[`f${i}`] = i;
    const { error } = (await answer(body)) as { error: string };
    expect(error.split('; ')).toHaveLength(11);
    expect(error).toMatch(
      /^property f0 should not exist; .*property f9 should not exist; and 2 more$/,
    );
  });

  it('should accept every valid body unchanged, as an InventoryUpdate', async () => {
    const valid = fc.record(
      {
        quantity: fc.integer({ min: 0, max: MAX_QUANTITY }),
        reason: fc.constantFrom(...CHANGE_REASONS),
        reference: fc.string({ minLength: 1, maxLength: 255 }),
      },
      { requiredKeys: ['quantity'] },
    );
    await fc.assert(
      fc.asyncProperty(valid, async (body) => {
        const value = await pipe.transform(structuredClone(body), {
          type: 'body',
          metatype: InventoryUpdate,
          data: '',
        });
        expect(value).toBeInstanceOf(InventoryUpdate);
        expect({ ...(value as object) }).toEqual(body);
      }),
      { numRuns: 300 },
    );
  });

  it('should refuse every body with a field it does not know, naming it', async () => {
    const unknown = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter(
        (key) => !['quantity', 'reason', 'reference'].includes(key) && !(key in Object.prototype),
      );
    await fc.assert(
      fc.asyncProperty(unknown, fc.jsonValue({ maxDepth: 1 }), async (key, value) => {
        const result = await answer({ quantity: 1, [key]: value });
        expect(result).toEqual({ error: `property ${key} should not exist` });
      }),
      { numRuns: 300 },
    );
  });
});
