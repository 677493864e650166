import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, describe, expect, it } from 'vitest';
import { DemoSeeder } from '../src/seed/demo-seeder.js';
import { createTestApp } from './support/create-test-app.js';

describe('durability on a SQLite file (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-durability-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'nested', 'petstore.sqlite')}` };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should keep keys and stock across a restart, in WAL mode with a busy timeout, in-memory temporary tables and rarer checkpoints', async () => {
    const first = await createTestApp(env);
    const key = await first.createKey();
    await first.seed([
      { petId: 9007199254740993n, name: 'Big Ben', status: 'available', quantity: 1 },
    ]);
    await request(first.server)
      .patch('/v1/inventory/9007199254740993')
      .set('Authorization', `Bearer ${key}`)
      .send({ quantity: 0 })
      .expect(200);
    const [{ journal_mode }] = await first.app.get(DataSource).query('PRAGMA journal_mode');
    const [{ timeout }] = await first.app.get(DataSource).query('PRAGMA busy_timeout');
    const [{ synchronous }] = await first.app.get(DataSource).query('PRAGMA synchronous');
    const [{ temp_store }] = await first.app.get(DataSource).query('PRAGMA temp_store');
    const [{ wal_autocheckpoint }] = await first.app
      .get(DataSource)
      .query('PRAGMA wal_autocheckpoint');
    expect(journal_mode).toBe('wal');
    expect(timeout).toBe(5000);
    // NORMAL (1): durable against a killed process in WAL mode; temporary tables in memory (2).
    expect(synchronous).toBe(1);
    expect(temp_store).toBe(2);
    // Checkpoints, which sync the file inside a commit, every 10000 pages rather than 1000.
    expect(wal_autocheckpoint).toBe(10000);
    await first.close();

    const second = await createTestApp(env);
    try {
      const res = await request(second.server)
        .get('/v1/inventory')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(res.text).toBe(
        '[{"petId":9007199254740993,"quantity":0,"status":"sold","available":0}]',
      );
      const migrations = await second.app.get(DataSource).query('SELECT name FROM migrations');
      expect(migrations.length).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('should seed the development demo catalogue and key once, on an empty database only', async () => {
    const seedEnv = { DATABASE_URL: `sqlite:${join(dir, 'seed.sqlite')}` };
    const first = await createTestApp(seedEnv);
    const demoKey = await first.app.get(DemoSeeder).seedIfEmpty();
    expect(demoKey).toMatch(/^pk_test_[0-9A-Za-z]{40}$/);
    const res = await request(first.server)
      .get('/v1/inventory')
      .set('Authorization', `Bearer ${demoKey}`)
      .expect(200);
    expect(res.body.length).toBeGreaterThanOrEqual(10);
    expect(await first.app.get(DemoSeeder).seedIfEmpty()).toBeUndefined();
    await first.close();

    const second = await createTestApp(seedEnv);
    try {
      expect(await second.app.get(DemoSeeder).seedIfEmpty()).toBeUndefined();
      await request(second.server)
        .get('/v1/inventory')
        .set('Authorization', `Bearer ${demoKey}`)
        .expect(200);
    } finally {
      await second.close();
    }
  });

  it('should not seed outside development', async () => {
    const app = await createTestApp({ APP_ENV: 'staging' });
    try {
      expect(await app.app.get(DemoSeeder).seedIfEmpty()).toBeUndefined();
      // COUNT(*) is a number on SQLite and bigint text on PostgreSQL (npm run test:integration).
      const [{ n }] = await app.app.get(DataSource).query('SELECT COUNT(*) AS n FROM pets');
      expect(Number(n)).toBe(0);
    } finally {
      await app.close();
    }
  });
});
