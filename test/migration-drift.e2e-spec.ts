import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../src/entities.js';
import {
  describeProposal,
  DriftProbeEntity,
  proposedMigration,
} from './support/migration-drift.js';

describe('Schema drift on SQLite: migration:generate after the migrations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-drift-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should propose nothing', async () => {
    const proposed = await proposedMigration(`sqlite:${join(dir, 'latest.sqlite')}`);
    expect(proposed, describeProposal(proposed)).toEqual([]);
  });

  it('should find an entity that no migration matches', async () => {
    const proposed = await proposedMigration(`sqlite:${join(dir, 'drifted.sqlite')}`, [
      ...ENTITIES,
      DriftProbeEntity,
    ]);
    expect(proposed).toEqual(['CREATE TABLE "drift_probe" ("id" integer PRIMARY KEY NOT NULL)']);
  });
});
