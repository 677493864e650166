import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { CHANGE_REASONS, type ChangeReason } from '../writes/stock-write.js';

const REASON_DESCRIPTION =
  'Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history.';
const REFERENCE_DESCRIPTION =
  'The document behind the change (a purchase order URI, a count sheet, an order number). Recorded in the history.';

// C0, DEL and C1: PostgreSQL refuses NUL in text, and the others hide in logs and terminals.
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/u;

/** Text a person wrote: no control characters, on every dialect alike. */
export const NoControlCharacters = (field: string): PropertyDecorator =>
  Matches(CONTROL_CHARACTERS, {
    message: `${field} must not contain control characters (U+0000 to U+001F, U+007F to U+009F)`,
  });

// Absent is allowed, null is not.
export const present = (field: string) => (body: object) =>
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
    pattern: CONTROL_CHARACTERS.source,
    required: false,
    example: 'https://shop.example.com/orders/1001',
    description: REFERENCE_DESCRIPTION,
  })
  @ValidateIf(present('reference'))
  // Checked last (class-validator runs these bottom up): a number is refused as not a string.
  @NoControlCharacters('reference')
  @IsString({ message: 'reference must be a string of 1 to 255 characters' })
  @Length(1, 255, { message: 'reference must be a string of 1 to 255 characters' })
  reference?: string;
}
