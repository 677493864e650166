import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module.js';
import { PetsDeprecationInterceptor } from './deprecation.interceptor.js';
import { PetsController } from './pets.controller.js';
import { PetsService } from './pets.service.js';

@Module({
  imports: [InventoryModule],
  controllers: [PetsController],
  providers: [PetsService, PetsDeprecationInterceptor],
})
export class PetsModule {}
