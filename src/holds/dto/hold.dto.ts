import { ApiProperty } from '@nestjs/swagger';
import { InventoryItem } from '../../inventory/dto/inventory-item.dto.js';
import { MAX_QUANTITY } from '../../inventory/dto/inventory-update.dto.js';
import { HOLD_STATUSES, type HoldStatus } from '../hold-status.js';

export class Hold {
  @ApiProperty({
    type: 'string',
    example: '3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30',
    description: 'Identifier of the hold (opaque)',
  })
  holdId!: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 42, description: 'The pet held' })
  petId!: bigint;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_QUANTITY,
    example: 1,
    description: 'Units kept',
  })
  quantity!: number;

  @ApiProperty({
    enum: HOLD_STATUSES,
    enumName: 'HoldStatus',
    description:
      '`active` keeps its units; `confirmed` sold them; `released` and `expired` keep nothing',
  })
  status!: HoldStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'cart-8d1f',
    description: 'The reference given at creation, or null',
  })
  reference!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-28T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    example: '2026-11-28T10:15:00.000Z',
    description: 'When the hold ends by itself, unless confirmed or released first',
  })
  expiresAt!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When it was confirmed, released or expired; null while active',
  })
  endedAt!: string | null;
}

/** The answer of `confirmHold`: the hold, and the item after its units left stock. */
export class HoldConfirmation {
  @ApiProperty({ type: Hold })
  hold!: Hold;

  @ApiProperty({ type: InventoryItem })
  item!: InventoryItem;
}
