import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createKeyWithCli, ensureBuilt, runCli } from './built-server.js';

export interface SqliteDeployment {
  /** The SQLite file. */
  database: string;
  env: Record<string, string>;
  /** An enterprise key that no test runs out of; set before all tests. */
  key: string;
}

/**
 * A production deployment of the built server on a SQLite file of its own, made ready before all
 * tests of the enclosing describe as an operator would, with the CLI (a key, `inventory`
 * imported), and removed after them.
 */
export function sqliteDeployment(label: string, inventory: string): SqliteDeployment {
  const dir = mkdtempSync(join(tmpdir(), `petstore-${label}-`));
  const database = join(dir, 'petstore.sqlite');
  const deployment: SqliteDeployment = {
    database,
    env: { DATABASE_URL: `sqlite:${database}`, APP_ENV: 'production', LOG_LEVEL: 'warn' },
    key: '',
  };
  beforeAll(async () => {
    await ensureBuilt();
    deployment.key = await createKeyWithCli(deployment.env, [
      '--plan',
      'enterprise',
      '--per-minute',
      '100000000',
      '--per-day',
      '100000000',
    ]);
    const file = join(dir, 'pets.json');
    writeFileSync(file, inventory);
    await runCli(deployment.env, ['inventory', 'import', file]);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return deployment;
}
