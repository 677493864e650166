import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { ApiKeysService, type CreateKeyInput } from '../../src/auth/api-keys.service.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';
import { APP_OPTIONS, configureApp } from '../../src/configure-app.js';
import { ApiExpressAdapter } from '../../src/platform/http/index.js';
import { InventoryImporter } from '../../src/inventory/inventory.importer.js';
import type { ImportRow } from '../../src/inventory/inventory-row.js';
import { installOpenApiResponseChecks } from './openapi-responses.js';
import { integrationDatabaseEnv } from '../integration/support/context.js';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  /** The HTTP server, for supertest's request(). */
  server: ReturnType<NestExpressApplication['getHttpServer']>;
  createKey(input?: Partial<CreateKeyInput>): Promise<string>;
  seed(rows: ImportRow[]): Promise<void>;
  /** Empties every table (between tests). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Boots the real AppModule with the production pipeline (configureApp) on an in-memory SQLite
 * database unless `env` says otherwise. Logs are silenced unless LOG_LEVEL is given.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  // `npm run test:integration` gives each app a PostgreSQL database of its own; a test that
  // names its DATABASE_URL keeps it.
  const database = env.DATABASE_URL === undefined ? await integrationDatabaseEnv() : undefined;
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'silent',
    ...database?.env,
    ...env,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config)],
  }).compile();
  const app = configureApp(
    moduleRef.createNestApplication<NestExpressApplication>(
      new ApiExpressAdapter(config.http.timeouts),
      APP_OPTIONS,
    ),
    config,
  );
  await installOpenApiResponseChecks(app, config);
  await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    config,
    server: app.getHttpServer(),
    async createKey(input = {}) {
      const { rawKey } = await app.get(ApiKeysService).create({ plan: 'free', ...input });
      return rawKey;
    },
    async seed(rows) {
      await app.get(InventoryImporter).import(rows);
    },
    async reset() {
      for (const entity of dataSource.entityMetadatas) {
        await dataSource.query(`DELETE FROM "${entity.tableName}"`);
      }
    },
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}
