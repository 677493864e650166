import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ParsePetIdPipe } from '../common/pipes/pet-id.pipe.js';
import {
  ApiErrorResponses,
  ApiRevalidation,
  ApiStability,
  WEAK_ETAG_HEADER,
  type ErrorResponseDoc,
} from '../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../openapi/params.js';
import { PetsDeprecationInterceptor } from './deprecation.interceptor.js';
import { Pet } from './pet.dto.js';
import { PetsService } from './pets.service.js';

const PET_ID_400: ErrorResponseDoc = {
  description:
    '`petId` is not an integer from 1 to 9223372036854775807, or `Authorization` is sent more than once',
  examples: {
    pet_id: { message: 'petId must be an integer from 1 to 9223372036854775807' },
  },
};

@ApiTags('pets')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get(':petId')
  @UseInterceptors(PetsDeprecationInterceptor)
  @ApiOperation({
    summary: 'Find a pet by id',
    description:
      'Returns the id, name and status of one pet. For stock levels and statuses use `listInventory`.',
    deprecated: true,
  })
  @ApiStability('beta')
  @ApiParam(PET_ID_PARAM)
  @ApiOkResponse({ type: Pet, description: 'The pet', headers: WEAK_ETAG_HEADER })
  @ApiRevalidation()
  @ApiErrorResponses([400, PET_ID_400], 404, 410)
  getPetById(@Param('petId', ParsePetIdPipe) petId: bigint): Promise<Pet> {
    return this.pets.getPetById(petId);
  }
}
