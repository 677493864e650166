import { ApiProperty } from '@nestjs/swagger';
import { PET_STATUSES, type PetStatus } from '../inventory/pet-status.js';

export class Pet {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1,
    description: 'Identifier of the pet',
  })
  id!: bigint;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'Rex',
    description:
      'Name of the pet; null when the catalogue holds none (inventory imports may omit names)',
  })
  name!: string | null;

  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Status of the pet' })
  status!: PetStatus;
}
