import 'reflect-metadata';
import { loadConfig } from './src/config/app-config.js';
import { dataSourceOptions } from './src/database/data-source.js';
import { AppDataSource } from './src/database/dialect-type.js';
import { ENTITIES } from './src/entities.js';

// The TypeORM CLI's DataSource (`npm run migration:*`): the app's own options, from the same env.
export default new AppDataSource({
  ...dataSourceOptions(loadConfig(process.env).database, ENTITIES),
  migrationsRun: false,
});
