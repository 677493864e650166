import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKeyWithCli,
  type Instance,
  send,
  sharedRedisEnv,
  spawnInstance,
  stopAll,
  uniqueSuffix,
  waitReady,
} from './support/cluster.js';
import { emptyDatabase, requireIntegrationContext, type TestDatabase } from './support/context.js';

const context = requireIntegrationContext();

describe('two deployments with different databases sharing one Redis and one prefix (integration)', () => {
  const databases: TestDatabase[] = [];
  const envs: Record<string, string>[] = [];
  const instances: Instance[] = [];

  beforeAll(async () => {
    const prefix = `${context.redisKeyPrefix}shared_${uniqueSuffix()}:`;
    for (const name of ['east', 'west']) {
      const database = await emptyDatabase(context, name);
      databases.push(database);
      const env = { ...sharedRedisEnv(context, database, name), REDIS_KEY_PREFIX: prefix };
      envs.push(env);
      const instance = await spawnInstance(`${database.name}_${name}`, env);
      instances.push(instance);
      await waitReady(instance);
    }
  }, 120_000);

  afterAll(async () => {
    await stopAll(instances);
    await Promise.all(databases.map((database) => database.drop()));
  });

  it('should keep the counts and bans of key 1 of one apart from key 1 of the other', async () => {
    const [east, west] = await Promise.all(
      envs.map((env) => createKeyWithCli(env, ['--plan', 'free', '--per-minute', '3'])),
    );
    // Both databases are new: each gives its first key the same row id.
    expect(east.id).toBe(west.id);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++)
      codes.push((await send(instances[0], 'GET', '/v1/inventory', { key: east.key })).status);
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(codes.slice(3)).not.toContain(200);

    const fresh = await send(instances[1], 'GET', '/v1/inventory', { key: west.key });
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('should keep the anonymous counts of one address apart', async () => {
    for (let i = 0; i < 5; i++) await send(instances[0], 'GET', '/v1/inventory');
    const other = await send(instances[1], 'GET', '/v1/inventory');
    expect(other.status).toBe(401);
    expect(other.headers['x-ratelimit-remaining']).toBe('59');
  });
});
