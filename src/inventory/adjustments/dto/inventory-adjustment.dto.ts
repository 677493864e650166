import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, NotEquals } from 'class-validator';
import { ChangeContext } from '../../dto/change-context.dto.js';
import { MAX_QUANTITY } from '../../dto/inventory-update.dto.js';

export const DELTA_RANGE = `must be a non-zero integer from -${MAX_QUANTITY} to ${MAX_QUANTITY}`;

export class InventoryAdjustment extends ChangeContext {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: -MAX_QUANTITY,
    maximum: MAX_QUANTITY,
    example: -1,
    description:
      'How much the stock changes: negative takes out (a sale, a loss), positive adds. Not 0.',
  })
  @IsInt({ message: `delta ${DELTA_RANGE}` })
  @Min(-MAX_QUANTITY, { message: `delta ${DELTA_RANGE}` })
  @Max(MAX_QUANTITY, { message: `delta ${DELTA_RANGE}` })
  @NotEquals(0, { message: `delta ${DELTA_RANGE}` })
  delta!: number;
}
