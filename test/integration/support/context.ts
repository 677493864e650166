import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDatabase, dropDatabase, RUN_DATABASE_PREFIX } from './postgres.js';

/** What the integration run's global setup hands to every test file. */
export interface IntegrationContext {
  run: string;
  postgresUrl: string;
  /** A migrated database to copy. */
  template: string;
  redisUrl: string;
  /** Every Redis key the run writes starts with this. */
  redisKeyPrefix: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    integration: IntegrationContext | undefined;
  }
}

/** The run's context; only the integration configuration provides one. */
export function integrationContext(): IntegrationContext | undefined {
  return inject('integration');
}

export function requireIntegrationContext(): IntegrationContext {
  const context = integrationContext();
  if (!context)
    throw new Error(
      'Run this file with `npm run test:integration` (it needs PostgreSQL and Redis)',
    );
  return context;
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A migrated PostgreSQL database of its own, copied from the run's template. */
export async function migratedDatabase(
  context: IntegrationContext,
  label = 'app',
): Promise<TestDatabase> {
  const name = `${RUN_DATABASE_PREFIX}${context.run}_${label}_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(name, context.template);
  return { name, url, drop: () => dropDatabase(name) };
}

/** A database of its own with no tables at all. */
export async function emptyDatabase(
  context: IntegrationContext,
  label = 'empty',
): Promise<TestDatabase> {
  const name = `${RUN_DATABASE_PREFIX}${context.run}_${label}_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(name);
  return { name, url, drop: () => dropDatabase(name) };
}

/**
 * For createTestApp: under the integration run, a database of its own for one app (the e2e
 * specs run in parallel files, and each app empties its tables between tests).
 */
export async function integrationDatabaseEnv(): Promise<
  { env: Record<string, string>; drop(): Promise<void> } | undefined
> {
  const context = integrationContext();
  if (!context) return undefined;
  const database = await migratedDatabase(context);
  // APP_ENV is explicit: on PostgreSQL the demo seed needs it (AppConfig.seedDemo).
  return {
    env: { DATABASE_URL: database.url, DB_POOL_SIZE: '4', APP_ENV: 'development' },
    drop: database.drop,
  };
}
