import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ParsePetIdPipe } from '../common/pipes/pet-id.pipe.js';
import type { RawJson } from '../common/http/json.js';
import { ApiErrorResponses, ApiStability } from '../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../openapi/params.js';
import { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryUpdate } from './dto/inventory-update.dto.js';
import { InventoryService } from './inventory.service.js';

@ApiTags('inventory')
@Controller('inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get()
  @ApiOperation({ summary: 'List inventory', description: 'Returns current stock levels for all pets in the store, by ascending petId.' })
  @ApiStability('beta')
  @ApiOkResponse({ type: [InventoryItem], description: 'The stock level of every pet' })
  listInventory(): Promise<RawJson> {
    return this.inventory.listInventory();
  }

  @Patch(':petId')
  @ApiOperation({
    summary: 'Update stock level',
    description:
      'Sets the stock quantity of one pet. Quantity 0 marks the pet `sold`; a positive quantity makes a `sold` pet `available`; `pending` stays while stock remains.',
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiConsumes('application/json', 'application/merge-patch+json')
  @ApiBody({ type: InventoryUpdate, required: true })
  @ApiOkResponse({ type: InventoryItem, description: 'The updated entry' })
  @ApiErrorResponses(400, 404, 413, 415)
  updateInventory(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Body() update: InventoryUpdate,
  ): Promise<InventoryItem> {
    return this.inventory.updateInventory(petId, update.quantity);
  }
}
