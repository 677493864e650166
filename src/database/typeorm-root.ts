import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source.js';
import { openDataSource } from './open-data-source.js';

/**
 * The TypeORM root for whoever opens the database (the server, the CLI): the shared options, and
 * migrations applied under a lock so that processes starting together do not race.
 */
export function typeOrmRoot(
  overrides: Pick<TypeOrmModuleOptions, 'retryAttempts' | 'retryDelay'> = {},
): DynamicModule {
  return TypeOrmModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.database), ...overrides }),
    dataSourceFactory: (options) => openDataSource(options!),
  });
}
