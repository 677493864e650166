import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { AppConfig } from '../config/app-config.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { dataSourceOptions } from './data-source.js';
import { DemoSeeder } from './seed/demo-seeder.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => dataSourceOptions(config.database),
    }),
  ],
})
export class DatabaseModule {}

@Module({
  imports: [InventoryModule, OrdersModule, AuthModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
