import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min } from 'class-validator';

export const MAX_QUANTITY = 2_147_483_647;
const QUANTITY_RANGE = `quantity must be an integer from 0 to ${MAX_QUANTITY}`;

/** The spec's InventoryUpdate: the new stock count, and nothing else. */
export class InventoryUpdate {
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
