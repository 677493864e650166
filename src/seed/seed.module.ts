import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { DemoSeeder } from './demo-seeder.js';

@Module({
  imports: [InventoryModule, OrdersModule, AuthModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
