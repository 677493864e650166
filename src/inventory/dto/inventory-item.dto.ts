import { ApiProperty } from '@nestjs/swagger';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';
import { MAX_QUANTITY } from './inventory-update.dto.js';

export class InventoryItem {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 42,
    description: 'Identifier of the animal the entry tracks',
  })
  petId!: bigint;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_QUANTITY,
    example: 12,
    description: 'Current stock count',
  })
  quantity!: number;

  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Status of the pet' })
  status!: PetStatus;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_QUANTITY,
    example: 10,
    description:
      'What can still be sold or held: `quantity` minus the units of active holds, never below 0',
  })
  available!: number;
}
