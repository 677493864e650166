import { Init1795260717886 as PostgresInit } from './postgres/1795260717886-Init.js';
import { Init1795260712490 as SqliteInit } from './sqlite/1795260712490-Init.js';

// Listed, not globbed: ESM has no __dirname, and each dialect has its own generated SQL.
export const SQLITE_MIGRATIONS = [SqliteInit];
export const POSTGRES_MIGRATIONS = [PostgresInit];
