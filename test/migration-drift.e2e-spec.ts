import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTITIES } from '../src/entities.js';
import {
  DriftProbeEntity,
  KNOWN_DIFFERENCES,
  proposedMigration,
} from './support/migration-drift.js';

describe('Schema drift on SQLite: migration:generate after the migrations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-drift-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should propose nothing but the known differences of column types per dialect', async () => {
    expect(await proposedMigration(`sqlite:${join(dir, 'latest.sqlite')}`)).toEqual(
      KNOWN_DIFFERENCES.sqlite,
    );
  });

  it('should find an entity that no migration matches', async () => {
    const proposed = await proposedMigration(`sqlite:${join(dir, 'drifted.sqlite')}`, [
      ...ENTITIES,
      DriftProbeEntity,
    ]);
    expect(proposed).not.toEqual(KNOWN_DIFFERENCES.sqlite);
    expect(proposed).toContain('CREATE TABLE "drift_probe" ("id" integer PRIMARY KEY NOT NULL)');
  });
});
