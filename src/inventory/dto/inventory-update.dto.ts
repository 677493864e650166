import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, Max, Min, ValidateBy } from 'class-validator';
import { CHANGE_REASONS, type ChangeReason } from '../writes/stock-write.js';

export const MAX_QUANTITY = 2_147_483_647;
const QUANTITY_RANGE = `quantity must be an integer from 0 to ${MAX_QUANTITY}`;

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

  @ApiProperty({
    enum: CHANGE_REASONS,
    enumName: 'ChangeReason',
    required: false,
    description:
      'Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history.',
  })
  // Absent is allowed, null is not.
  @IsIn([...CHANGE_REASONS, undefined], {
    message: `reason must be one of ${CHANGE_REASONS.join(', ')}`,
  })
  reason?: ChangeReason;

  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 255,
    required: false,
    example: 'https://erp.example.com/purchase-orders/4711',
    description:
      'The document behind the change (a purchase order URI, a count sheet). Recorded in the history.',
  })
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
