import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { POSTGRES_MIGRATIONS } from '../../src/database/migrations/index.js';
import { KeyScopesExpiryRotation1795500333081 } from '../../src/database/migrations/postgres/1795500333081-KeyScopesExpiryRotation.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import {
  createKeyWithCli,
  type Instance,
  runCli,
  send,
  sharedRedisEnv,
  sleep,
  spawnReady,
  stopAll,
} from './support/cluster.js';
import {
  emptyDatabase,
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';
import { admin } from './support/postgres.js';

const context = requireIntegrationContext();

/** The contract: a key stops working on every instance within 10 s. */
const CONTRACT_MS = 10_000;

describe('key scopes, expiry and rolling on two instances sharing PostgreSQL and Redis (integration)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let instances: Instance[];

  beforeAll(async () => {
    database = await migratedDatabase(context, 'keys');
    env = sharedRedisEnv(context, database, 'keys');
    instances = await spawnReady(database.name, ['a', 'b'], env);
    const imported = await admin(database.url, (client) =>
      client.query(
        `INSERT INTO pets (id, name, status, quantity) VALUES (1, 'Rex', 'available', 5)`,
      ),
    );
    expect(imported.rowCount).toBe(1);
  }, 120_000);

  afterAll(async () => {
    await stopAll(instances);
    await database?.drop();
  });

  const statuses = (key: string) =>
    Promise.all(
      instances.map(
        async (instance) => (await send(instance, 'GET', '/v1/inventory', { key })).status,
      ),
    );

  /** Polls both instances until each refuses `key`; resolves with how long each took. */
  async function untilRefused(key: string, since: number): Promise<number[]> {
    return Promise.all(
      instances.map(async (instance) => {
        for (;;) {
          const { status } = await send(instance, 'GET', '/v1/inventory', { key });
          const elapsed = Date.now() - since;
          if (status === 401) return elapsed;
          expect(status, instance.name).toBe(200);
          if (elapsed > CONTRACT_MS + 5_000) return elapsed;
          await sleep(100);
        }
      }),
    );
  }

  it('should refuse a PATCH with a read key on every instance with 403, change nothing, and count it in the shared limit', async () => {
    const { key } = await createKeyWithCli(env, ['--plan', 'free', '--scope', 'read']);
    const [a, b] = instances;
    const listed = await send(a, 'GET', '/v1/inventory', { key });
    expect(listed.status).toBe(200);
    expect(listed.headers['x-ratelimit-remaining']).toBe('59');

    const refused = await send(b, 'PATCH', '/v1/inventory/1', { key, body: { quantity: 0 } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', status: 403 });
    expect(refused.headers['x-ratelimit-remaining']).toBe('58');

    const after = await send(a, 'GET', '/v1/inventory', { key });
    expect(after.text).toBe('[{"petId":1,"quantity":5,"status":"available","available":5}]');
    expect(after.headers['x-ratelimit-remaining']).toBe('57');
  });

  it('should stop a key rolled with no grace on both instances within 10 s, its successor working at once, while a key rolled with a grace keeps working', async () => {
    const [cut, graced] = await Promise.all([
      createKeyWithCli(env, ['--plan', 'pro', '--name', 'leaked']),
      createKeyWithCli(env, ['--plan', 'pro', '--name', 'routine']),
    ]);
    // Both instances have both keys cached before the roll.
    expect(await statuses(cut.key)).toEqual([200, 200]);
    expect(await statuses(graced.key)).toEqual([200, 200]);

    const [cutRoll, gracedRoll] = await Promise.all([
      runCli(['keys', 'roll', String(cut.id), '--grace', '0h'], env),
      runCli(['keys', 'roll', String(graced.id)], env),
    ]);
    const rolledAt = Date.now();
    expect(cutRoll.code, cutRoll.stderr).toBe(0);
    expect(gracedRoll.code, gracedRoll.stderr).toBe(0);
    const cutSuccessor = cutRoll.stdout.trimEnd().split('\n').at(-1)!;
    const gracedSuccessor = gracedRoll.stdout.trimEnd().split('\n').at(-1)!;
    expect(cutSuccessor).toMatch(/^pk_live_/);
    expect(await statuses(cutSuccessor)).toEqual([200, 200]);
    expect(await statuses(gracedSuccessor)).toEqual([200, 200]);

    const took = await untilRefused(cut.key, rolledAt);
    for (const ms of took) expect(ms).toBeLessThan(CONTRACT_MS);

    // Past every cache lifetime since the roll, the key rolled with the default grace still works.
    await sleep(Math.max(0, rolledAt + CONTRACT_MS - Date.now()));
    expect(await statuses(graced.key)).toEqual([200, 200]);

    // Its grace running out (written straight to the database, as another instance's clock would
    // see it) stops it on both instances within 10 s, though both have it cached.
    const expired = await admin(database.url, (client) =>
      client.query(`UPDATE api_keys SET expires_at = $1 WHERE id = $2`, [
        new Date(Date.now() - 1000),
        graced.id,
      ]),
    );
    expect(expired.rowCount).toBe(1);
    const since = Date.now();
    for (const ms of await untilRefused(graced.key, since)) expect(ms).toBeLessThan(CONTRACT_MS);
    expect(await statuses(gracedSuccessor)).toEqual([200, 200]);
  }, 60_000);

  it('should let only one of two simultaneous rolls of a key succeed', async () => {
    const { id } = await createKeyWithCli(env, ['--plan', 'free']);
    const results = await Promise.all([
      runCli(['keys', 'roll', String(id)], env),
      runCli(['keys', 'roll', String(id)], env),
    ]);
    expect(results.map((result) => result.code).sort()).toEqual([0, 1]);
    expect(results.find((result) => result.code === 1)!.stderr).toContain(
      `API key ${id} was already rolled`,
    );
    const rows = await admin(database.url, (client) =>
      client.query(`SELECT count(*)::int AS n FROM api_keys WHERE name IS NULL AND id > $1`, [id]),
    );
    expect(rows.rows[0].n).toBe(1);
  }, 60_000);
});

describe('key migration on PostgreSQL (integration)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await emptyDatabase(context, 'keymig');
  });
  afterAll(() => database?.drop());

  it('should turn existing keys into write keys that never expire', async () => {
    const options = dataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database);
    const before = POSTGRES_MIGRATIONS.slice(
      0,
      POSTGRES_MIGRATIONS.indexOf(KeyScopesExpiryRotation1795500333081),
    );
    const old = await openDataSource({ ...options, migrations: before });
    await old.query(
      `INSERT INTO api_keys (key_hash, key_prefix, plan, environment) VALUES ('h1', 'pk_live_abcd', 'pro', 'production')`,
    );
    await old.destroy();

    const current = await openDataSource(options);
    try {
      expect(
        await current.query(
          `SELECT scope, expires_at, replaced_by_id, rolled_at FROM api_keys WHERE key_hash = 'h1'`,
        ),
      ).toEqual([{ scope: 'write', expires_at: null, replaced_by_id: null, rolled_at: null }]);
      await expect(
        current.query(`UPDATE api_keys SET scope = 'admin' WHERE key_hash = 'h1'`),
      ).rejects.toThrow(/CHK_api_keys_scope/);
    } finally {
      await current.destroy();
    }
  });
});
