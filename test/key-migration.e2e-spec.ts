import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/app-config.js';
import { dataSourceOptions } from '../src/database/data-source.js';
import { SQLITE_MIGRATIONS } from '../src/database/migrations/index.js';
import { KeyScopesExpiryRotation1795500333081 } from '../src/database/migrations/sqlite/1795500333081-KeyScopesExpiryRotation.js';
import { openDataSource } from '../src/database/open-data-source.js';

describe('key migration on SQLite (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-keymig-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should turn existing keys into write keys that never expire, and revert cleanly', async () => {
    const options = dataSourceOptions(
      loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'keys.sqlite')}` }).database,
    );
    const before = SQLITE_MIGRATIONS.slice(
      0,
      SQLITE_MIGRATIONS.indexOf(KeyScopesExpiryRotation1795500333081),
    );
    const old = await openDataSource({ ...options, migrations: before });
    await old.query(
      `INSERT INTO api_keys (key_hash, key_prefix, plan, per_day, environment) VALUES ('h1', 'pk_test_abcd', 'pro', 42, 'development')`,
    );
    await old.destroy();

    const current = await openDataSource(options);
    try {
      expect(
        await current.query(
          `SELECT id, plan, per_day, scope, expires_at, replaced_by_id, rolled_at FROM api_keys`,
        ),
      ).toEqual([
        {
          id: 1,
          plan: 'pro',
          per_day: 42,
          scope: 'write',
          expires_at: null,
          replaced_by_id: null,
          rolled_at: null,
        },
      ]);
      await expect(current.query(`UPDATE api_keys SET scope = 'admin'`)).rejects.toThrow(
        /CHECK constraint failed/,
      );
      await current.undoLastMigration();
      expect(await current.query(`SELECT id, key_hash, per_day FROM api_keys`)).toEqual([
        { id: 1, key_hash: 'h1', per_day: 42 },
      ]);
    } finally {
      await current.destroy();
    }
  });
});
