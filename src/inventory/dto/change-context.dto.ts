import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { CHANGE_REASONS, type ChangeReason } from '../writes/stock-write.js';

const REASON_DESCRIPTION =
  'Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history.';
const REFERENCE_DESCRIPTION =
  'The document behind the change (a purchase order URI, a count sheet, an order number). Recorded in the history.';

// Absent is allowed, null is not.
const present = (field: string) => (body: object) =>
  (body as Record<string, unknown>)[field] !== undefined;

/** The fields every stock change may carry: why, and on which document. */
export class ChangeContext {
  @ApiProperty({
    enum: CHANGE_REASONS,
    enumName: 'ChangeReason',
    required: false,
    description: REASON_DESCRIPTION,
  })
  @ValidateIf(present('reason'))
  @IsIn(CHANGE_REASONS, { message: `reason must be one of ${CHANGE_REASONS.join(', ')}` })
  reason?: ChangeReason;

  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 255,
    required: false,
    example: 'https://shop.example.com/orders/1001',
    description: REFERENCE_DESCRIPTION,
  })
  @ValidateIf(present('reference'))
  @IsString({ message: 'reference must be a string of 1 to 255 characters' })
  @Length(1, 255, { message: 'reference must be a string of 1 to 255 characters' })
  reference?: string;
}
