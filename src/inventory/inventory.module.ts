import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InventoryController } from './inventory.controller.js';
import { InventoryImporter } from './inventory.importer.js';
import { InventoryRepository } from './inventory.repository.js';
import { InventoryService } from './inventory.service.js';
import { PetEntity } from './pet.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([PetEntity])],
  controllers: [InventoryController],
  providers: [InventoryRepository, InventoryService, InventoryImporter],
  exports: [InventoryRepository, InventoryService, InventoryImporter],
})
export class InventoryModule {}
