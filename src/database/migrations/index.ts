import { Init1795260717886 as PostgresInit } from './postgres/1795260717886-Init.js';
import { Orders1795261339928 as PostgresOrders } from './postgres/1795261339928-Orders.js';
import { Init1795260712490 as SqliteInit } from './sqlite/1795260712490-Init.js';
import { Orders1795261331241 as SqliteOrders } from './sqlite/1795261331241-Orders.js';

// Listed, not globbed: ESM has no __dirname, and each dialect has its own generated SQL.
export const SQLITE_MIGRATIONS = [SqliteInit, SqliteOrders];
export const POSTGRES_MIGRATIONS = [PostgresInit, PostgresOrders];
