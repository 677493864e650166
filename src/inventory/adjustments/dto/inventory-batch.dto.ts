import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  isObject,
  Max,
  Min,
  NotEquals,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { INT64_MAX, parseInt64Id } from '../../../common/pipes/pet-id.pipe.js';
import { InventoryItem } from '../../dto/inventory-item.dto.js';
import { MAX_QUANTITY } from '../../dto/inventory-update.dto.js';
import { ChangeContext } from '../../dto/change-context.dto.js';
import { DELTA_RANGE } from './inventory-adjustment.dto.js';

export const MAX_BATCH_LINES = 100;
const QUANTITY_RANGE = `must be an integer from 0 to ${MAX_QUANTITY}`;
const PET_ID_RANGE = `petId must be an integer from 1 to ${INT64_MAX}, or a string of its digits`;

/** An int64 pet id: a JSON integer (read exactly: bigint above 2^53), or a string of digits. */
export function batchPetId(value: unknown): bigint | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 1 ? BigInt(value) : undefined;
  if (typeof value === 'bigint') return value >= 1n && value <= INT64_MAX ? value : undefined;
  return typeof value === 'string' ? parseInt64Id(value) : undefined;
}

const IsPetId = () =>
  ValidateBy({
    name: 'isPetId',
    validator: {
      validate: (value) => batchPetId(value) !== undefined,
      defaultMessage: () => PET_ID_RANGE,
    },
  });

const OneOfQuantityDelta = () =>
  ValidateBy({
    name: 'oneOfQuantityDelta',
    validator: {
      validate: (_value, args) => {
        const line = args?.object as { quantity?: unknown; delta?: unknown };
        return (line.quantity === undefined) !== (line.delta === undefined);
      },
      defaultMessage: () => 'exactly one of quantity and delta is required',
    },
  });

// class-validator validates an array found where a line belongs as a list of lines.
const EachLineAnObject = () =>
  ValidateBy({
    name: 'eachLineAnObject',
    validator: {
      // Not an array at all is IsArray's to report.
      validate: (value) => !Array.isArray(value) || value.every((line) => isObject(line)),
      defaultMessage: (args) => {
        const index = (args?.value as unknown[]).findIndex((line) => !isObject(line));
        return `line ${index + 1} must be an object {petId, quantity or delta, expectedQuantity?, reason?, reference?}`;
      },
    },
  });

const has = (field: 'quantity' | 'delta' | 'expectedQuantity') => (line: StockChangeLine) =>
  line[field] !== undefined;

export class StockChangeLine extends ChangeContext {
  @ApiProperty({
    oneOf: [
      { type: 'integer', format: 'int64', minimum: 1 },
      { type: 'string', pattern: '^[0-9]{1,19}$' },
    ],
    example: 42,
    description:
      'The pet whose stock changes: an integer, or a string of digits (for clients whose JSON numbers lose precision above 9007199254740991)',
  })
  @IsDefined({ message: 'petId is required' })
  @IsPetId()
  // Here, where validation always runs: the ValidateIf of quantity and delta skips theirs.
  @OneOfQuantityDelta()
  petId!: number | bigint | string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_QUANTITY,
    required: false,
    example: 12,
    description: 'The new stock count (a set). Exactly one of `quantity` and `delta`.',
  })
  @ValidateIf(has('quantity'))
  @IsInt({ message: `quantity ${QUANTITY_RANGE}` })
  @Min(0, { message: `quantity ${QUANTITY_RANGE}` })
  @Max(MAX_QUANTITY, { message: `quantity ${QUANTITY_RANGE}` })
  quantity?: number;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: -MAX_QUANTITY,
    maximum: MAX_QUANTITY,
    required: false,
    example: -1,
    description:
      'How much the stock changes (an adjustment), not 0. Exactly one of `quantity` and `delta`.',
  })
  @ValidateIf(has('delta'))
  @IsInt({ message: `delta ${DELTA_RANGE}` })
  @Min(-MAX_QUANTITY, { message: `delta ${DELTA_RANGE}` })
  @Max(MAX_QUANTITY, { message: `delta ${DELTA_RANGE}` })
  @NotEquals(0, { message: `delta ${DELTA_RANGE}` })
  delta?: number;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_QUANTITY,
    required: false,
    example: 13,
    description:
      'Apply the line only if the pet holds exactly this many now (after the earlier lines of the batch); else the whole batch is refused with 409 `quantity_mismatch`',
  })
  @ValidateIf(has('expectedQuantity'))
  @IsInt({ message: `expectedQuantity ${QUANTITY_RANGE}` })
  @Min(0, { message: `expectedQuantity ${QUANTITY_RANGE}` })
  @Max(MAX_QUANTITY, { message: `expectedQuantity ${QUANTITY_RANGE}` })
  expectedQuantity?: number;
}

export class InventoryBatch {
  @ApiProperty({
    type: [StockChangeLine],
    minItems: 1,
    maxItems: MAX_BATCH_LINES,
    description: `1 to ${MAX_BATCH_LINES} lines, applied in order, all or none`,
  })
  @IsDefined({ message: 'changes is required' })
  @IsArray({ message: `changes must be an array of 1 to ${MAX_BATCH_LINES} lines` })
  @ArrayMinSize(1, { message: `changes must be an array of 1 to ${MAX_BATCH_LINES} lines` })
  @ArrayMaxSize(MAX_BATCH_LINES, {
    message: `changes must be an array of 1 to ${MAX_BATCH_LINES} lines`,
  })
  @EachLineAnObject()
  @ValidateNested({ each: true })
  @Type(() => StockChangeLine)
  changes!: StockChangeLine[];
}

export class InventoryBatchResult {
  @ApiProperty({
    type: [InventoryItem],
    description: 'The entry of each line after the batch, in line order',
  })
  items!: InventoryItem[];
}
