import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { AppConfig } from '../config/app-config.js';
import { InventoryImporter } from '../inventory/inventory.importer.js';
import { InventoryRepository } from '../inventory/writes/inventory.repository.js';
import { OrdersImporter } from '../orders/orders.importer.js';
import { DEMO_ORDERS, DEMO_PETS } from './demo-catalog.js';

@Injectable()
export class DemoSeeder {
  constructor(
    private readonly config: AppConfig,
    private readonly inventory: InventoryRepository,
    private readonly importer: InventoryImporter,
    private readonly orders: OrdersImporter,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async seedIfEmpty(): Promise<string | undefined> {
    if (!this.config.seedDemo) return undefined;
    if ((await this.inventory.count()) > 0 || (await this.apiKeys.list()).length > 0)
      return undefined;
    await this.importer.import(DEMO_PETS);
    await this.orders.import(DEMO_ORDERS);
    const { rawKey } = await this.apiKeys.create({ plan: 'free', name: 'demo' });
    return rawKey;
  }
}
