import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import { POSTGRES_MIGRATIONS } from '../../src/database/migrations/index.js';
import { createTestApp, type TestApp } from '../support/create-test-app.js';
import {
  emptyDatabase,
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';
import { runCli } from './support/cluster.js';
import { admin } from './support/postgres.js';
import { TcpProxy } from './support/tcp-proxy.js';

const context = requireIntegrationContext();

interface PgPoolOptions {
  max: number;
  connectionTimeoutMillis: number;
  statement_timeout: number;
  query_timeout: number;
}

describe('PostgreSQL configuration and outages (integration)', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('should hand pool size, connect timeout and statement timeout to pg', async () => {
    const database = await migratedDatabase(context);
    cleanup.push(database.drop);
    const app = await createTestApp({
      DATABASE_URL: database.url,
      DB_POOL_SIZE: '3',
      DB_STATEMENT_TIMEOUT_MS: '700',
      DB_CONNECT_TIMEOUT_MS: '1500',
    });
    cleanup.push(() => app.close());
    const dataSource = app.app.get(DataSource);
    const pool = (dataSource.driver as unknown as { master: { options: PgPoolOptions } }).master
      .options;
    expect(pool).toMatchObject({
      max: 3,
      connectionTimeoutMillis: 1500,
      statement_timeout: 700,
      query_timeout: 1700,
    });
    expect(await dataSource.query('SHOW statement_timeout')).toEqual([
      { statement_timeout: '700ms' },
    ]);
    await expect(dataSource.query('SELECT pg_sleep(5)')).rejects.toMatchObject({
      driverError: { code: '57014' },
    });
  });

  it('should apply every migration exactly once when several processes migrate an empty database together', async () => {
    const database = await emptyDatabase(context);
    cleanup.push(database.drop);
    const options = dataSourceOptions(
      loadConfig({ DATABASE_URL: database.url, DB_POOL_SIZE: '2' }).database,
    );
    const sources = await Promise.all(Array.from({ length: 4 }, () => openDataSource(options)));
    cleanup.push(() => Promise.all(sources.map((source) => source.destroy())));
    const applied = (await sources[0].query('SELECT name FROM migrations ORDER BY id')) as {
      name: string;
    }[];
    expect(applied.map((row) => row.name)).toEqual(
      POSTGRES_MIGRATIONS.map((migration) => new migration().name),
    );
    for (const source of sources) expect(await source.showMigrations()).toBe(false);
  });

  it('should let CLI commands and starting servers migrate one empty database together', async () => {
    const database = await emptyDatabase(context);
    cleanup.push(database.drop);
    const env = { DATABASE_URL: database.url, APP_ENV: 'staging', LOG_LEVEL: 'warn' };
    const options = dataSourceOptions(loadConfig(env).database);
    const [first, second, ...sources] = await Promise.all([
      runCli(['keys', 'list', '--json'], env),
      runCli(['keys', 'list', '--json'], env),
      openDataSource(options),
      openDataSource(options),
    ]);
    cleanup.push(() => Promise.all(sources.map((source) => source.destroy())));
    for (const result of [first, second]) {
      expect(result.stderr).toBe('');
      expect(result).toMatchObject({ code: 0, stdout: '[]\n' });
    }
    const applied = (await sources[0].query('SELECT name FROM migrations ORDER BY id')) as {
      name: string;
    }[];
    expect(applied.map((row) => row.name)).toEqual(
      POSTGRES_MIGRATIONS.map((migration) => new migration().name),
    );
  });

  it('should keep the request timeouts off the migration connection', async () => {
    const database = await emptyDatabase(context);
    cleanup.push(database.drop);
    // A migration may run far longer than a request may: one held up for longer than the
    // statement timeout must still apply. An uncommitted table of the same name holds up the
    // CREATE TABLE of TypeORM's migrations table until this transaction ends.
    const timeoutMs = 100;
    const options = dataSourceOptions(
      loadConfig({ DATABASE_URL: database.url, DB_STATEMENT_TIMEOUT_MS: String(timeoutMs) })
        .database,
    );
    const source = await admin(database.url, async (client) => {
      await client.query('BEGIN');
      await client.query('CREATE TABLE migrations (id int)');
      let settled = false;
      const opening = openDataSource(options).finally(() => (settled = true));
      opening.catch(() => undefined);
      // Waiting on our lock for longer than a request's statement may run, by the server's clock.
      while (!settled) {
        // Inside a transaction the activity view is read once unless its snapshot is cleared.
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query<{ held: boolean }>(
          `SELECT count(*) > 0 AS held FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND query LIKE 'CREATE TABLE "migrations"%'
             AND clock_timestamp() - query_start > $1::int * interval '3 ms'`,
          [timeoutMs],
        );
        if (rows[0].held) break;
      }
      await client.query('ROLLBACK');
      return opening;
    });
    cleanup.push(() => source.destroy());
    await expect(source.query(`SELECT pg_sleep(${(timeoutMs * 3) / 1000})`)).rejects.toMatchObject({
      driverError: { code: '57014' },
    });
    const migrated = await admin(database.url, (client) =>
      client.query('SELECT count(*)::int AS n FROM migrations'),
    );
    expect(migrated.rows).toEqual([{ n: POSTGRES_MIGRATIONS.length }]);
  });
});

