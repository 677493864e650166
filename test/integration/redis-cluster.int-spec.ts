import { describe, expect, it } from 'vitest';
import {
  command,
  type RedisCluster,
  shardOf,
  startCluster,
} from '../../bench/lib/redis-servers.js';
import { requireIntegrationContext } from './support/context.js';
import {
  dayLimitedKey,
  expectExactLimit,
  failoverSuite,
  failoverUnderLoad,
} from './support/failover.js';
import { send, waitFor } from './support/cluster.js';

const context = requireIntegrationContext();

describe('Redis Cluster: failover under load (integration)', () => {
  let cluster: RedisCluster;
  const suite = failoverSuite(context, 'redis_cluster', async () => {
    cluster = await startCluster();
    return {
      // Any two nodes: the service discovers the rest.
      env: {
        REDIS_CLUSTER_NODES: cluster.nodes
          .slice(0, 2)
          .map((node) => node.address)
          .join(','),
      },
      // The promotion is the replica answering ROLE as a master.
      async killMaster(hashTag) {
        const { master, replica } = await shardOf(cluster, hashTag);
        await cluster.servers.kill(master);
        const promoted = (async () => {
          await waitFor(
            async () => ((await command(replica.port, 'ROLE')) as string[])[0] === 'master',
            30_000,
          );
          return Date.now();
        })();
        return { promoted };
      },
      stop: () => cluster.servers.stop(),
    };
  });

  it('should count each of many callers exactly when their requests share one turn, each in its own hash slot', async () => {
    const keys = await Promise.all(Array.from({ length: 4 }, () => dayLimitedKey(suite.run.env)));
    const slots = await Promise.all(
      keys.map(async ({ id }) =>
        Number(await command(cluster.nodes[0].port, 'CLUSTER', 'KEYSLOT', `{key:${id}}`)),
      ),
    );
    expect(new Set(slots).size).toBe(keys.length);
    // Keys known to both instances (the status route counts nothing), so their requests meet
    // in the same turns rather than each key's after its own lookup.
    for (const instance of [suite.run.closed, suite.run.open])
      for (const { key } of keys)
        expect((await send(instance, 'GET', '/v1/rate_limit', { key })).status).toBe(200);
    await expectExactLimit(suite.run, ...keys.map(({ key }) => key));
  }, 60_000);

  it('should count exactly across two instances with each caller in one hash slot, follow the promoted replica within 10 s, and never answer 500 meanwhile', async () => {
    await failoverUnderLoad(
      suite.run,
      suite.topology,
      "Cluster (6 nodes, node timeout 1 s): SIGKILL of the master of the caller's slot under 2 loops of GET /v1/inventory on each of 2 instances",
    );
  }, 90_000);
});
