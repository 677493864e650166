import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { POSTGRES_MIGRATIONS } from '../../src/database/migrations/index.js';
import { KeyTimesInstants1795655000000 } from '../../src/database/migrations/postgres/1795655000000-KeyTimesInstants.js';
import { openDataSource } from '../../src/database/open-data-source.js';
import {
  type Instance,
  runCli,
  send,
  spawnInstance,
  stopInstance,
  waitReady,
} from './support/cluster.js';
import {
  emptyDatabase,
  migratedDatabase,
  requireIntegrationContext,
  type TestDatabase,
} from './support/context.js';
import { admin } from './support/postgres.js';

const context = requireIntegrationContext();

const HOUR_MS = 3_600_000;
const ZONES = ['Asia/Tokyo', 'America/Los_Angeles', 'Pacific/Kiritimati'] as const;

/** Each key time as PostgreSQL holds it: milliseconds since the epoch, and the RFC 3339 UTC text. */
const TIMES_SQL = `SELECT id,
  (extract(epoch FROM created_at) * 1000)::float8 AS "createdMs",
  (extract(epoch FROM expires_at) * 1000)::float8 AS "expiresMs",
  (extract(epoch FROM rolled_at) * 1000)::float8 AS "rolledMs",
  (extract(epoch FROM revoked_at) * 1000)::float8 AS "revokedMs",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdIso",
  to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresIso"
  FROM api_keys WHERE id = $1`;

interface Times {
  createdMs: number;
  expiresMs: number | null;
  rolledMs: number | null;
  revokedMs: number | null;
  createdIso: string;
  expiresIso: string | null;
}

