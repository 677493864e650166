import { Deployment1795410000000 as PostgresDeployment } from './postgres/1795410000000-Deployment.js';
import { Init1795260717886 as PostgresInit } from './postgres/1795260717886-Init.js';
import { Orders1795261339928 as PostgresOrders } from './postgres/1795261339928-Orders.js';
import { InventoryVersion1795261585748 as PostgresInventoryVersion } from './postgres/1795261585748-InventoryVersion.js';
import { KeyScopesExpiryRotation1795500333081 as PostgresKeyScopesExpiryRotation } from './postgres/1795500333081-KeyScopesExpiryRotation.js';
import { IdempotencyKeys1795800000000 as PostgresIdempotencyKeys } from './postgres/1795800000000-IdempotencyKeys.js';
import { InventoryWriteMany1795600000000 as PostgresInventoryWriteMany } from './postgres/1795600000000-InventoryWriteMany.js';
import { KeyTimesInstants1795655000000 as PostgresKeyTimesInstants } from './postgres/1795655000000-KeyTimesInstants.js';
import { InventoryWritesInApplication1795690000000 as PostgresInventoryWritesInApplication } from './postgres/1795690000000-InventoryWritesInApplication.js';
import { Deployment1795410000000 as SqliteDeployment } from './sqlite/1795410000000-Deployment.js';
import { InventoryHistory1795400000000 as PostgresInventoryHistory } from './postgres/1795400000000-InventoryHistory.js';
import { Init1795260712490 as SqliteInit } from './sqlite/1795260712490-Init.js';
import { Orders1795261331241 as SqliteOrders } from './sqlite/1795261331241-Orders.js';
import { InventoryVersion1795261585748 as SqliteInventoryVersion } from './sqlite/1795261585748-InventoryVersion.js';
import { InventoryChanges1795300000000 as SqliteInventoryChanges } from './sqlite/1795300000000-InventoryChanges.js';
import { KeyScopesExpiryRotation1795500333081 as SqliteKeyScopesExpiryRotation } from './sqlite/1795500333081-KeyScopesExpiryRotation.js';
import { IdempotencyKeys1795800000000 as SqliteIdempotencyKeys } from './sqlite/1795800000000-IdempotencyKeys.js';
import { InventoryHistory1795400000000 as SqliteInventoryHistory } from './sqlite/1795400000000-InventoryHistory.js';
import { Holds1795900000000 as PostgresHolds } from './postgres/1795900000000-Holds.js';
import { Holds1795900000000 as SqliteHolds } from './sqlite/1795900000000-Holds.js';
import { HoldsPages1795950000000 as PostgresHoldsPages } from './postgres/1795950000000-HoldsPages.js';
import { HoldsPages1795950000000 as SqliteHoldsPages } from './sqlite/1795950000000-HoldsPages.js';
import { Webhooks1795700000000 as PostgresWebhooks } from './postgres/1795700000000-Webhooks.js';
import { Webhooks1795700000000 as SqliteWebhooks } from './sqlite/1795700000000-Webhooks.js';
import { WebhookDeliveriesForeignKeyName1795860554842 as SqliteWebhookDeliveriesForeignKeyName } from './sqlite/1795860554842-WebhookDeliveriesForeignKeyName.js';

// Listed, not globbed: ESM has no __dirname, and each dialect has its own generated SQL.
export const SQLITE_MIGRATIONS = [
  SqliteInit,
  SqliteOrders,
  SqliteInventoryVersion,
  SqliteInventoryChanges,
  SqliteInventoryHistory,
  SqliteDeployment,
  SqliteKeyScopesExpiryRotation,
  SqliteWebhooks,
  SqliteIdempotencyKeys,
  SqliteWebhookDeliveriesForeignKeyName,
  SqliteHolds,
  SqliteHoldsPages,
];
export const POSTGRES_MIGRATIONS = [
  PostgresInit,
  PostgresOrders,
  PostgresInventoryVersion,
  PostgresInventoryHistory,
  PostgresDeployment,
  PostgresKeyScopesExpiryRotation,
  PostgresInventoryWriteMany,
  PostgresKeyTimesInstants,
  PostgresInventoryWritesInApplication,
  PostgresWebhooks,
  PostgresIdempotencyKeys,
  PostgresHolds,
  PostgresHoldsPages,
];
