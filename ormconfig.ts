import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config.js';
import { dataSourceOptions } from './src/database/data-source.js';
import { ENTITIES } from './src/entities.js';

// The TypeORM CLI's DataSource (`npm run migration:*`): the app's own options, from the same env.
export default new DataSource({
  ...dataSourceOptions(loadConfig(process.env).database, ENTITIES),
  migrationsRun: false,
});
