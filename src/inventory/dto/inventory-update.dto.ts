import { ApiProperty } from '@nestjs/swagger';
import { ValidationFailedError } from '../../common/errors/api-error.js';
import { summarize } from '../../common/pipes/validation.pipe.js';
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
  quantity!: number;

  @ApiProperty({
    enum: CHANGE_REASONS,
    enumName: 'ChangeReason',
    required: false,
    description:
      'Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history.',
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
  reference?: string;

  /**
   * Checked here, not by class-validator (why: docs/performance.md), with the ValidationPipe's
   * answers, as inventory-update.dto.spec.ts checks.
   */
  static parse(body: Record<string, unknown>): InventoryUpdate {
    const problems = Object.keys(body)
      .filter((key) => !PROPERTIES.has(key))
      .map((key) => `property ${key} should not exist`);
    const { quantity, reason, reference } = body;
    if (quantity === undefined || quantity === null) problems.push('quantity is required');
    else if (
      !Number.isInteger(quantity) ||
      (quantity as number) < 0 ||
      (quantity as number) > MAX_QUANTITY
    )
      problems.push(QUANTITY_RANGE);
    // Absent is allowed, null is not.
    if (reason !== undefined && !CHANGE_REASONS.includes(reason as ChangeReason))
      problems.push(`reason must be one of ${CHANGE_REASONS.join(', ')}`);
    if (
      reference !== undefined &&
      (typeof reference !== 'string' || reference.length < 1 || reference.length > 255)
    )
      problems.push('reference must be a string of 1 to 255 characters');
    if (problems.length > 0) throw new ValidationFailedError(summarize(problems));
    const update = new InventoryUpdate();
    update.quantity = quantity as number;
    if ('reason' in body) update.reason = reason as ChangeReason;
    if ('reference' in body) update.reference = reference as string;
    return update;
  }
}

const PROPERTIES = new Set(['quantity', 'reason', 'reference']);
