import { afterAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../../src/entities.js';
import {
  describeProposal,
  DriftProbeEntity,
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

  it('should propose nothing', async () => {
    const proposed = await proposedMigration(await fresh());
    expect(proposed, describeProposal(proposed)).toEqual([]);
  });

  it('should find an entity that no migration matches', async () => {
    const proposed = await proposedMigration(await fresh(), [...ENTITIES, DriftProbeEntity]);
    expect(proposed).toEqual([
      'CREATE TABLE "drift_probe" ("id" integer NOT NULL, CONSTRAINT "PK_drift_probe" PRIMARY KEY ("id"))',
    ]);
  });
});
