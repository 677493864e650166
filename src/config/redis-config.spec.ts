import { describe, expect, it } from 'vitest';
import { loadConfig } from './app-config.js';
import { ConfigError } from './env.parser.js';

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('Redis topology settings', () => {
  it('should read a Sentinel group with its master name and both passwords', () => {
    expect(
      loadConfig({
        REDIS_SENTINELS: 'sentinel-1:26379, 10.0.0.7:26380,[::1]:26381',
        REDIS_SENTINEL_NAME: 'petstore-master',
        REDIS_SENTINEL_PASSWORD: 'sentinel-s3cret',
        REDIS_PASSWORD: 'data-s3cret',
        REDIS_KEY_PREFIX: 'x:',
      }).redis,
    ).toEqual({
      sentinel: {
        nodes: [
          { host: 'sentinel-1', port: 26379 },
          { host: '10.0.0.7', port: 26380 },
          { host: '::1', port: 26381 },
        ],
        name: 'petstore-master',
        password: 'sentinel-s3cret',
      },
      password: 'data-s3cret',
      keyPrefix: 'x:',
      commandTimeoutMs: 500,
    });
  });

  it('should read a Cluster from any of its nodes, with the nodes password when set', () => {
    expect(
      loadConfig({
        REDIS_CLUSTER_NODES: 'redis-1.internal:7000,redis-2.internal:7001',
        REDIS_COMMAND_TIMEOUT_MS: '200',
      }).redis,
    ).toEqual({
      clusterNodes: [
        { host: 'redis-1.internal', port: 7000 },
        { host: 'redis-2.internal', port: 7001 },
      ],
      password: undefined,
      keyPrefix: 'petstore:',
      commandTimeoutMs: 200,
    });
  });

  it('should refuse two topologies at once in one line naming the second, secrets masked', () => {
    const message = failure({
      REDIS_URL: 'redis://:s3cret@cache:6379',
      REDIS_SENTINELS: 'sentinel-1:26379',
      REDIS_SENTINEL_NAME: 'm',
    });
    expect(message).toBe(
      'REDIS_SENTINELS must be unset when REDIS_URL is set (give exactly one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES) (got "sentinel-1:26379")',
    );
    expect(
      failure({ REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'redis-1:7000' }),
    ).toMatch(/^REDIS_CLUSTER_NODES must be unset when REDIS_URL is set/);
    expect(
      failure({
        REDIS_SENTINELS: 'sentinel-1:26379',
        REDIS_SENTINEL_NAME: 'm',
        REDIS_CLUSTER_NODES: 'redis-1:7000',
      }),
    ).toMatch(/^REDIS_CLUSTER_NODES must be unset when REDIS_SENTINELS is set/);
  });

  it('should refuse a malformed node list, naming the setting and what it accepts', () => {
    for (const [name, value] of [
      ['REDIS_SENTINELS', 'sentinel-1'],
      ['REDIS_SENTINELS', 'sentinel-1:26379,'],
      ['REDIS_SENTINELS', 'sentinel-1:0'],
      ['REDIS_SENTINELS', 'sentinel-1:65536'],
      ['REDIS_SENTINELS', 'redis://sentinel-1:26379'],
      ['REDIS_CLUSTER_NODES', 'redis-1:7000;redis-2:7000'],
      ['REDIS_CLUSTER_NODES', '::1:7000'],
      ['REDIS_CLUSTER_NODES', '[10.0.0.1]:7000'],
      ['REDIS_CLUSTER_NODES', 'bad_host:7000'],
    ]) {
      const message = failure(
        name === 'REDIS_SENTINELS'
          ? { [name]: value, REDIS_SENTINEL_NAME: 'm' }
          : { [name]: value },
      );
      expect(message).toBe(
        `${name} must be a comma-separated list of up to 64 host:port (such as ${
          name === 'REDIS_SENTINELS'
            ? 'sentinel-1:26379,sentinel-2:26379'
            : 'redis-1:6379,redis-2:6379'
        }) (got ${JSON.stringify(value)})`,
      );
    }
  });

  it('should never show a password, in a node list or a setting out of place', () => {
    const inList = failure({ REDIS_CLUSTER_NODES: 'admin:s3cret@redis-1:7000' });
    expect(inList).toMatch(/^REDIS_CLUSTER_NODES must be/);
    expect(inList).not.toContain('s3cret');
    expect(failure({ REDIS_URL: 'redis://cache:6379', REDIS_PASSWORD: 's3cret' })).toBe(
      'REDIS_PASSWORD must be set only with REDIS_SENTINELS or REDIS_CLUSTER_NODES (a REDIS_URL carries its own password) (got "***")',
    );
    expect(failure({ REDIS_SENTINEL_PASSWORD: 's3cret' })).toBe(
      'REDIS_SENTINEL_PASSWORD must be set only with REDIS_SENTINELS (got "***")',
    );
    expect(failure({ REDIS_PASSWORD: 's3cret' })).toMatch(/^REDIS_PASSWORD must be set only with/);
  });

  it('should want the master name with the sentinels, one word', () => {
    expect(failure({ REDIS_SENTINELS: 'sentinel-1:26379' })).toBe(
      'REDIS_SENTINEL_NAME must be the name of the master the sentinels monitor, one word (required with REDIS_SENTINELS) (got "")',
    );
    expect(
      failure({ REDIS_SENTINELS: 'sentinel-1:26379', REDIS_SENTINEL_NAME: 'my master' }),
    ).toMatch(/^REDIS_SENTINEL_NAME must be/);
    expect(failure({ REDIS_SENTINEL_NAME: 'mymaster' })).toBe(
      'REDIS_SENTINEL_NAME must be set only with REDIS_SENTINELS (got "mymaster")',
    );
  });
});
