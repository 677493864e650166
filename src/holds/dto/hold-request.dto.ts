import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { present, ReferenceField } from '../../inventory/dto/change-context.dto.js';
import { MAX_QUANTITY } from '../../inventory/dto/inventory-update.dto.js';

export const MIN_EXPIRES_IN = 60;
export const MAX_EXPIRES_IN = 86_400;
export const DEFAULT_EXPIRES_IN = 900;

const QUANTITY_RANGE = `quantity must be an integer from 1 to ${MAX_QUANTITY}`;
const EXPIRES_IN_RANGE = `expiresIn must be an integer from ${MIN_EXPIRES_IN} to ${MAX_EXPIRES_IN} (seconds)`;

export class HoldRequest {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_QUANTITY,
    example: 1,
    description: 'How many units to keep',
  })
  @IsDefined({ message: 'quantity is required' })
  @IsInt({ message: QUANTITY_RANGE })
  @Min(1, { message: QUANTITY_RANGE })
  @Max(MAX_QUANTITY, { message: QUANTITY_RANGE })
  quantity!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: MIN_EXPIRES_IN,
    maximum: MAX_EXPIRES_IN,
    default: DEFAULT_EXPIRES_IN,
    required: false,
    example: 900,
    description: 'Seconds until the hold ends by itself, unless confirmed or released first',
  })
  @ValidateIf(present('expiresIn'))
  @IsInt({ message: EXPIRES_IN_RANGE })
  @Min(MIN_EXPIRES_IN, { message: EXPIRES_IN_RANGE })
  @Max(MAX_EXPIRES_IN, { message: EXPIRES_IN_RANGE })
  expiresIn?: number;

  @ReferenceField({
    example: 'cart-8d1f',
    description:
      "The shop's own name for what the hold is for (a cart, an order); the stock change of its confirm carries it",
  })
  reference?: string;
}
