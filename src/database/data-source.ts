import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations/index.js';

// The one set of DataSource options, shared by the app, the CLI and `ormconfig.ts`.
export function dataSourceOptions(
  db: DatabaseConfig,
  entities: NonNullable<DataSourceOptions['entities']> = [],
): DataSourceOptions {
  const common = {
    entities,
    synchronize: false,
    migrationsRun: true,
    migrationsTableName: 'migrations',
  } as const;
  if (db.type === 'sqlite') {
    const inMemory = db.path === ':memory:';
    if (!inMemory) mkdirSync(dirname(db.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.path,
      migrations: SQLITE_MIGRATIONS,
      enableWAL: !inMemory,
      timeout: db.busyTimeoutMs,
      prepareDatabase: (connection: { pragma(sql: string): unknown }) => {
        connection.pragma('foreign_keys = ON');
        // WAL makes NORMAL durable against process crashes (only an OS crash can lose the last commits).
        connection.pragma('synchronous = NORMAL');
        // A trigger-firing UPDATE ... RETURNING keeps a statement journal; in temporary files (the
        // default) every update would create and delete one.
        connection.pragma('temp_store = MEMORY');
        // A checkpoint runs inside the COMMIT that crosses the threshold and syncs the file while
        // the event loop waits: at the default 1000 pages a PATCH batch's commit took longer than
        // all its statements. 10000 pages (about 40 MiB of WAL) syncs a tenth as often
        // (docs/performance.md).
        connection.pragma('wal_autocheckpoint = 10000');
      },
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: db.url,
    migrations: POSTGRES_MIGRATIONS,
    poolSize: db.poolSize,
    connectTimeoutMS: db.connectTimeoutMs,
    extra: {
      max: db.poolSize,
      statement_timeout: db.statementTimeoutMs,
      query_timeout: db.statementTimeoutMs > 0 ? db.statementTimeoutMs + 1000 : undefined,
    },
  };
}
