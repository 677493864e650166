import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ParsePetIdPipe } from '../common/pipes/pet-id.pipe.js';
import type { RawJson } from '../common/http/json.js';
import { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryUpdate } from './dto/inventory-update.dto.js';
import { InventoryService } from './inventory.service.js';

@Controller('inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get()
  listInventory(): Promise<RawJson> {
    return this.inventory.listInventory();
  }

  @Patch(':petId')
  updateInventory(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Body() update: InventoryUpdate,
  ): Promise<InventoryItem> {
    return this.inventory.updateInventory(petId, update.quantity);
  }
}
