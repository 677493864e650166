import { readFileSync } from 'node:fs';
import { DataSource, Entity, PrimaryColumn } from 'typeorm';
import { loadConfig } from '../../src/config/app-config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { ENTITIES } from '../../src/entities.js';

/**
 * What `npm run migration:generate` would write against a database the migrations brought to
 * the latest: the statements TypeORM's schema builder proposes (`SchemaBuilder.log()`, which the
 * CLI's generate and `schema:log` print), whitespace collapsed.
 */
export async function proposedMigration(
  databaseUrl: string,
  entities: NonNullable<ConstructorParameters<typeof DataSource>[0]['entities']> = ENTITIES,
): Promise<string[]> {
  const dataSource = new DataSource(
    dataSourceOptions(loadConfig({ DATABASE_URL: databaseUrl }).database, entities),
  );
  await dataSource.initialize();
  try {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return sql.upQueries.map((query) => query.query.replace(/\s+/g, ' ').trim());
  } finally {
    await dataSource.destroy();
  }
}

/** An entity no migration creates: the check must name its table. */
@Entity('drift_probe')
export class DriftProbeEntity {
  @PrimaryColumn({ type: 'integer' })
  id!: number;
}

const known = (dialect: string): string[] =>
  JSON.parse(
    readFileSync(new URL(`./migration-drift/${dialect}.json`, import.meta.url), 'utf8'),
  ) as string[];

/**
 * What generate proposes on a database at the latest migration, exactly: the columns whose type
 * differs by dialect, which one entity cannot name for both (docs/development.md). Anything else
 * it proposes is drift.
 */
export const KNOWN_DIFFERENCES = { sqlite: known('sqlite'), postgres: known('postgres') };
