import { Module } from '@nestjs/common';
import { OrdersController } from './orders.controller.js';
import { OrdersImporter } from './orders.importer.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService } from './orders.service.js';

@Module({
  controllers: [OrdersController],
  providers: [OrdersRepository, OrdersService, OrdersImporter],
  exports: [OrdersImporter, OrdersRepository],
})
export class OrdersModule {}
