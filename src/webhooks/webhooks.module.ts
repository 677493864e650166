import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InventoryChangeEntity } from '../inventory/history/inventory-change.entity.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { SystemWebhookClock, WebhookClock } from './webhook-clock.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';
import { WebhookRepository } from './webhook.repository.js';
import { WebhooksService } from './webhooks.service.js';

const STORE = [
  WebhookRepository,
  WebhooksService,
  { provide: WebhookClock, useClass: SystemWebhookClock },
];

@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity, InventoryChangeEntity]),
  ],
  providers: STORE,
  exports: STORE,
})
export class WebhookStoreModule {}

@Module({ imports: [WebhookStoreModule, InventoryModule], providers: [WebhookDispatcher] })
export class WebhooksModule {}
