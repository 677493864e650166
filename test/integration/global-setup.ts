import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config/app-config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import { createDatabase, dropDatabases, RUN_DATABASE_PREFIX, runId } from './support/postgres.js';
import { INTEGRATION_POSTGRES_URL, INTEGRATION_REDIS_URL } from './support/services.js';
import type { IntegrationContext } from './support/context.js';

/**
 * Once per `npm run test:integration`: builds dist/ for the multi-process tests and migrates one
 * template database that each test app copies (CREATE DATABASE … TEMPLATE takes milliseconds,
 * migrating every copy would not). Everything the run creates carries its id and is removed at
 * the end, so runs on a shared server never touch each other.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });

  const run = runId();
  const prefix = `${RUN_DATABASE_PREFIX}${run}_`;
  const template = `${prefix}template`;
  const url = await createDatabase(template);
  const dataSource = await openDataSource(
    dataSourceOptions(loadConfig({ DATABASE_URL: url }).database),
  );
  await dataSource.destroy();

  const context: IntegrationContext = {
    run,
    postgresUrl: INTEGRATION_POSTGRES_URL,
    template,
    redisUrl: INTEGRATION_REDIS_URL,
    redisKeyPrefix: `${prefix}`,
  };
  project.provide('integration', context);

  return async () => {
    await dropDatabases(prefix);
    await deleteRedisKeys(`${prefix}*`);
  };
}

async function deleteRedisKeys(pattern: string): Promise<void> {
  const redis = new Redis(INTEGRATION_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
