import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { DemoSeeder } from './seed/demo-seeder.js';
import { typeOrmRoot } from './typeorm-root.js';

@Module({ imports: [typeOrmRoot()] })
export class DatabaseModule {}

@Module({
  imports: [InventoryModule, OrdersModule, AuthModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
