import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min } from 'class-validator';
import { ChangeContext } from './change-context.dto.js';

export const MAX_QUANTITY = 2_147_483_647;
const QUANTITY_RANGE = `quantity must be an integer from 0 to ${MAX_QUANTITY}`;

/** A `PATCH` body: the new count, and why (as on every stock change). */
export class InventoryUpdate extends ChangeContext {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_QUANTITY,
    example: 12,
    description: 'The new stock count',
  })
  @IsDefined({ message: 'quantity is required' })
  @IsInt({ message: QUANTITY_RANGE })
  @Min(0, { message: QUANTITY_RANGE })
  @Max(MAX_QUANTITY, { message: QUANTITY_RANGE })
  quantity!: number;
}
