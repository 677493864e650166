import { ApiKeyEntity } from './auth/api-key.entity.js';
import { HoldEntity } from './holds/hold.entity.js';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity.js';
import { InventoryChangeEntity } from './inventory/history/inventory-change.entity.js';
import { PetEntity } from './inventory/pet.entity.js';
import { OrderEntity } from './orders/order.entity.js';
import { WebhookDeliveryEntity } from './webhooks/webhook-delivery.entity.js';
import { WebhookEndpointEntity } from './webhooks/webhook-endpoint.entity.js';

export const ENTITIES = [
  PetEntity,
  InventoryChangeEntity,
  ApiKeyEntity,
  OrderEntity,
  IdempotencyKeyEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  HoldEntity,
];
