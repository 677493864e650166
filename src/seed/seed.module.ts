import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../auth/api-keys.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { DemoSeeder } from './demo-seeder.js';

@Module({
  imports: [InventoryModule, OrdersModule, ApiKeysModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
