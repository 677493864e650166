import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface CatalogRow {
  petId: number;
  quantity: number;
  status: 'available' | 'pending' | 'sold';
  name: string;
}

/** A small deterministic PRNG, so every run benchmarks the same catalogue. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function makeCatalog(size: number): CatalogRow[] {
  const random = mulberry32(size);
  return Array.from({ length: size }, (_, i) => {
    const quantity = Math.floor(random() * 50);
    const status = quantity === 0 ? 'sold' : random() < 0.2 ? 'pending' : 'available';
    const petId = 10_000 + i * 3;
    return { petId, quantity, status, name: `Pet ${petId}` };
  });
}

export function writeCatalog(dir: string, rows: CatalogRow[]): string {
  const file = join(dir, `catalog-${rows.length}.json`);
  writeFileSync(file, JSON.stringify(rows));
  return file;
}

export interface PreparedDatabase {
  databaseUrl: string;
  apiKey: string;
}

/** The service's production environment, quiet, on the given database. */
export function serviceEnv(databaseUrl: string): Record<string, string> {
  return { APP_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl };
}

/**
 * A fresh SQLite file holding the catalogue and an enterprise key whose limits no run can reach,
 * made with the product's own CLI (which also runs the migrations).
 */
export function prepareDatabase(dir: string, label: string, catalogFile: string): PreparedDatabase {
  return prepareAt(`sqlite:${join(dir, `${label}.sqlite`)}`, catalogFile);
}

/** The same on any database the service takes (an empty PostgreSQL database too). */
export function prepareAt(databaseUrl: string, catalogFile: string): PreparedDatabase {
  const env = { ...process.env, ...serviceEnv(databaseUrl) };
  const cli = (...args: string[]): string =>
    execFileSync(process.execPath, ['dist/cli/cli.js', ...args], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const created = cli(
    'keys',
    'create',
    '--plan',
    'enterprise',
    '--per-minute',
    '2000000000',
    '--per-day',
    '2000000000',
    '--name',
    'bench',
  );
  const apiKey = created.trim().split('\n').at(-1)!.trim();
  if (!/^pk_live_/.test(apiKey)) throw new Error(`keys create printed no key: ${created}`);
  cli('inventory', 'import', catalogFile);
  return { databaseUrl, apiKey };
}

interface SqliteFile {
  prepare(sql: string): { run(...params: unknown[]): { changes: number } };
  close(): void;
}

/**
 * Writes to the service's SQLite file from this process, as another instance would: each change
 * with its stock-history record, numbered by the write counter. The service learns which pets
 * changed from that history, or, for more pets than it applies that way, reads the table.
 */
export function writeElsewhere(databaseUrl: string): (petIds: readonly number[]) => void {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (
    path: string,
    options: { timeout: number },
  ) => SqliteFile;
  const db = new Database(databaseUrl.slice('sqlite:'.length), { timeout: 5000 });
  const update = db.prepare(
    `UPDATE pets SET quantity = quantity + 1, status = CASE WHEN status = 'sold' THEN 'available' ELSE status END WHERE id = ?`,
  );
  // Recorded before the update, which bumps the counter to the id given here.
  const record = db.prepare(
    `INSERT INTO inventory_changes (id, pet_id, previous_quantity, quantity, previous_status, status, source, changed_at)
     SELECT (SELECT version + 1 FROM inventory_version WHERE id = 1), id, quantity, quantity + 1, status,
       CASE WHEN status = 'sold' THEN 'available' ELSE status END, 'api', ? FROM pets WHERE id = ?`,
  );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  return (petIds) => {
    begin.run();
    const changedAt = new Date().toISOString();
    for (const petId of petIds) {
      if (record.run(changedAt, petId).changes !== 1 || update.run(petId).changes !== 1)
        throw new Error(`no pet ${petId} to update`);
    }
    commit.run();
  };
}
