import { type DataSourceOptions, Entity, PrimaryColumn } from 'typeorm';
import { loadConfig } from '../../src/config/app-config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { AppDataSource } from '../../src/database/dialect-type.js';
import { ENTITIES } from '../../src/entities.js';

/**
 * What `npm run migration:generate` would write against a database the migrations brought to
 * the latest: the statements TypeORM's schema builder proposes (`SchemaBuilder.log()`, which the
 * CLI's generate and `schema:log` print), whitespace collapsed.
 */
export async function proposedMigration(
  databaseUrl: string,
  entities: NonNullable<DataSourceOptions['entities']> = ENTITIES,
): Promise<string[]> {
  const dataSource = new AppDataSource(
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

/** The failure message of a drift check: what generate would write, one statement a line. */
export const describeProposal = (proposed: string[]): string =>
  `migration:generate proposes ${proposed.length} statement(s):\n${proposed.join('\n')}`;

/** An entity no migration creates: the check must name its table. */
@Entity('drift_probe')
export class DriftProbeEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_drift_probe' })
  id!: number;
}