describe('a PostgreSQL outage under a running app (integration)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    database = await migratedDatabase(context, 'outage');
    proxy = await TcpProxy.start('127.0.0.1', Number(new URL(database.url).port || 5432));
    t = await createTestApp({
      DATABASE_URL: proxy.url(database.url),
      DB_POOL_SIZE: '2',
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '1000',
      API_KEY_CACHE_TTL_MS: '0',
    });
    key = await t.createKey({ plan: 'business' });
    await t.seed([{ petId: 9223372036854775807n, name: 'Max', status: 'available', quantity: 3 }]);
  });
  afterAll(async () => {
    proxy?.setMode('up');
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });
  afterEach(() => proxy.setMode('up'));

  const timed = async <T>(work: () => PromiseLike<T>): Promise<{ result: T; ms: number }> => {
    const started = performance.now();
    const result = await work();
    return { result, ms: performance.now() - started };
  };
  const listInventory = () =>
    request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${key}`);
  const patchMax = (quantity: number) =>
    request(t.server)
      .patch('/v1/inventory/9223372036854775807')
      .set('Authorization', `Bearer ${key}`)
      .send({ quantity });

  it.each(['down', 'mute'] as const)(
    'should answer 503 service_unavailable naming the database, within the timeouts, while it is %s',
    async (mode) => {
      await listInventory().expect(200);
      proxy.setMode(mode);
      for (const call of [listInventory, () => patchMax(7)]) {
        const { result: res, ms } = await timed(call);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          code: 'service_unavailable',
          message: expect.stringMatching(/database/),
          status: 503,
        });
        expect(res.headers['retry-after']).toBe('1');
        // Bounded by DB_STATEMENT_TIMEOUT_MS + 1 s (a mute server) or DB_CONNECT_TIMEOUT_MS, never a hang.
        expect(ms).toBeLessThan(4000);
      }
      const { result: ready, ms } = await timed(() => request(t.server).get('/health/ready'));
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        code: 'service_unavailable',
        message: expect.stringMatching(/database/),
      });
      expect(ms).toBeLessThan(4000);
    },
  );

  it('should serve again once the database is back, without a restart', async () => {
    proxy.setMode('down');
    await listInventory().expect(503);
    proxy.setMode('up');
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await patchMax(4)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await listInventory().expect(200)).text).toBe(
      '[{"petId":9223372036854775807,"quantity":4,"status":"available","available":4}]',
    );
    await request(t.server).get('/health/ready').expect(200);
  });
});
