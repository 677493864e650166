import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrderEntity } from './order.entity.js';
import { OrdersController } from './orders.controller.js';
import { OrdersImporter } from './orders.importer.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService } from './orders.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrderEntity])],
  controllers: [OrdersController],
  providers: [OrdersRepository, OrdersService, OrdersImporter],
  exports: [OrdersImporter, OrdersRepository],
})
export class OrdersModule {}
