import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { StartupError } from '../common/errors/startup-error.js';
import { AppConfig, type DatabaseConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source.js';
import { openDataSource } from './open-data-source.js';

function describeDatabase(db: DatabaseConfig): string {
  if (db.type === 'sqlite') return `SQLite at ${db.path}`;
  try {
    const url = new URL(db.url);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

export function typeOrmRoot(
  overrides: Pick<TypeOrmModuleOptions, 'retryAttempts' | 'retryDelay'> = {},
): DynamicModule {
  let database: DatabaseConfig | undefined;
  return TypeOrmModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => {
      database = config.database;
      return {
        ...dataSourceOptions(config.database),
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 1000,
        ...overrides,
      };
    },
    dataSourceFactory: async (options) => {
      try {
        return await openDataSource(options!);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new StartupError(
          `Cannot open the database (${describeDatabase(database!)}): ${reason}`,
          'DATABASE_URL',
        );
      }
    },
  });
}
