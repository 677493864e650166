import 'reflect-metadata';
import { IsDefined, IsIn, IsInt, Max, Min, ValidateBy } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiValidationPipe } from '../../common/pipes/validation.pipe.js';
import { CHANGE_REASONS, type ChangeReason } from '../writes/stock-write.js';
import { InventoryUpdate, MAX_QUANTITY } from './inventory-update.dto.js';

const QUANTITY_RANGE = `quantity must be an integer from 0 to ${MAX_QUANTITY}`;

/** The body's rules as class-validator decorators: what the ValidationPipe answered before. */
class DecoratedUpdate {
  @IsDefined({ message: 'quantity is required' })
  @IsInt({ message: QUANTITY_RANGE })
  @Min(0, { message: QUANTITY_RANGE })
  @Max(MAX_QUANTITY, { message: QUANTITY_RANGE })
  quantity!: number;

  @IsIn([...CHANGE_REASONS, undefined], {
    message: `reason must be one of ${CHANGE_REASONS.join(', ')}`,
  })
  reason?: ChangeReason;

  @ValidateBy({
    name: 'isReference',
    validator: {
      validate: (value: unknown) =>
        value === undefined ||
        (typeof value === 'string' && value.length >= 1 && value.length <= 255),
      defaultMessage: () => 'reference must be a string of 1 to 255 characters',
    },
  })
  reference?: string;
}

const pipe = new ApiValidationPipe();

async function answer(body: unknown, metatype: new () => object): Promise<unknown> {
  try {
    const value = await pipe.transform(body, { type: 'body', metatype, data: '' });
    return { value: { ...(value as object) } };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const anyValue = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(MAX_QUANTITY, MAX_QUANTITY + 1, 1.5, -0, 1e21, '', '7', true, null, [], {}, [3]),
  fc.constantFrom(...CHANGE_REASONS, 'RECEIVED', 'lost'),
  fc.string({ minLength: 0, maxLength: 3 }),
  fc.constantFrom('x'.repeat(255), 'x'.repeat(256), 12345),
  fc.jsonValue({ maxDepth: 1 }),
);
const body = fc.dictionary(
  fc.constantFrom('quantity', 'reason', 'reference', 'quantity', 'extra', 'Quantity', 'note'),
  anyValue,
  { maxKeys: 5 },
);

describe('InventoryUpdate.parse', () => {
  it('should answer every body exactly as the ValidationPipe does with the rules as decorators', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (candidate) => {
        const own = await answer(structuredClone(candidate), InventoryUpdate);
        const decorated = await answer(structuredClone(candidate), DecoratedUpdate);
        expect(own).toEqual(decorated);
      }),
      { numRuns: 2000 },
    );
  });

  it('should give an InventoryUpdate of the known fields, and list every problem', async () => {
    const valid = await pipe.transform(
      { quantity: 3, reason: 'received', reference: 'PO-1' },
      { type: 'body', metatype: InventoryUpdate, data: '' },
    );
    expect(valid).toBeInstanceOf(InventoryUpdate);
    expect(valid).toMatchObject({ quantity: 3, reason: 'received', reference: 'PO-1' });
    expect(
      await answer({ extra: 1, quantity: -1, reason: null, reference: '' }, InventoryUpdate),
    ).toEqual({
      error: `property extra should not exist; ${QUANTITY_RANGE}; reason must be one of ${CHANGE_REASONS.join(', ')}; reference must be a string of 1 to 255 characters`,
    });
  });
});
