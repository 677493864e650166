import { DynamicModule, Module } from '@nestjs/common';
import { ApiKeysModule } from '../auth/api-keys.module.js';
import { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { typeOrmRoot } from '../database/typeorm-root.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { WebhookStoreModule } from '../webhooks/webhooks.module.js';

@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        // Fail at once on an unreachable database, not retry for half a minute as the server does.
        typeOrmRoot({ retryAttempts: 0 }),
        ApiKeysModule,
        InventoryModule,
        OrdersModule,
        WebhookStoreModule,
      ],
    };
  }
}