describe('key times are instants whatever TZ the CLI runs under (integration)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: Instance;

  beforeAll(async () => {
    database = await migratedDatabase(context, 'keytimes');
    env = { APP_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: database.url };
    server = await spawnInstance(`${database.name}_server`, { ...env, TZ: 'UTC' });
    await waitReady(server);
  }, 120_000);

  afterAll(async () => {
    if (server) await stopInstance(server);
    await database?.drop();
  });

  const cli = (tz: string, ...args: string[]) => runCli(args, { ...env, TZ: tz });

  const times = async (id: number): Promise<Times> =>
    (await admin(database.url, (client) => client.query<Times>(TIMES_SQL, [id]))).rows[0];

  const status = async (key: string) =>
    (await send(server, 'GET', '/v1/inventory', { key })).status;

  async function create(tz: string, ...args: string[]) {
    const before = Date.now();
    const result = await cli(tz, 'keys', 'create', '--plan', 'free', '--json', ...args);
    const after = Date.now();
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout) as {
      id: number;
      key: string;
      createdAt: string;
      expiresAt: string | null;
    };
    return { created, before, after };
  }

  for (const tz of ZONES) {
    it(`should store a key created under TZ=${tz} with --expires-in 2h as expiring 2 hours after now, which a server under UTC accepts`, async () => {
      const { created, before, after } = await create(tz, '--expires-in', '2h');
      const stored = await times(created.id);

      // Second precision of now() against the millisecond clock of this process.
      expect(stored.createdMs).toBeGreaterThanOrEqual(before - 1000);
      expect(stored.createdMs).toBeLessThanOrEqual(after + 1000);
      expect(stored.expiresMs).toBeGreaterThanOrEqual(before + 2 * HOUR_MS);
      expect(stored.expiresMs).toBeLessThanOrEqual(after + 2 * HOUR_MS);
      expect(created.createdAt).toBe(stored.createdIso);
      expect(created.expiresAt).toBe(stored.expiresIso);
      expect(await status(created.key)).toBe(200);
    });
  }

  it('should end the grace of a key rolled under TZ=Asia/Tokyo with --grace 0h now, so a server under UTC refuses the old key and accepts its successor', async () => {
    const { created } = await create('America/Los_Angeles');
    const before = Date.now();
    const rolled = await cli('Asia/Tokyo', 'keys', 'roll', String(created.id), '--grace', '0h');
    const after = Date.now();
    expect(rolled.code, rolled.stderr).toBe(0);
    const successor = rolled.stdout.trimEnd().split('\n').at(-1)!;

    const stored = await times(created.id);
    for (const instant of [stored.expiresMs, stored.rolledMs]) {
      expect(instant).toBeGreaterThanOrEqual(before);
      expect(instant).toBeLessThanOrEqual(after);
    }
    expect(rolled.stdout).toContain(`The old key works until ${stored.expiresIso};`);
    expect(await status(created.key)).toBe(401);
    expect(await status(successor)).toBe(200);
  });

  it('should roll with the default grace under TZ=Pacific/Kiritimati to 24 hours after now, and revoke under TZ=America/Los_Angeles at now', async () => {
    const { created } = await create('Asia/Tokyo', '--name', 'rolled');
    const before = Date.now();
    const rolled = await cli('Pacific/Kiritimati', 'keys', 'roll', String(created.id), '--json');
    const after = Date.now();
    expect(rolled.code, rolled.stderr).toBe(0);
    const { id: successorId, graceEndsAt } = JSON.parse(rolled.stdout) as {
      id: number;
      graceEndsAt: string;
    };
    const old = await times(created.id);
    expect(old.expiresMs).toBeGreaterThanOrEqual(before + 24 * HOUR_MS);
    expect(old.expiresMs).toBeLessThanOrEqual(after + 24 * HOUR_MS);
    expect(graceEndsAt).toBe(old.expiresIso);
    expect(await status(created.key)).toBe(200);

    const revokedFrom = Date.now();
    const revoked = await cli('America/Los_Angeles', 'keys', 'revoke', String(successorId));
    const revokedTo = Date.now();
    expect(revoked.code, revoked.stderr).toBe(0);
    const successor = await times(successorId);
    expect(successor.revokedMs).toBeGreaterThanOrEqual(revokedFrom);
    expect(successor.revokedMs).toBeLessThanOrEqual(revokedTo);
  });

  it('should list the same instants in UTC under every TZ, as a table and as JSON', async () => {
    const { created } = await create('Asia/Tokyo', '--expires-in', '3d', '--name', 'listed');
    const stored = await times(created.id);
    for (const tz of ['America/Los_Angeles', 'Pacific/Kiritimati']) {
      const json = await cli(tz, 'keys', 'list', '--json');
      expect(json.code, json.stderr).toBe(0);
      const listed = (JSON.parse(json.stdout) as { id: number }[]).find(
        (key) => key.id === created.id,
      );
      expect(listed).toMatchObject({
        createdAt: stored.createdIso,
        expiresAt: stored.expiresIso,
      });

      const table = await cli(tz, 'keys', 'list');
      expect(table.code, table.stderr).toBe(0);
      const row = table.stdout.split('\n').find((line) => line.startsWith(`${created.id} `))!;
      // The table shows every instant to the second.
      const toSecond = (iso: string | null) => iso!.replace(/\.\d{3}Z$/, 'Z');
      expect(row).toContain(toSecond(stored.createdIso));
      expect(row).toContain(toSecond(stored.expiresIso));
    }
    expect(stored.createdIso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('the other times under a CLI TZ other than UTC (integration)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-times-'));
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: Instance;

  beforeAll(async () => {
    database = await migratedDatabase(context, 'othertimes');
    env = { APP_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: database.url };
    server = await spawnInstance(`${database.name}_server`, { ...env, TZ: 'America/Los_Angeles' });
    await waitReady(server);
  }, 120_000);

  afterAll(async () => {
    if (server) await stopInstance(server);
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("should keep an order's shipDate and a change's changedAt as the instants imported under TZ=Asia/Tokyo", async () => {
    writeFileSync(join(dir, 'pets.json'), '[{"petId":1,"quantity":3,"status":"available"}]');
    writeFileSync(
      join(dir, 'orders.json'),
      '[{"id":1,"petId":1,"quantity":1,"status":"placed","shipDate":"2026-12-01T09:30:00+09:00"},' +
        '{"id":2,"petId":1,"quantity":1,"status":"placed","shipDate":"2026-12-02"}]',
    );
    const tokyo = { ...env, TZ: 'Asia/Tokyo' };
    const before = Date.now();
    const pets = await runCli(['inventory', 'import', join(dir, 'pets.json')], tokyo);
    const after = Date.now();
    expect(pets.code, pets.stderr).toBe(0);
    const orders = await runCli(['orders', 'import', join(dir, 'orders.json')], tokyo);
    expect(orders.code, orders.stderr).toBe(0);
    const created = await runCli(['keys', 'create', '--plan', 'free'], tokyo);
    const key = created.stdout.trimEnd().split('\n').at(-1)!;

    const listed = await send(server, 'GET', '/v1/store/orders', { key });
    expect(listed.status).toBe(200);
    expect(
      (listed.body as { id: number; shipDate: string }[]).map(({ id, shipDate }) => ({
        id,
        shipDate,
      })),
    ).toEqual([
      { id: 1, shipDate: '2026-12-01T00:30:00.000Z' },
      { id: 2, shipDate: '2026-12-02T00:00:00.000Z' },
    ]);

    const changes = await send(server, 'GET', '/v1/inventory/changes', { key });
    expect(changes.status).toBe(200);
    const [change] = changes.body as { changedAt: string }[];
    expect(change.changedAt).toMatch(/Z$/);
    expect(Date.parse(change.changedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(change.changedAt)).toBeLessThanOrEqual(after);
  });
});

describe('key times migration on PostgreSQL (integration)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await emptyDatabase(context, 'keytimesmig');
  });
  afterAll(() => database?.drop());

  it('should turn the key times into timestamptz, reading the kept values as UTC, and revert', async () => {
    const options = dataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database);
    const before = POSTGRES_MIGRATIONS.slice(
      0,
      POSTGRES_MIGRATIONS.indexOf(KeyTimesInstants1795655000000),
    );
    const old = await openDataSource({ ...options, migrations: before });
    await old.query(
      `INSERT INTO api_keys (key_hash, key_prefix, plan, environment, created_at, expires_at, rolled_at, revoked_at)
       VALUES ('h1', 'pk_live_abcd', 'pro', 'production', '2026-01-02 03:04:05.678', '2026-02-03 04:05:06',
         '2026-01-05 00:00:00', NULL)`,
    );
    await old.destroy();
    // The kept values are UTC whatever zone the sessions default to.
    await admin(database.url, (client) =>
      client.query(`ALTER DATABASE "${database.name}" SET timezone TO 'Asia/Tokyo'`),
    );

    const current = await openDataSource(options);
    try {
      const utc = (column: string) =>
        `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS ${column}`;
      const select = `SELECT ${['created_at', 'expires_at', 'rolled_at', 'revoked_at'].map(utc).join(', ')} FROM api_keys`;
      expect(await current.query(select)).toEqual([
        {
          created_at: '2026-01-02 03:04:05.678',
          expires_at: '2026-02-03 04:05:06.000',
          rolled_at: '2026-01-05 00:00:00.000',
          revoked_at: null,
        },
      ]);
      const types = `SELECT column_name AS name, data_type AS type FROM information_schema.columns
        WHERE table_name = 'api_keys' AND column_name IN ('created_at', 'expires_at', 'rolled_at', 'revoked_at')
        ORDER BY column_name`;
      expect((await current.query<{ type: string }[]>(types)).map((column) => column.type)).toEqual(
        Array(4).fill('timestamp with time zone'),
      );

      // Undone down to and including the key times, newest first.
      const later =
        POSTGRES_MIGRATIONS.length - POSTGRES_MIGRATIONS.indexOf(KeyTimesInstants1795655000000);
      for (let i = 0; i < later; i++) await current.undoLastMigration();
      expect((await current.query<{ type: string }[]>(types)).map((column) => column.type)).toEqual(
        Array(4).fill('timestamp without time zone'),
      );
      expect(
        await current.query(
          `SELECT to_char(created_at, 'YYYY-MM-DD HH24:MI:SS.MS') AS created_at FROM api_keys`,
        ),
      ).toEqual([{ created_at: '2026-01-02 03:04:05.678' }]);
    } finally {
      await current.destroy();
    }
  });
});
