import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisCluster,
  type SentinelGroup,
  startCluster,
  startSentinelGroup,
} from '../../bench/lib/redis-servers.js';
import type { RedisConfig } from '../../src/config/app-config.js';
import { RedisRateLimitStorage } from '../../src/rate-limit/storage/redis.storage.js';
import { describeRateLimitStorage } from '../support/rate-limit-storage.contract.js';
import { requireIntegrationContext } from './support/context.js';

requireIntegrationContext();

const PREFIX = `petstore-test:${randomUUID()}:`;
let group: SentinelGroup | undefined;
let cluster: RedisCluster | undefined;

beforeAll(async () => {
  [group, cluster] = await Promise.all([startSentinelGroup(), startCluster()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([group?.servers.stop(), cluster?.servers.stop()]);
});

const common = { keyPrefix: PREFIX, commandTimeoutMs: 2000 };
const sentinel = (): RedisConfig => ({
  sentinel: {
    nodes: group!.sentinels.map(({ port }) => ({ host: '127.0.0.1', port })),
    name: group!.name,
    password: undefined,
  },
  password: undefined,
  ...common,
});
const clusterConfig = (): RedisConfig => ({
  clusterNodes: [{ host: '127.0.0.1', port: cluster!.nodes[0].port }],
  password: undefined,
  ...common,
});

// The storage's every behaviour (windows, bans, peeks, charges) holds behind Sentinel and on a
// Cluster as on one server.
for (const [name, config] of [
  ['Sentinel', sentinel],
  ['Cluster', clusterConfig],
] as const) {
  describeRateLimitStorage(`redis (${name})`, async (clock, ban) => {
    const storage = new RedisRateLimitStorage(config(), ban, clock);
    await storage.onModuleInit();
    return storage;
  });
}

describe('a Cluster storage with many callers in one turn', () => {
  it('should decide each caller in its own slot exactly as if it came alone', async () => {
    const storage = new RedisRateLimitStorage(clusterConfig(), {
      threshold: 2,
      durationMs: 600_000,
    });
    await storage.onModuleInit();
    try {
      const minute = [{ name: 'minute', ttlMs: 60_000, limit: 3 }];
      const callers = Array.from({ length: 8 }, () => `key:${randomUUID()}`);
      const outcomes = await Promise.all(
        callers.flatMap((caller) => [
          ...Array.from({ length: 4 }, () => storage.consume(caller, minute)),
          storage.peek(caller, minute),
        ]),
      );
      for (let i = 0; i < callers.length; i++) {
        const mine = outcomes.slice(i * 5, i * 5 + 5);
        expect(mine.map((o) => o.status)).toEqual([
          'allowed',
          'allowed',
          'allowed',
          'limited',
          'limited',
        ]);
        expect(mine[4].windows[0].used).toBe(3);
      }
    } finally {
      await storage.close();
    }
  });
});
