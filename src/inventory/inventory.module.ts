import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangesPruner } from './history/changes-pruner.js';
import { InventoryChangesController } from './history/inventory-changes.controller.js';
import { InventoryHistoryRepository } from './history/inventory-history.repository.js';
import { InventoryHistoryService } from './history/inventory-history.service.js';
import { InventoryController } from './inventory.controller.js';
import { InventoryImporter } from './inventory.importer.js';
import { InventoryService } from './inventory.service.js';
import { ListingCache } from './listing/listing-cache.js';
import { InventoryChangeEntity } from './history/inventory-change.entity.js';
import { PetEntity } from './pet.entity.js';
import { InventoryRepository } from './writes/inventory.repository.js';
import { StockCommitted } from './writes/stock-committed.js';
import { StockLinesService } from './writes/stock-lines.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([PetEntity, InventoryChangeEntity])],
  // The feed first: its `changes` routes must match before `:petId`.
  controllers: [InventoryChangesController, InventoryController],
  providers: [
    InventoryRepository,
    StockCommitted,
    StockLinesService,
    ListingCache,
    InventoryService,
    InventoryImporter,
    InventoryHistoryRepository,
    InventoryHistoryService,
    ChangesPruner,
  ],
  exports: [
    InventoryRepository,
    StockCommitted,
    StockLinesService,
    InventoryService,
    InventoryImporter,
    InventoryHistoryService,
  ],
})
export class InventoryModule {}
