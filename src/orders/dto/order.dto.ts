import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_STATUSES, type OrderStatus } from '../order-status.js';

export class Order {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1001,
    description: 'Identifier of the order, as the store system numbers it',
  })
  id!: bigint;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1,
    description: 'Identifier of the ordered pet',
  })
  petId!: bigint;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 2147483647,
    example: 2,
    description: 'How many were ordered',
  })
  quantity!: number;

  @ApiProperty({
    enum: ORDER_STATUSES,
    enumName: 'OrderStatus',
    description: 'Where the order stands',
  })
  status!: OrderStatus;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    example: '2026-12-01T09:30:00.000Z',
    description: 'When the order ships or shipped (UTC); absent until it is scheduled',
  })
  shipDate?: string;

  @ApiProperty({ type: 'boolean', example: false, description: 'Whether the order is complete' })
  complete!: boolean;
}
