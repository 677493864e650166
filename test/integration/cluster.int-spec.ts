import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../src/database/migrations/index.js';
import {
  createKeyWithCli,
  importInventory,
  type Instance,
  type Reply,
  runCli,
  send,
  sleep,
  sharedRedisEnv,
  spawnReady,
  stopAll,
  stopInstance,
  waitFor,
} from './support/cluster.js';
import { emptyDatabase, requireIntegrationContext, type TestDatabase } from './support/context.js';
import { admin, connect } from './support/postgres.js';

const context = requireIntegrationContext();

/** The pets the tests write to; ids above 2^53 check int64 handling on the way. */
const PETS = ['1', '2', '3', '9007199254740993', '9223372036854775807'];

interface InventoryItem {
  petId: string;
  quantity: number;
  status: string;
}

/** Parses a listing keeping petIds as exact text (JSON.parse would round those above 2^53). */
function inventory(reply: Reply): InventoryItem[] {
  expect(reply.status).toBe(200);
  return [
    ...reply.text.matchAll(/\{"petId":(\d+),"quantity":(\d+),"status":"(\w+)","available":\d+\}/g),
  ].map(([, petId, quantity, status]) => ({
    petId,
    quantity: Number(quantity),
    status,
  }));
}

describe('three instances on one PostgreSQL database and one Redis (integration)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let instances: Instance[];

  beforeAll(async () => {
    database = await emptyDatabase(context, 'cluster');
    env = sharedRedisEnv(context, database, 'cluster');
    // Started together on an empty database: each runs the migrations at start.
    instances = await spawnReady(database.name, ['a', 'b', 'c'], env);
    await importInventory(
      env,
      `[${PETS.map((id) => `{"petId":${id},"quantity":10,"status":"available","name":"pet ${id}"}`).join(',')}]`,
    );
  }, 120_000);

  afterAll(async () => {
    await stopAll(instances);
    await database?.drop();
  });

  const problemsInLogs = () =>
    instances.flatMap((instance) =>
      instance
        .log()
        .split('\n')
        .filter((line) => /"level":(50|60)|\bERROR\b|Unhandled/.test(line))
        .map((line) => `${instance.name}: ${line}`),
    );

  it('should apply each migration exactly once when all three start together on an empty database', async () => {
    const applied = await admin(database.url, (client) =>
      client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id'),
    );
    expect(applied.rows.map((row) => row.name)).toEqual(
      POSTGRES_MIGRATIONS.map((migration) => new migration().name),
    );
    expect(problemsInLogs()).toEqual([]);
  });

  it('should accept a key created with the CLI at once on every instance, and refuse it on all within 10 s of its revocation', async () => {
    const { key, id } = await createKeyWithCli(env, ['--plan', 'business', '--name', 'cluster']);
    for (const instance of instances) {
      expect((await send(instance, 'GET', '/v1/inventory', { key })).status).toBe(200);
    }

    const revoked = await runCli(['keys', 'revoke', String(id)], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const revokedAt = Date.now();
    const refusedAfter = await Promise.all(
      instances.map(async (instance) => {
        while (Date.now() - revokedAt < 12_000) {
          const reply = await send(instance, 'GET', '/v1/inventory', { key });
          if (reply.status === 401) return Date.now() - revokedAt;
          expect(reply.status).toBe(200);
          await sleep(200);
        }
        return Infinity;
      }),
    );
    for (const ms of refusedAfter) expect(ms).toBeLessThanOrEqual(10_000);
  });

  it('should agree on every pet after 500 concurrent PATCHes spread over the instances, each pet holding a value sent to it', async () => {
    const { key } = await createKeyWithCli(env, [
      '--plan',
      'enterprise',
      '--per-minute',
      '100000',
      '--per-day',
      '1000000',
    ]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const sent = new Map<string, Set<number>>(PETS.map((id) => [id, new Set()]));
    try {
      const replies = await Promise.all(
        Array.from({ length: 500 }, (_, i) => {
          const petId = PETS[i % PETS.length];
          const quantity =
            Math.floor(Math.random() * 4) === 0 ? 0 : 1 + Math.floor(Math.random() * 1_000_000);
          sent.get(petId)!.add(quantity);
          return send(instances[i % instances.length], 'PATCH', `/v1/inventory/${petId}`, {
            key,
            body: { quantity },
            agent,
          });
        }),
      );
      expect(
        replies
          .filter((reply) => reply.status !== 200)
          .map((reply) => `${reply.status} ${reply.text}`),
      ).toEqual([]);
    } finally {
      agent.destroy();
    }

    const listings = await Promise.all(
      instances.map(async (instance) =>
        inventory(await send(instance, 'GET', '/v1/inventory', { key })),
      ),
    );
    for (const listing of listings.slice(1)) expect(listing).toEqual(listings[0]);
    expect(listings[0].map((item) => item.petId)).toEqual(PETS);
    for (const item of listings[0]) {
      expect(sent.get(item.petId)!.has(item.quantity)).toBe(true);
      expect(item.status).toBe(item.quantity === 0 ? 'sold' : 'available');
    }
    expect(problemsInLogs()).toEqual([]);
  });

  it('should let a free key through exactly 60 times across the instances, then ban it on every one', async () => {
    const { key } = await createKeyWithCli(env, ['--plan', 'free']);
    // The minute window is a UTC calendar minute: fire the burst well inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await sleep(60_000 - intoMinute + 100);

    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        send(instances[i % instances.length], 'GET', '/v1/inventory', { key }),
      ),
    );
    const allowed = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(allowed).toHaveLength(60);
    expect(refused).toHaveLength(90);
    // Each allowed request was counted once, atomically, whichever instance served it.
    const remaining = allowed
      .map((reply) => Number(reply.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const reply of refused) {
      expect(['rate_limit_exceeded', 'api_key_banned']).toContain(
        (reply.body as { code: string }).code,
      );
    }

    // Far more than RATE_LIMIT_BAN_THRESHOLD (20) rejections: banned, on every instance.
    for (const instance of instances) {
      const reply = await send(instance, 'GET', '/v1/inventory', { key });
      expect(reply.status).toBe(429);
      expect(reply.body).toMatchObject({ code: 'api_key_banned', status: 429 });
      expect(Number(reply.headers['retry-after'])).toBeGreaterThan(60);
    }
  });

  it('should stop one instance on SIGTERM under load without failing any request that reached it', async () => {
    const { key } = await createKeyWithCli(env, [
      '--plan',
      'enterprise',
      '--per-minute',
      '100000',
      '--per-day',
      '1000000',
    ]);
    const [stayA, stayB, leaving] = instances;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idleProbeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let replies = 0;
    const notOk: string[] = [];
    const failures: string[] = [];
    let refused = 0;
    let stopping = false;

    const worker = async (n: number) => {
      for (let i = 0; i < 5000; i++) {
        try {
          const reply =
            i % 2 === 0
              ? await send(leaving, 'GET', '/v1/inventory', { key, agent })
              : await send(leaving, 'PATCH', `/v1/inventory/${PETS[1 + (n % 4)]}`, {
                  key,
                  agent,
                  body: { quantity: i },
                });
          replies++;
          if (reply.status !== 200) notOk.push(`${reply.status} ${reply.text}`);
        } catch (err) {
          const { code, message } = err as { code?: string; message: string };
          // Refused: it no longer accepts connections, so this request never reached it.
          if (code === 'ECONNREFUSED' && stopping) refused++;
          else failures.push(`${code}: ${message}`);
          return;
        }
      }
    };

    // A kept-alive connection that is idle when the signal arrives, used again just after.
    expect((await send(leaving, 'GET', '/health/ready', { agent: idleAgent })).status).toBe(200);
    expect((await send(leaving, 'GET', '/health/ready', { agent: idleProbeAgent })).status).toBe(
      200,
    );
    const load = Promise.all(Array.from({ length: 12 }, (_, n) => worker(n)));
    // A transaction holding pet 1's row keeps these PATCHes in flight while the signal arrives.
    const locker = await connect(database.url);
    try {
      await waitFor(async () => replies >= 100);
      await locker.query('BEGIN');
      await locker.query(`SELECT 1 FROM pets WHERE id = ${PETS[0]} FOR UPDATE`);
      const [{ pid: lockerPid }] = (
        await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      ).rows;
      const held = Array.from({ length: 3 }, (_, i) =>
        send(leaving, 'PATCH', `/v1/inventory/${PETS[0]}`, { key, body: { quantity: 100 + i } }),
      );
      // The held PATCHes queue behind the locker (the load's PATCHes also wait on each other's
      // rows, so a count of all lock waits could be reached before these arrived). Updates sent
      // together are committed together (PostgresStockWriter), so they may share one backend.
      await waitFor(async () => {
        const { rows } = await locker.query<{ n: number }>(
          `WITH RECURSIVE queued(pid) AS (
             SELECT pid FROM pg_stat_activity WHERE $2::int = ANY(pg_blocking_pids(pid))
             UNION
             SELECT a.pid FROM pg_stat_activity a JOIN queued q ON q.pid = ANY(pg_blocking_pids(a.pid))
           )
           SELECT count(*)::int AS n FROM queued JOIN pg_stat_activity a USING (pid) WHERE a.application_name = $1`,
          [leaving.name, lockerPid],
        );
        return rows[0].n >= 1;
      });

      stopping = true;
      leaving.child.kill('SIGTERM');
      await sleep(300);
      const onIdleConnection = await send(leaving, 'GET', '/v1/inventory', {
        key,
        agent: idleAgent,
      });
      expect(onIdleConnection.status).toBe(200);
      expect(onIdleConnection.headers.connection).toBe('close');
      const readiness = await send(leaving, 'GET', '/health/ready', { agent: idleProbeAgent });
      expect(readiness.status).toBe(503);
      expect(readiness.body).toMatchObject({
        code: 'service_unavailable',
        message: 'Not ready: shutting down',
      });
      await sleep(200);
      expect(leaving.child.exitCode).toBe(null);
      await locker.query('COMMIT');

      const heldReplies = await Promise.all(held);
      const exit = await stopInstance(leaving);
      await load;

      expect(heldReplies.map((reply) => reply.status)).toEqual([200, 200, 200]);
      expect(failures).toEqual([]);
      expect(notOk).toEqual([]);
      expect(refused).toBe(12);
      expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
      expect(leaving.log()).not.toMatch(/"level":(50|60)|Error during shutdown/);
    } finally {
      agent.destroy();
      idleAgent.destroy();
      idleProbeAgent.destroy();
      await locker.end();
    }

    const connections = await admin(database.url, (client) =>
      client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
        leaving.name,
      ]),
    );
    expect(connections.rows).toEqual([{ n: 0 }]);
    for (const instance of [stayA, stayB])
      expect((await send(instance, 'GET', '/v1/inventory', { key })).status).toBe(200);
  });
});
