import { afterAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../src/entities.js';
import {
  DriftProbeEntity,
  KNOWN_DIFFERENCES,
  proposedMigration,
} from '../support/migration-drift.js';
import { emptyDatabase, requireIntegrationContext, type TestDatabase } from './support/context.js';

const context = requireIntegrationContext();

describe('Schema drift on PostgreSQL: migration:generate after the migrations (integration)', () => {
  const databases: TestDatabase[] = [];
  const fresh = async () => {
    const database = await emptyDatabase(context, 'drift');
    databases.push(database);
    return database.url;
  };
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('should propose nothing but the known differences of column types per dialect', async () => {
    expect(await proposedMigration(await fresh())).toEqual(KNOWN_DIFFERENCES.postgres);
  });

  it('should find an entity that no migration matches', async () => {
    const proposed = await proposedMigration(await fresh(), [...ENTITIES, DriftProbeEntity]);
    expect(proposed).not.toEqual(KNOWN_DIFFERENCES.postgres);
    expect(proposed.filter((sql) => sql.startsWith('CREATE TABLE "drift_probe"'))).toHaveLength(1);
  });
});
