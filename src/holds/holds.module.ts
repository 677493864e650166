import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { HoldEntity } from './hold.entity.js';
import { HoldsController } from './holds.controller.js';
import { HoldsPruner } from './holds.pruner.js';
import { HoldsRepository } from './holds.repository.js';
import { HoldsService } from './holds.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([HoldEntity]), InventoryModule, IdempotencyModule],
  controllers: [HoldsController],
  providers: [HoldsRepository, HoldsService, HoldsPruner],
})
export class HoldsModule {}
