import { Init1795260717886 as PostgresInit } from './postgres/1795260717886-Init.js';
import { Orders1795261339928 as PostgresOrders } from './postgres/1795261339928-Orders.js';
import { InventoryVersion1795261585748 as PostgresInventoryVersion } from './postgres/1795261585748-InventoryVersion.js';
import { InventoryHistory1795400000000 as PostgresInventoryHistory } from './postgres/1795400000000-InventoryHistory.js';
import { Init1795260712490 as SqliteInit } from './sqlite/1795260712490-Init.js';
import { Orders1795261331241 as SqliteOrders } from './sqlite/1795261331241-Orders.js';
import { InventoryVersion1795261585748 as SqliteInventoryVersion } from './sqlite/1795261585748-InventoryVersion.js';
import { InventoryChanges1795300000000 as SqliteInventoryChanges } from './sqlite/1795300000000-InventoryChanges.js';
import { InventoryHistory1795400000000 as SqliteInventoryHistory } from './sqlite/1795400000000-InventoryHistory.js';

// Listed, not globbed: ESM has no __dirname, and each dialect has its own generated SQL.
export const SQLITE_MIGRATIONS = [
  SqliteInit,
  SqliteOrders,
  SqliteInventoryVersion,
  SqliteInventoryChanges,
  SqliteInventoryHistory,
];
export const POSTGRES_MIGRATIONS = [
  PostgresInit,
  PostgresOrders,
  PostgresInventoryVersion,
  PostgresInventoryHistory,
];
