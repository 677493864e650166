import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions, MigrationExecutor, type QueryRunner } from 'typeorm';
import { AppDataSource } from './dialect-type.js';

// Any fixed int64, the same in the server and the CLI, unlikely to clash with other applications.
export const MIGRATION_LOCK_KEY = '8451973062154771301';
const LOCK_POLL_MS = 200;
const LOCK_WAIT_MS = 10 * 60_000;

const logger = new Logger('Migrations');

// TypeORM checks pending migrations and applies them with no lock in between, so on PostgreSQL both
// run under an advisory lock, on a connection without request timeouts (a migration may take
// minutes). SQLite keeps TypeORM's run: an in-memory database exists only on its one connection.
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  if (options.type !== 'postgres' || !options.migrationsRun)
    return new AppDataSource(options).initialize();
  await migratePostgres(options);
  return new AppDataSource({ ...options, migrationsRun: false }).initialize();
}

async function migratePostgres(options: DataSourceOptions & { type: 'postgres' }): Promise<void> {
  const {
    statement_timeout: _statement,
    query_timeout: _query,
    ...extra
  } = (options.extra ?? {}) as Record<string, unknown>;
  const migrator = await new DataSource({
    ...options,
    migrationsRun: false,
    poolSize: 1,
    extra: { ...extra, max: 1 },
  }).initialize();
  const runner = migrator.createQueryRunner();
  try {
    await runner.connect();
    await acquireMigrationLock(runner);
    try {
      const executor = new MigrationExecutor(migrator, runner);
      executor.transaction = options.migrationsTransactionMode ?? 'all';
      const applied = await executor.executePendingMigrations();
      if (applied.length > 0)
        logger.log(
          `Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`,
        );
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
    await migrator.destroy();
  }
}

async function acquireMigrationLock(runner: QueryRunner): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let waiting = false;
  for (;;) {
    const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [
      MIGRATION_LOCK_KEY,
    ])) as { locked: boolean }[];
    if (row.locked) return;
    if (Date.now() > deadline) {
      throw new Error(
        `Another process has held the migration lock for over ${LOCK_WAIT_MS / 1000} s; is a migration stuck?`,
      );
    }
    if (!waiting)
      logger.log('Another instance is migrating the database; waiting for it to finish');
    waiting = true;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}
