import { Redis } from 'ioredis';
import { describe, it } from 'vitest';
import { startSentinelGroup } from '../../bench/lib/redis-servers.js';
import { requireIntegrationContext } from './support/context.js';
import { failoverSuite, failoverUnderLoad } from './support/failover.js';

const context = requireIntegrationContext();

describe('Redis behind Sentinel: failover under load (integration)', () => {
  const suite = failoverSuite(context, 'redis_sentinel', async () => {
    const group = await startSentinelGroup();
    const { master, sentinels, name } = group;
    return {
      env: {
        REDIS_SENTINELS: sentinels.map((sentinel) => sentinel.address).join(','),
        REDIS_SENTINEL_NAME: name,
      },
      // The promotion is the sentinels' +switch-master announcement.
      async killMaster() {
        const watcher = new Redis({ port: sentinels[0].port, host: '127.0.0.1' });
        await watcher.subscribe('+switch-master');
        const promoted = new Promise<number>((resolve) =>
          watcher.on('message', () => {
            resolve(Date.now());
            watcher.disconnect();
          }),
        );
        await group.servers.kill(master);
        return { promoted };
      },
      stop: () => group.servers.stop(),
    };
  });

  it('should count exactly across two instances, follow the promoted replica within 10 s of the promotion, and never answer 500 meanwhile', async () => {
    await failoverUnderLoad(
      suite.run,
      suite.topology,
      'Sentinel (master, replica, 3 sentinels, down-after 1 s): SIGKILL of the master under 2 loops of GET /v1/inventory on each of 2 instances',
    );
  }, 90_000);
});
