import { applyDecorators } from '@nestjs/common';
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

// Absent is allowed, null is not.
export const present = (field: string) => (body: object) =>
  (body as Record<string, unknown>)[field] !== undefined;

const REFERENCE_LENGTH = 'reference must be a string of 1 to 255 characters';

/** An optional `reference`: 1 to 255 characters of text a person wrote. */
export const ReferenceField = (docs: { example: string; description: string }): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: CONTROL_CHARACTERS.source,
      required: false,
      ...docs,
    }),
    ValidateIf(present('reference')),
    // class-validator checks in the order applied: a number is refused as not a string.
    Length(1, 255, { message: REFERENCE_LENGTH }),
    IsString({ message: REFERENCE_LENGTH }),
    Matches(CONTROL_CHARACTERS, {
      message: 'reference must not contain control characters (U+0000 to U+001F, U+007F to U+009F)',
    }),
  );

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

  @ReferenceField({
    example: 'https://shop.example.com/orders/1001',
    description: REFERENCE_DESCRIPTION,
  })
  reference?: string;
}
