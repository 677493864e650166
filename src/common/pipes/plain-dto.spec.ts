import 'reflect-metadata';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InventoryUpdate, MAX_QUANTITY } from '../../inventory/dto/inventory-update.dto.js';
import { plainDtoCheck } from './plain-dto.js';
import { API_VALIDATION_OPTIONS, ApiValidationPipe } from './validation.pipe.js';

@ValidatorConstraint({ name: 'notBelowLow' })
class NotBelowLow implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'number' && value >= (args.object as { low: number }).low;
  }
}

/** Strings, a list of words, and a constraint that reads another property of the built instance. */
class Reorder {
  @IsString()
  @Length(1, 8)
  sku!: string;

  @IsIn(['low', 'high'])
  urgency!: string;

  @IsInt()
  low!: number;

  @IsInt()
  @Validate(NotBelowLow)
  high!: number;
}

@ValidatorConstraint({ name: 'later', async: true })
class Later implements ValidatorConstraintInterface {
  validate(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

class Nested {
  @ValidateNested()
  @Type(() => InventoryUpdate)
  update!: InventoryUpdate;
}

class Optional {
  @IsOptional()
  @IsInt()
  quantity?: number;
}

class Converted {
  @Transform(({ value }: { value: unknown }) => Number(value))
  @IsInt()
  quantity!: number;
}

class Renamed {
  @Expose({ name: 'qty' })
  @IsInt()
  quantity!: number;
}

@Exclude()
class Hidden {
  @IsInt()
  quantity!: number;
}

class Asynchronous {
  @Validate(Later)
  quantity!: number;
}

class Each {
  @IsInt({ each: true })
  quantities!: number[];
}

class Defaulted {
  @IsInt()
  quantity!: number;

  note = 'none';
}

class Accessor {
  @IsInt()
  get quantity(): number {
    return 1;
  }
}

class Undecorated {
  quantity!: number;
}

const KEYS = ['quantity', 'sku', 'urgency', 'low', 'high', 'note', 'extra', 'QUANTITY'];
const VALUES = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(MAX_QUANTITY, MAX_QUANTITY + 1, 2 ** 53, -0, 0.5, 1e21, Number.MAX_VALUE),
  fc.integer({ min: 0, max: MAX_QUANTITY }),
  fc.double(),
  fc.string({ maxLength: 10 }),
  fc.constantFrom('low', 'high', '', '7', 'ab'),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom(...KEYS), fc.integer(), { maxKeys: 2 }),
);
const BODIES = fc.dictionary(fc.constantFrom(...KEYS), VALUES, { maxKeys: 4 });

/** What the pipe answers: the instance it built, or the message of the error it threw. */
async function outcome(
  pipe: ValidationPipe,
  body: object,
  metatype: ArgumentMetadata['metatype'],
): Promise<unknown> {
  try {
    return await pipe.transform(structuredClone(body), { type: 'body', metatype });
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('plainDtoCheck', () => {
  const library = new ValidationPipe(API_VALIDATION_OPTIONS);

  it('should accept every valid InventoryUpdate, building the instance the library builds', async () => {
    const check = plainDtoCheck(InventoryUpdate)!;
    expect(check).toBeTypeOf('function');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: MAX_QUANTITY }), async (quantity) => {
        const accepted = check({ quantity });
        expect(accepted).toBeInstanceOf(InventoryUpdate);
        expect(accepted).toStrictEqual(await outcome(library, { quantity }, InventoryUpdate));
      }),
    );
  });

  it('should accept only what the library accepts, and as the library builds it', async () => {
    for (const metatype of [InventoryUpdate, Reorder]) {
      const check = plainDtoCheck(metatype)!;
      expect(check, metatype.name).toBeTypeOf('function');
      await fc.assert(
        fc.asyncProperty(BODIES, async (body) => {
          const accepted = check(structuredClone(body));
          if (accepted !== undefined)
            expect(accepted).toStrictEqual(await outcome(library, body, metatype));
        }),
        { numRuns: 500 },
      );
    }
  });

  it('should run a constraint against the instance it builds, as the library does', () => {
    const check = plainDtoCheck(Reorder)!;
    const accepted = check({ sku: 'A1', urgency: 'low', low: 2, high: 3 });
    expect(accepted).toBeInstanceOf(Reorder);
    expect(check({ sku: 'A1', urgency: 'low', low: 4, high: 3 })).toBeUndefined();
  });

  it('should build no check where plainToInstance or the validator would do more than copy and check', () => {
    for (const metatype of [
      Nested,
      Optional,
      Converted,
      Renamed,
      Hidden,
      Asynchronous,
      Each,
      Defaulted,
      Accessor,
      Undecorated,
    ]) {
      expect(plainDtoCheck(metatype), metatype.name).toBeUndefined();
    }
  });
});

describe('ApiValidationPipe', () => {
  it('should answer every body as the library alone would', async () => {
    const pipe = new ApiValidationPipe();
    const library = new ValidationPipe(API_VALIDATION_OPTIONS);
    const metatypes = [InventoryUpdate, Reorder, Nested, Optional, Converted, Renamed, Defaulted];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...metatypes), BODIES, async (metatype, body) => {
        expect(await outcome(pipe, body, metatype)).toStrictEqual(
          await outcome(library, body, metatype),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
